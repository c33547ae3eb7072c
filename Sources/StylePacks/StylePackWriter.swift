import OffgridCore

/// What a style pack holds: the header fields and the resources with their bytes.
public struct StylePackContents {
    public var uri: String
    public var createdBy: String
    public var glyphsMode: GlyphsMode
    /// Ascending, each in `StylePackFormat.pixelRatioRange`.
    public var pixelRatios: [Int]
    /// Sorted by UTF-8 bytes, names joined by ",".
    public var fontStacks: [String]
    /// In the style's order.
    public var sprites: [StyleSprite]
    /// Sorted by id.
    public var sources: [StyleSource]
    /// The style first, then sprite files, then glyph ranges (see `StylePackWriter.encode`).
    public var resources: [(info: StyleResourceInfo, bytes: [UInt8])]

    public init(uri: String, createdBy: String, glyphsMode: GlyphsMode, pixelRatios: [Int], fontStacks: [String],
                sprites: [StyleSprite], sources: [StyleSource], resources: [(info: StyleResourceInfo, bytes: [UInt8])]) {
        self.uri = uri
        self.createdBy = createdBy
        self.glyphsMode = glyphsMode
        self.pixelRatios = pixelRatios
        self.fontStacks = fontStacks
        self.sprites = sprites
        self.sources = sources
        self.resources = resources
    }

    /// The style JSON's bytes (resource 0).
    public var styleJSON: [UInt8] { resources.first?.bytes ?? [] }
    /// Sum of the resource lengths.
    public var resourceBytes: Int { resources.reduce(0) { $0 + $1.bytes.count } }
}

/// Encodes style packs (docs/FORMATS.md, "Style pack"). The bytes depend only on the contents:
/// no time, host or path goes in, so the same style and resources give the same file.
public enum StylePackWriter {
    /// Encodes `contents`. Resources are written in the order given, which must be the pack order
    /// (the style, sprite files, glyph ranges; paths unique) — `StylePackBuilder` produces it; anything else
    /// is a programming error and stops the process. Throws `InputError` when the pack would exceed
    /// the limits readers enforce (header, index, resource or file size).
    public static func encode(_ contents: StylePackContents) throws -> [UInt8] {
        precondition(contents.resources.first?.info.kind == .style, "the style must be resource 0")
        precondition(zip(contents.resources, contents.resources.dropFirst()).allSatisfy { $0.info.kind.section <= $1.info.kind.section },
                     "resources must come style, sprite files, glyph ranges")
        precondition(Set(contents.resources.map(\.info.path)).count == contents.resources.count, "resource paths must be unique")

        var header = ByteWriter()
        header.string(contents.uri)
        header.string(contents.createdBy)
        header.u8(contents.glyphsMode.code)
        header.u8(UInt8(contents.pixelRatios.count))
        for ratio in contents.pixelRatios { header.u8(UInt8(ratio)) }
        header.u32(UInt32(contents.fontStacks.count))
        for stack in contents.fontStacks { header.string(stack) }
        header.u32(UInt32(contents.sprites.count))
        for sprite in contents.sprites {
            header.string(sprite.id)
            header.string(sprite.url)
        }
        header.u32(UInt32(contents.sources.count))
        for source in contents.sources {
            header.string(source.id)
            header.string(source.type)
            header.string(source.url)
            header.u32(UInt32(source.tiles.count))
            for tile in source.tiles { header.string(tile) }
        }

        // The index needs the data offset, which needs the index length: entries have a fixed
        // length given their strings, so measure first.
        let indexLength = contents.resources.reduce(0) { sum, r in
            sum + StylePackFormat.minIndexEntryLength + r.info.path.utf8.count + r.info.url.utf8.count + r.info.group.utf8.count
        }
        let dataOffset = StylePackFormat.preambleLength + header.count + indexLength
        guard header.count <= StylePackFormat.maxHeaderLength else {
            throw InputError("style pack header would be \(header.count) bytes, over the \(StylePackFormat.maxHeaderLength >> 20) MiB limit (too many sources or tile URLs)")
        }
        guard indexLength <= StylePackFormat.maxIndexLength else {
            throw InputError("style pack index would be \(indexLength) bytes, over the \(StylePackFormat.maxIndexLength >> 20) MiB limit")
        }
        if let big = contents.resources.first(where: { $0.bytes.count > StylePackFormat.maxResourceLength }) {
            throw InputError("resource \"\(big.info.path)\" is \(big.bytes.count) bytes, over the \(StylePackFormat.maxResourceLength >> 20) MiB limit")
        }
        let total = dataOffset + contents.resourceBytes
        guard total <= StylePackFormat.maxFileSize else {
            throw InputError("style pack would be \(total) bytes, over the \(StylePackFormat.maxFileSize >> 30) GiB limit")
        }
        var index = ByteWriter(capacity: indexLength)
        var offset = UInt64(dataOffset)
        for (info, bytes) in contents.resources {
            index.u8(info.kind.rawValue)
            index.u8(UInt8(info.pixelRatio))
            index.u16(0)
            index.u32(UInt32(info.rangeStart))
            index.u64(offset)
            index.u64(UInt64(bytes.count))
            index.u32(CRC32.checksum(bytes))
            index.append(contentsOf: SHA256.hash(bytes))
            index.string(info.path)
            index.string(info.url)
            index.string(info.group)
            offset += UInt64(bytes.count)
        }
        precondition(index.count == indexLength)

        var out = ByteWriter(capacity: Int(offset))
        out.append(contentsOf: StylePackFormat.magic)
        out.u32(StylePackFormat.version)
        out.u32(0)                                   // flags
        out.u64(offset)                              // fileSize
        out.u32(UInt32(header.count))
        out.u32(CRC32.checksum(header.bytes))
        out.u32(UInt32(contents.resources.count))
        out.u32(UInt32(indexLength))
        out.u32(CRC32.checksum(index.bytes))
        out.u32(0)                                   // reserved
        out.u64(UInt64(dataOffset))
        out.u32(0)                                   // reserved
        out.u32(CRC32.checksum(out.bytes[0..<60]))
        precondition(out.count == StylePackFormat.preambleLength)
        out.append(contentsOf: header.bytes)
        out.append(contentsOf: index.bytes)
        for (_, bytes) in contents.resources { out.append(contentsOf: bytes) }
        precondition(out.count == Int(offset))
        return out.bytes
    }

    /// Encodes `contents` and writes the file atomically (temporary name, fsync, rename).
    /// Returns the number of bytes written.
    @discardableResult
    public static func write(_ contents: StylePackContents, to path: String) throws -> Int {
        let bytes = try encode(contents)
        try AtomicFile.write(bytes, to: path)
        return bytes.count
    }
}
