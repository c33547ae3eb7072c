import OffgridCore
import Foundation
import TileMath
import TileSources
import PackContainer

/// What identifies a map pack: the band, the parent tile, the tileset and what its tiles are.
/// Nothing else goes into a pack, so the same tiles give the same bytes whichever region, source
/// container or file name they came from.
public struct MapPackHeader: Hashable, Sendable {
    public var band: ZoomBand
    public var parent: TileCoordinate
    /// The tileset's metadata `name`.
    public var tilesetId: String
    public var tileType: TileType
    public var tileCompression: TileCompression

    public init(band: ZoomBand, parent: TileCoordinate, tilesetId: String, tileType: TileType, tileCompression: TileCompression) {
        self.band = band
        self.parent = parent
        self.tilesetId = tilesetId
        self.tileType = tileType
        self.tileCompression = tileCompression
    }

    /// `<z>-<x>-<y>.pack`
    public var fileName: String { "\(parent.z)-\(parent.x)-\(parent.y).pack" }
    /// `packs/<band>/<z>-<x>-<y>.pack`
    public var relativePath: String { "packs/\(band)/\(fileName)" }
}

/// A map pack in the shared pack container (docs/FORMATS.md, "Map pack"), version 2: the header
/// is `MapPackHeader`, each entry is one tile keyed by z (u8), x and y (big-endian u32), so that
/// byte order is (z, x, y) order; tiles are stored as the source holds them, identical tiles once.
public enum MapPackFormat {
    public static let magic: [UInt8] = Array("OGMPACK\0".utf8)
    public static let version: UInt32 = 2
    public static let maxHeaderLength = 1 << 20
    public static let maxTiles = 1 << 24
    /// A tile larger than this is refused (by the builder and by readers).
    public static let maxTileBytes = 1 << 30
    public static let keyLength = 9

    public static let kind = PackKind(
        name: "map pack", magic: "OGMPACK", version: version, compressed: false, hasSHA256: false,
        maxHeaderLength: maxHeaderLength, maxEntries: maxTiles, maxKeyLength: keyLength, maxEntryLength: maxTileBytes,
        describeKey: { key in coordinate(key).map { "tile \($0)" } ?? "tile key \(Array(key))" })

    /// The 9-byte key of a tile.
    public static func key(_ c: TileCoordinate) -> [UInt8] {
        var k = [UInt8](repeating: 0, count: keyLength)
        k[0] = UInt8(truncatingIfNeeded: c.z)
        for i in 0..<4 {
            k[4 - i] = UInt8(truncatingIfNeeded: c.x >> (8 * i))
            k[8 - i] = UInt8(truncatingIfNeeded: c.y >> (8 * i))
        }
        return k
    }

    /// The tile of a key, or nil when the key is not 9 bytes.
    public static func coordinate(_ key: ArraySlice<UInt8>) -> TileCoordinate? {
        guard key.count == keyLength else { return nil }
        let b = key.startIndex
        let x = key[(b + 1)..<(b + 5)].reduce(0) { $0 << 8 | Int($1) }
        let y = key[(b + 5)..<(b + 9)].reduce(0) { $0 << 8 | Int($1) }
        return TileCoordinate(z: Int(key[b]), x: x, y: y)
    }

    static func encodeHeader(_ header: MapPackHeader) -> [UInt8] {
        var h = ByteWriter()
        h.u8(UInt8(header.band.minZoom)); h.u8(UInt8(header.band.maxZoom))
        h.u8(header.tileType.rawValue); h.u8(header.tileCompression.rawValue)
        h.u8(UInt8(header.parent.z)); h.u8(0); h.u8(0); h.u8(0)
        h.u32(UInt32(header.parent.x)); h.u32(UInt32(header.parent.y))
        h.string(header.tilesetId)
        return h.bytes
    }

    /// Parses and checks the header section; offsets in errors are relative to its start.
    static func decodeHeader(_ bytes: [UInt8]) throws -> MapPackHeader {
        var hr = ByteReader(bytes)
        let bandMin = Int(try hr.u8()), bandMax = Int(try hr.u8())
        guard let type = TileType(rawValue: try hr.u8()) else { throw BinaryFormatError(offset: 2, "unknown tile type") }
        guard let compression = TileCompression(rawValue: try hr.u8()) else { throw BinaryFormatError(offset: 3, "unknown tile compression") }
        let pz = Int(try hr.u8())
        guard try hr.u8() == 0, try hr.u8() == 0, try hr.u8() == 0 else { throw BinaryFormatError(offset: 5, "non-zero reserved bytes") }
        let parent = TileCoordinate(z: pz, x: Int(try hr.u32()), y: Int(try hr.u32()))
        let tilesetId = try hr.string()
        guard hr.isAtEnd else { throw BinaryFormatError(offset: hr.offset, "header section has trailing bytes") }
        guard bandMin <= bandMax, bandMax <= 30, pz == bandMin, parent.isValid else {
            throw BinaryFormatError(offset: 0, "bad band \(bandMin)-\(bandMax) or parent tile \(parent)")
        }
        return MapPackHeader(band: ZoomBand(bandMin, bandMax), parent: parent, tilesetId: tilesetId,
                             tileType: type, tileCompression: compression)
    }
}

