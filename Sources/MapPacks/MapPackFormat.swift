import OffgridCore
import Foundation
import TileMath
import TileSources

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

/// Layout constants of the map pack format (see docs/FORMATS.md, "Map tile pack").
public enum MapPackFormat {
    public static let magic: [UInt8] = Array("OGMPACK\0".utf8)
    public static let version: UInt32 = 1
    public static let preambleSize = 64
    public static let indexEntrySize = 28
    public static let maxHeaderLength = 1 << 20
    public static let maxTiles = 1 << 24
    /// A tile larger than this is refused (by the builder and by readers).
    public static let maxTileBytes = 1 << 30
}

/// Encodes map packs. Tiles are sorted by (z, x, y); identical tile bytes are stored once (the
/// first occurrence in index order), and later index entries point at them.
public enum MapPackWriter {
    public struct Stats: Sendable {
        public var tiles: Int
        public var uniqueTiles: Int
        /// Sum of every tile's length (what the tiles take without deduplication).
        public var tileBytes: Int
        public var fileBytes: Int
    }

    /// The pack's bytes. `tiles` may come in any order; coordinates must be distinct and inside
    /// the parent's subtree within the band (a programming error otherwise).
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
        let sorted = tiles.sorted { $0.0 < $1.0 }
        var h = ByteWriter()
        h.u8(UInt8(header.band.minZoom)); h.u8(UInt8(header.band.maxZoom))
        h.u8(header.tileType.rawValue); h.u8(header.tileCompression.rawValue)
        h.u8(UInt8(header.parent.z)); h.u8(0); h.u8(0); h.u8(0)
        h.u32(UInt32(header.parent.x)); h.u32(UInt32(header.parent.y))
        h.string(header.tilesetId)
        let headerBytes = h.bytes
        let indexOffset = (MapPackFormat.preambleSize + headerBytes.count + 7) / 8 * 8
        let dataOffset = indexOffset + MapPackFormat.indexEntrySize * sorted.count

        // Deduplicate: blobs keyed by (CRC32, length), bytes compared on a key match.
        var dataLength = 0
        var unique: [ArraySlice<UInt8>] = []
        var blobs: [UInt64: [(offset: Int, blob: Int)]] = [:]
        var index = ByteWriter(capacity: MapPackFormat.indexEntrySize * sorted.count)
        var tileBytes = 0
        for (c, bytes) in sorted {
            precondition(c.z >= header.band.minZoom && c.z <= header.band.maxZoom && c.ancestor(atZoom: header.parent.z) == header.parent,
                         "tile \(c) is not in pack \(header.relativePath)")
            let crc = CRC32.checksum(bytes)
            let key = UInt64(crc) << 32 | UInt64(UInt32(truncatingIfNeeded: bytes.count))
            var offset = -1
            if let candidates = blobs[key] {
                for b in candidates where unique[b.blob].elementsEqual(bytes) {
                    offset = b.offset
                    break
                }
            }
            if offset < 0 {
                offset = dataLength
                dataLength += bytes.count
                blobs[key, default: []].append((offset, unique.count))
                unique.append(bytes)
            }
            tileBytes += bytes.count
            index.u8(UInt8(c.z)); index.u8(0); index.u8(0); index.u8(0)
            index.u32(UInt32(c.x)); index.u32(UInt32(c.y))
            index.u64(UInt64(dataOffset + offset)); index.u32(UInt32(bytes.count)); index.u32(crc)
        }
        let fileSize = dataOffset + dataLength

        var out = ByteWriter(capacity: dataOffset)
        out.append(contentsOf: MapPackFormat.magic)
        out.u32(MapPackFormat.version)
        out.u32(0)
        out.u64(UInt64(fileSize))
        out.u32(UInt32(headerBytes.count))
        out.u32(CRC32.checksum(headerBytes))
        out.u32(UInt32(sorted.count))
        out.u32(CRC32.checksum(index.bytes))
        out.u64(UInt64(indexOffset))
        out.u64(UInt64(dataOffset))
        out.u32(UInt32(unique.count))
        out.u32(CRC32.checksum(out.bytes))
        out.append(contentsOf: headerBytes)
        out.pad(to: 8)
        out.append(contentsOf: index.bytes)
        precondition(out.count == dataOffset)
        return (out.bytes, unique, Stats(tiles: sorted.count, uniqueTiles: unique.count, tileBytes: tileBytes, fileBytes: fileSize))
    }
}

