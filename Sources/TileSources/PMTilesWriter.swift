import OffgridCore
import TileMath

/// Writes PMTiles v3 archives (https://github.com/protomaps/PMTiles/blob/main/spec/v3/spec.md),
/// the counterpart of `PMTilesSource`: tiles clustered in Hilbert tile-id order, identical tiles
/// stored once, runs of consecutive ids with the same bytes as one run-length entry,
/// gzip-compressed directories and metadata, leaf directories when the root directory would not
/// fit in the first 16 KiB. Layout: header, root directory, metadata, leaf directories, tile
/// data. The bytes depend only on the tiles and the description (deterministic gzip, sorted JSON).
public enum PMTilesWriter {
    public struct Description: Sendable {
        public var tileType: TileType
        public var tileCompression: TileCompression
        /// minLon, minLat, maxLon, maxLat.
        public var bounds: [Double]
        public var center: [Double]
        public var centerZoom: Int
        /// The JSON metadata (name, vector_layers, attribution, …).
        public var metadata: JSONValue

        public init(tileType: TileType, tileCompression: TileCompression, bounds: [Double], center: [Double],
                    centerZoom: Int, metadata: JSONValue) {
            self.tileType = tileType
            self.tileCompression = tileCompression
            self.bounds = bounds
            self.center = center
            self.centerZoom = centerZoom
            self.metadata = metadata
        }
    }

    /// A directory entry as written: `runLength == 0` points at a leaf directory.
    public typealias Entry = PMTilesSource.Entry

    public struct Stats: Sendable, Equatable {
        public var addressedTiles: Int
        public var tileEntries: Int
        public var tileContents: Int
        public var leafDirectories: Int
        public var bytes: Int
    }

    /// The root directory and metadata must fit in the first 16 KiB with the header.
    public static let rootLimit = 16_384 - 127

    /// Writes the archive to `path` atomically. `tiles` are the coordinates (any order, distinct);
    /// `read(i)` gives tile `i`'s bytes and is called twice per tile (once to find duplicates,
    /// once to write), so nothing but one tile at a time is held in memory.
    public static func write(to path: String, tiles: [TileCoordinate], description: Description,
                             read: (Int) throws -> [UInt8]) throws -> Stats {
        let order = tiles.indices.map { (PMTilesID.id(tiles[$0]), $0) }.sorted { $0.0 < $1.0 }
        // Pass 1: offsets of distinct contents (by SHA-256), entries with runs.
        var offsetOf: [[UInt8]: (offset: UInt64, length: UInt32)] = [:]
        var firstTile: [Int] = []   // tiles whose bytes are written, in data order
        var entries: [Entry] = []
        var dataLength: UInt64 = 0
        for (id, i) in order {
            let bytes = try read(i)
            guard !bytes.isEmpty else { continue }   // an empty tile is left out (PMTiles lengths are > 0)
            let digest = Array(SHA256.hash(bytes).prefix(16))
            let place: (offset: UInt64, length: UInt32)
            if let known = offsetOf[digest] {
                place = known
            } else {
                place = (dataLength, UInt32(bytes.count))
                offsetOf[digest] = place
                firstTile.append(i)
                dataLength += UInt64(bytes.count)
            }
            if var last = entries.last, last.offset == place.offset, last.tileId + UInt64(last.runLength) == id {
                last.runLength += 1
                entries[entries.count - 1] = last
            } else {
                entries.append(Entry(tileId: id, offset: place.offset, length: place.length, runLength: 1))
            }
        }
        let (root, leaves, leafCount) = directories(entries)
        let metadata = Zlib.gzip(Array(JSONWriter.string(description.metadata, pretty: false).utf8))
        let zooms = tiles.isEmpty ? 0...0 : tiles.map(\.z).min()!...tiles.map(\.z).max()!

        var h = ByteWriter(capacity: 127)
        h.append(contentsOf: Array("PMTiles".utf8)); h.u8(3)
        let rootOffset: UInt64 = 127
        let metadataOffset = rootOffset + UInt64(root.count)
        let leafOffset = metadataOffset + UInt64(metadata.count)
        let dataOffset = leafOffset + UInt64(leaves.count)
        for v in [rootOffset, UInt64(root.count), metadataOffset, UInt64(metadata.count), leafOffset, UInt64(leaves.count),
                  dataOffset, dataLength, UInt64(order.count), UInt64(entries.count), UInt64(offsetOf.count)] { h.u64(v) }
        h.u8(1)                                     // clustered
        h.u8(TileCompression.gzip.rawValue)         // internal compression
        h.u8(description.tileCompression.rawValue)
        h.u8(description.tileType.rawValue)
        h.u8(UInt8(zooms.lowerBound)); h.u8(UInt8(zooms.upperBound))
        func e7(_ v: Double) -> Int32 { Int32((v * 1e7).rounded()) }
        for v in description.bounds.prefix(4) { h.i32(e7(v)) }
        h.u8(UInt8(max(0, min(30, description.centerZoom))))
        for v in description.center.prefix(2) { h.i32(e7(v)) }
        precondition(h.bytes.count == 127, "PMTiles header is \(h.bytes.count) bytes")

        let out = try AtomicFile.create(path)
        do {
            try out.write(h.bytes)
            try out.write(root)
            try out.write(metadata)
            try out.write(leaves)
            for i in firstTile { try out.write(try read(i)) }
            try out.commit()
        } catch {
            out.abandon()
            throw error
        }
        return Stats(addressedTiles: order.count, tileEntries: entries.count, tileContents: offsetOf.count,
                     leafDirectories: leafCount, bytes: Int(dataOffset + dataLength))
    }

    /// The root directory and the leaf directories section: the root alone while it fits in
    /// `rootLimit` bytes compressed; else leaves of 4,096 entries (growing by 1.2× until the root
    /// of leaf pointers fits), as the reference writer (go-pmtiles) does.
    static func directories(_ entries: [Entry]) -> (root: [UInt8], leaves: [UInt8], count: Int) {
        let root = encode(entries)
        if root.count <= rootLimit { return (root, [], 0) }
        var leafSize = 4096
        while true {
            var leaves: [UInt8] = []
            var pointers: [Entry] = []
            var start = 0
            while start < entries.count {
                let chunk = Array(entries[start..<min(start + leafSize, entries.count)])
                let bytes = encode(chunk)
                pointers.append(Entry(tileId: chunk[0].tileId, offset: UInt64(leaves.count), length: UInt32(bytes.count), runLength: 0))
                leaves += bytes
                start += leafSize
            }
            let root = encode(pointers)
            if root.count <= rootLimit { return (root, leaves, pointers.count) }
            leafSize = leafSize + leafSize / 5
        }
    }

    /// A directory: the entry count, then columns of varints (id deltas, run lengths, lengths,
    /// offsets + 1, or 0 when an entry's bytes follow the previous entry's), gzip-compressed.
    public static func encode(_ entries: [Entry]) -> [UInt8] {
        var w = ByteWriter(capacity: entries.count * 6 + 8)
        w.varint(UInt64(entries.count))
        var last: UInt64 = 0
        for e in entries { w.varint(e.tileId - last); last = e.tileId }
        for e in entries { w.varint(UInt64(e.runLength)) }
        for e in entries { w.varint(UInt64(e.length)) }
        for (i, e) in entries.enumerated() {
            if i > 0, e.offset == entries[i - 1].offset + UInt64(entries[i - 1].length) {
                w.varint(0)
            } else {
                w.varint(e.offset + 1)
            }
        }
        return Zlib.gzip(w.bytes)
    }
}