/// Encodes map packs through the pack container. Tiles are sorted by (z, x, y); identical tile
/// bytes are stored once (the first occurrence in index order), and later entries point at them.
public enum MapPackWriter {
    public struct Stats: Sendable {
        public var tiles: Int
        public var uniqueTiles: Int
        /// Sum of every tile's length (what the tiles take without deduplication).
        public var tileBytes: Int
        public var fileBytes: Int
    }

    /// The pack's bytes. `tiles` may come in any order; coordinates must be distinct, inside
    /// the parent's subtree within the band and under the container's limits (a programming
    /// error otherwise: the builder checks sizes and counts first).
    public static func encode(header: MapPackHeader, tiles: [(TileCoordinate, ArraySlice<UInt8>)]) -> (bytes: [UInt8], stats: Stats) {
        let (prefix, blobs, stats) = encodeParts(header: header, tiles: tiles)
        var bytes = prefix
        bytes.reserveCapacity(stats.fileBytes)
        for b in blobs { bytes.append(contentsOf: b) }
        return (bytes, stats)
    }

    /// The pack as parts whose concatenation is the file: everything before the tile data
    /// (preamble, header, index), then the unique tiles in order — slices of the caller's
    /// buffers, so tile bytes are not copied again before they are written.
    public static func encodeParts(header: MapPackHeader, tiles: [(TileCoordinate, ArraySlice<UInt8>)]) -> (prefix: [UInt8], blobs: [ArraySlice<UInt8>], stats: Stats) {
        for (c, _) in tiles {
            precondition(c.z >= header.band.minZoom && c.z <= header.band.maxZoom && c.ancestor(atZoom: header.parent.z) == header.parent,
                         "tile \(c) is not in pack \(header.relativePath)")
        }
        let parts: PackWriter.Parts
        do {
            parts = try PackWriter.encodeParts(kind: MapPackFormat.kind, header: MapPackFormat.encodeHeader(header),
                                               items: tiles.map { (MapPackFormat.key($0.0), $0.1) }, deduplicate: true)
        } catch {
            preconditionFailure("map pack \(header.relativePath): \(error)")
        }
        let stats = Stats(tiles: tiles.count, uniqueTiles: parts.uniqueBlobs,
                          tileBytes: tiles.reduce(0) { $0 + $1.1.count }, fileBytes: parts.fileSize)
        return (parts.prefix, parts.blobs, stats)
    }
}

/// Reads a map pack through the pack container: opening reads only the preamble, header and index
/// (every structural check, plus each tile inside the pack's subtree and band); `tile(_:)` reads
/// one tile by positioned read and checks its CRC32.
public final class MapPackReader: @unchecked Sendable {
    public struct Entry: Hashable, Sendable {
        public var coordinate: TileCoordinate
        public var offset: Int
        public var length: Int
        public var crc32: UInt32
    }

    public let header: MapPackHeader
    public let path: String
    private let pack: PackReader

    public convenience init(path: String) throws {
        try self.init(pack: PackReader(path: path, kind: MapPackFormat.kind))
    }

    /// A pack already in memory; `name` is used in errors.
    public convenience init(bytes: [UInt8], name: String = "map pack") throws {
        try self.init(pack: PackReader(bytes: bytes, name: name, kind: MapPackFormat.kind))
    }

    private init(pack: PackReader) throws {
        self.pack = pack
        path = pack.path
        do {
            header = try MapPackFormat.decodeHeader(pack.headerBytes)
        } catch let e as BinaryFormatError {
            throw pack.headerError(offset: e.offset, e.message)
        }
        let index = pack.index
        for i in 0..<index.count {
            guard let c = MapPackFormat.coordinate(index.key(i)), c.isValid, c.z >= header.band.minZoom,
                  c.z <= header.band.maxZoom, c.ancestor(atZoom: header.parent.z) == header.parent else {
                throw InputError(file: path, offset: pack.indexOffset,
                                 "index entry \(i): \(MapPackFormat.kind.describeKey(index.key(i))) is not in the pack's subtree and band")
            }
        }
    }

    public var tileCount: Int { pack.index.count }
    /// Distinct stored tiles.
    public var uniqueTiles: Int { pack.index.uniqueBlobs }
    public var fileSize: Int { pack.fileSize }

    /// Every entry in (z, x, y) order.
    public var entries: [Entry] {
        let index = pack.index
        return (0..<index.count).map { i in
            Entry(coordinate: MapPackFormat.coordinate(index.key(i))!, offset: index.offset(i),
                  length: index.length(i), crc32: index.crc32(i))
        }
    }

    /// The tile's bytes, read on their own and checked against their CRC32.
    public func tile(_ e: Entry) throws -> ArraySlice<UInt8> {
        guard let i = pack.find(MapPackFormat.key(e.coordinate)) else {
            throw InputError(file: path, "tile \(e.coordinate) is not in this pack")
        }
        return try pack.entryBytes(at: i)[...]
    }

    /// The tile at `c`, or nil when the pack does not hold it.
    public func tile(_ c: TileCoordinate) throws -> ArraySlice<UInt8>? {
        try pack.entryBytes(key: MapPackFormat.key(c)).map { $0[...] }
    }

    /// Verifies every tile's CRC32.
    public func verify() throws {
        try pack.verifyAll()
    }
}
