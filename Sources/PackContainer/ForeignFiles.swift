/// Names the file type when a pack is opened on something else, since "bad magic" alone does not help.
enum ForeignFiles {
    private static let packs: [(magic: String, name: String)] = [
        ("OGRPACK", "routing pack"), ("OGMPACK", "map pack"), ("OGSTYLE", "style pack"),
    ]

    static func message(_ bytes: ArraySlice<UInt8>, kind: PackKind) -> String {
        let b = Array(bytes)
        let prefix = "not a \(kind.name)"
        for p in packs where b.starts(with: Array(p.magic.utf8)) { return "\(prefix): this is a \(p.name)" }
        if b.count >= 15 && Array(b[6..<15]) == Array("OSMHeader".utf8) {
            return "\(prefix): this is an OSM PBF file"
        }
        if b.starts(with: [0x1f, 0x8b]) { return "\(prefix): this is a gzip file" }
        if b.count >= 15 && b.starts(with: Array("SQLite format 3".utf8)) { return "\(prefix): this is an SQLite file" }
        if b.first == UInt8(ascii: "{") { return "\(prefix): this looks like JSON" }
        let magic = String(decoding: kind.magic.dropLast(), as: UTF8.self)
        return "\(prefix) (no \"\(magic)\" magic at byte 0)"
    }
}
