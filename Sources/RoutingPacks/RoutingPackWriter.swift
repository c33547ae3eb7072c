import OffgridCore
import PackContainer

/// Writes routing packs through the pack container (`PackWriter`): the routing header, then one
/// zlib-compressed entry per tile keyed by tile id. The same header and tiles give the same bytes;
/// the file is written atomically.
public enum RoutingPackWriter {
    public typealias Tile = (id: UInt32, raw: [UInt8])

    /// Writes the pack. Throws `InputError` naming `path` for an invalid header, duplicate tile
    /// ids, a tile over `RoutingPackFormat.maxRawTileSize`, or a file-system failure.
    public static func write(header: RoutingPackHeader, tiles: [Tile], to path: String) throws {
        try PackWriter.write(kind: RoutingPackFormat.kind, header: try headerBytes(header, path: path),
                             items: tiles.map { (RoutingPackFormat.key($0.id), $0.raw[...]) }, to: path)
    }

    /// The whole pack in memory (tests and small packs).
    public static func encode(header: RoutingPackHeader, tiles: [Tile]) throws -> [UInt8] {
        try PackWriter.encode(kind: RoutingPackFormat.kind, header: try headerBytes(header, path: nil),
                              items: tiles.map { (RoutingPackFormat.key($0.id), $0.raw[...]) })
    }

    private static func headerBytes(_ header: RoutingPackHeader, path: String?) throws -> [UInt8] {
        guard header.formatVersion == RoutingPackFormat.version else {
            throw InputError(file: path, "cannot write routing pack version \(header.formatVersion), only \(RoutingPackFormat.version)")
        }
        if let problem = header.validationProblem() { throw InputError(file: path, problem) }
        return header.encoded()
    }
}