/// Reads and verifies a map pack held in memory.
public struct MapPackReader {
    public struct Entry: Hashable, Sendable {
        public var coordinate: TileCoordinate
        public var offset: Int
        public var length: Int
        public var crc32: UInt32
    }

    public let bytes: [UInt8]
    public let header: MapPackHeader
    public let entries: [Entry]
    public let uniqueTiles: Int

    public init(path: String) throws {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw InputError(file: path, "cannot read the map pack")
        }
        do {
            try self.init(bytes: [UInt8](data))
        } catch let e as BinaryFormatError {
            throw InputError(file: path, offset: e.offset, e.message)
        }
    }

    /// Validation order: magic, version, preamble CRC, file size, offsets, header CRC and
    /// fields, index CRC, then every entry (ascending coordinates inside the parent's subtree and
    /// band; each offset either starts the next blob or repeats an earlier entry's blob).
    public init(bytes: [UInt8]) throws {
        self.bytes = bytes
        guard !bytes.isEmpty else { throw BinaryFormatError(offset: 0, "empty file") }
        guard bytes.starts(with: MapPackFormat.magic.prefix(min(bytes.count, 8))) else {
            throw BinaryFormatError(offset: 0, "not a map pack")
        }
        guard bytes.count >= MapPackFormat.preambleSize else { throw BinaryFormatError(offset: bytes.count, "truncated preamble") }
        var r = ByteReader(bytes, offset: 8)
        let version = try r.u32()
        guard version == MapPackFormat.version else { throw BinaryFormatError(offset: 8, "unsupported map pack version \(version)") }
        let storedCRC = UInt32(bytes[60]) | UInt32(bytes[61]) << 8 | UInt32(bytes[62]) << 16 | UInt32(bytes[63]) << 24
        guard CRC32.checksum(bytes[0..<60]) == storedCRC else { throw BinaryFormatError(offset: 60, "preamble fails its CRC32 check") }
        let flags = try r.u32()
        let fileSize = try r.u64()
        guard fileSize == UInt64(bytes.count) else {
            throw BinaryFormatError(offset: 16, fileSize > UInt64(bytes.count) ? "truncated: \(bytes.count) of \(fileSize) bytes" : "unexpected bytes after the declared end")
        }
        guard flags == 0 else { throw BinaryFormatError(offset: 12, "unknown flags \(flags)") }
        let headerLength = Int(try r.u32()), headerCRC = try r.u32()
        let tileCount = Int(try r.u32()), indexCRC = try r.u32()
        let indexOffset = try r.u64(), dataOffset = try r.u64()
        uniqueTiles = Int(try r.u32())
        guard headerLength <= MapPackFormat.maxHeaderLength, tileCount <= MapPackFormat.maxTiles else {
            throw BinaryFormatError(offset: 24, "header or index too large")
        }
        let expectedIndex = (MapPackFormat.preambleSize + headerLength + 7) / 8 * 8
        let expectedData = expectedIndex + MapPackFormat.indexEntrySize * tileCount
        guard indexOffset == UInt64(expectedIndex), dataOffset == UInt64(expectedData), expectedData <= bytes.count else {
            throw BinaryFormatError(offset: 40, "index or data offset disagrees with the header length and tile count")
        }
        let headerSlice = bytes[64..<(64 + headerLength)]
        guard CRC32.checksum(headerSlice) == headerCRC else { throw BinaryFormatError(offset: 64, "header fails its CRC32 check") }
        guard bytes[(64 + headerLength)..<expectedIndex].allSatisfy({ $0 == 0 }) else {
            throw BinaryFormatError(offset: 64 + headerLength, "non-zero padding")
        }
        var hr = ByteReader(bytes, offset: 64)
        let bandMin = Int(try hr.u8()), bandMax = Int(try hr.u8())
        guard let type = TileType(rawValue: try hr.u8()) else { throw BinaryFormatError(offset: 66, "unknown tile type") }
        guard let compression = TileCompression(rawValue: try hr.u8()) else { throw BinaryFormatError(offset: 67, "unknown tile compression") }
        let pz = Int(try hr.u8())
        guard try hr.u8() == 0, try hr.u8() == 0, try hr.u8() == 0 else { throw BinaryFormatError(offset: 69, "non-zero reserved bytes") }
        let parent = TileCoordinate(z: pz, x: Int(try hr.u32()), y: Int(try hr.u32()))
        let tilesetId = try hr.string()
        guard hr.offset == 64 + headerLength else { throw BinaryFormatError(offset: hr.offset, "header section has trailing bytes") }
        guard bandMin <= bandMax, bandMax <= 30, pz == bandMin, parent.isValid else {
            throw BinaryFormatError(offset: 64, "bad band \(bandMin)-\(bandMax) or parent tile \(parent)")
        }
        header = MapPackHeader(band: ZoomBand(bandMin, bandMax), parent: parent, tilesetId: tilesetId,
                               tileType: type, tileCompression: compression)
        guard CRC32.checksum(bytes[expectedIndex..<expectedData]) == indexCRC else {
            throw BinaryFormatError(offset: expectedIndex, "index fails its CRC32 check")
        }
        var ir = ByteReader(bytes, offset: expectedIndex)
        var entries: [Entry] = []
        entries.reserveCapacity(tileCount)
        var end = expectedData
        struct Blob: Hashable { var offset: Int, length: Int, crc: UInt32 }
        var blobs = Set<Blob>()
        var newBlobs = 0
        for i in 0..<tileCount {
            let at = ir.offset
            let z = Int(try ir.u8())
            guard try ir.u8() == 0, try ir.u8() == 0, try ir.u8() == 0 else { throw BinaryFormatError(offset: at + 1, "non-zero reserved bytes in index entry \(i)") }
            let c = TileCoordinate(z: z, x: Int(try ir.u32()), y: Int(try ir.u32()))
            let offset = try ir.u64(), length = Int(try ir.u32()), crc = try ir.u32()
            guard c.isValid, z >= bandMin, z <= bandMax, c.ancestor(atZoom: pz) == parent else {
                throw BinaryFormatError(offset: at, "index entry \(i): tile \(c) is not in the pack's subtree and band")
            }
            if let last = entries.last, !(last.coordinate < c) {
                throw BinaryFormatError(offset: at, "index entry \(i): tiles are not in ascending (z, x, y) order")
            }
            guard offset <= UInt64(bytes.count) else { throw BinaryFormatError(offset: at + 12, "index entry \(i): offset past the end") }
            let o = Int(offset)
            let blob = Blob(offset: o, length: length, crc: crc)
            if blobs.contains(blob) {
                // An earlier identical tile.
            } else if o == end {
                guard length <= bytes.count - end else { throw BinaryFormatError(offset: at + 20, "index entry \(i): tile runs past the end") }
                blobs.insert(blob)
                newBlobs += 1
                end += length
            } else {
                throw BinaryFormatError(offset: at + 12, "index entry \(i): offset is neither the next tile nor an earlier identical one")
            }
            entries.append(Entry(coordinate: c, offset: o, length: length, crc32: crc))
        }
        guard end == bytes.count else { throw BinaryFormatError(offset: end, "tile data does not end at the end of the file") }
        guard newBlobs == uniqueTiles else { throw BinaryFormatError(offset: 56, "unique tile count disagrees with the index") }
        self.entries = entries
    }

    /// The tile's bytes, checked against its CRC32.
    public func tile(_ e: Entry) throws -> ArraySlice<UInt8> {
        let slice = bytes[e.offset..<(e.offset + e.length)]
        guard CRC32.checksum(slice) == e.crc32 else {
            throw BinaryFormatError(offset: e.offset, "tile \(e.coordinate) fails its CRC32 check")
        }
        return slice
    }

    public func tile(_ c: TileCoordinate) throws -> ArraySlice<UInt8>? {
        var lo = 0, hi = entries.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if entries[mid].coordinate < c { lo = mid + 1 } else { hi = mid }
        }
        guard lo < entries.count, entries[lo].coordinate == c else { return nil }
        return try tile(entries[lo])
    }

    /// Verifies every tile's CRC32.
    public func verify() throws {
        for e in entries { _ = try tile(e) }
    }
}
