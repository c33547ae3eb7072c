import OffgridCore

/// Writes routing packs (layout in `RoutingPackFormat` and docs/FORMATS.md).
///
/// The output depends only on the header and the tiles: tiles are sorted by id, compressed at a
/// fixed zlib level, and nothing time- or host-dependent is stored, so the same inputs give
/// byte-identical files. The file is written atomically (`AtomicFile`): an interrupted or failed
/// write leaves any previous file at `path` intact.
public enum RoutingPackWriter {
    public typealias Tile = (id: UInt32, raw: [UInt8])

    /// Writes the pack. Throws `InputError` naming `path` for an invalid header, duplicate tile
    /// ids, a tile over `RoutingPackFormat.maxRawTileSize`, or a file-system failure.
    public static func write(header: RoutingPackHeader, tiles: [Tile], to path: String) throws {
        let (head, compressed) = try encode(header: header, tiles: tiles, path: path)
        let writer = try AtomicFile.create(path)
        try writer.write(head)
        for tile in compressed { try writer.write(tile) }
        try writer.commit()
    }

    /// The whole pack in memory (tests and small packs).
    public static func encode(header: RoutingPackHeader, tiles: [Tile]) throws -> [UInt8] {
        let (head, compressed) = try encode(header: header, tiles: tiles, path: nil)
        var bytes = head
        bytes.reserveCapacity(head.count + compressed.reduce(0) { $0 + $1.count })
        for tile in compressed { bytes.append(contentsOf: tile) }
        return bytes
    }

    /// Preamble + header + padding + index, and the compressed tiles that follow them in order.
    private static func encode(header: RoutingPackHeader, tiles: [Tile],
                               path: String?) throws -> (head: [UInt8], tiles: [[UInt8]]) {
        func fail(_ message: String) -> InputError { InputError(file: path, message) }
        guard header.formatVersion == RoutingPackFormat.version else {
            throw fail("cannot write routing pack version \(header.formatVersion), only \(RoutingPackFormat.version)")
        }
        if let problem = header.validationProblem() { throw fail(problem) }
        let headerBytes = header.encoded()
        guard headerBytes.count <= RoutingPackFormat.maxHeaderLength else {
            throw fail("header is \(headerBytes.count) bytes, more than the \(RoutingPackFormat.maxHeaderLength) allowed")
        }
        guard tiles.count <= Int(UInt32.max) else { throw fail("too many tiles (\(tiles.count))") }

        let sorted = tiles.sorted { $0.id < $1.id }
        for (a, b) in zip(sorted, sorted.dropFirst()) where a.id == b.id {
            throw fail("tile \(a.id) is given twice")
        }
        if let big = sorted.first(where: { $0.raw.count > RoutingPackFormat.maxRawTileSize }) {
            throw fail("tile \(big.id) is \(big.raw.count) bytes, more than the \(RoutingPackFormat.maxRawTileSize) allowed")
        }

        let compressed = compressAll(sorted)
        let indexOffset = RoutingPackFormat.indexOffset(headerLength: headerBytes.count)
        let dataOffset = indexOffset + sorted.count * RoutingPackFormat.indexEntrySize

        var index = ByteWriter(capacity: sorted.count * RoutingPackFormat.indexEntrySize)
        var offset = UInt64(dataOffset)
        for (tile, packed) in zip(sorted, compressed) {
            let entry = RoutingPackIndexEntry(
                tileID: tile.id, offset: offset, compressedSize: UInt32(packed.count), rawSize: UInt32(tile.raw.count),
                rawCRC32: CRC32.checksum(tile.raw), compressedCRC32: CRC32.checksum(packed))
            entry.encode(into: &index)
            offset += UInt64(packed.count)
        }
        let fileSize = offset

        var w = ByteWriter(capacity: dataOffset)
        w.append(contentsOf: RoutingPackFormat.magic)
        w.u32(RoutingPackFormat.version)
        w.u32(0)  // flags
        w.u64(fileSize)
        w.u32(UInt32(headerBytes.count))
        w.u32(CRC32.checksum(headerBytes))
        w.u32(UInt32(sorted.count))
        w.u32(CRC32.checksum(index.bytes))
        w.u64(UInt64(indexOffset))
        w.u64(UInt64(dataOffset))
        w.u32(0)  // reserved
        w.u32(CRC32.checksum(w.bytes))
        assert(w.count == RoutingPackFormat.preambleSize)
        w.append(contentsOf: headerBytes)
        w.pad(to: 8)
        assert(w.count == indexOffset)
        w.append(contentsOf: index.bytes)
        return (w.bytes, compressed)
    }

    /// zlib at the fixed level, on all cores; each tile's bytes depend only on that tile.
    private static func compressAll(_ tiles: [Tile]) -> [[UInt8]] {
        Parallel.map(count: tiles.count) { i in
            Zlib.compress(tiles[i].raw, level: RoutingPackFormat.compressionLevel)
        }
    }
}
