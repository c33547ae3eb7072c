import OffgridCore

/// Writes packs of any kind. The bytes depend only on the kind, the header and the entries:
/// entries are sorted by key (byte-wise), compressed kinds use one fixed zlib level, identical
/// contents may be stored once (`deduplicate`), and nothing time- or host-dependent goes in.
public enum PackWriter {
    /// One entry to store: its key and its content (raw, before compression).
    public typealias Item = (key: [UInt8], content: ArraySlice<UInt8>)

    /// The pack as parts whose concatenation is the file: everything before the data (preamble,
    /// header, padding, index), then the stored blobs in order. For uncompressed kinds the blobs
    /// are slices of the caller's buffers, so content is not copied again before it is written.
    public struct Parts {
        public var prefix: [UInt8]
        public var blobs: [ArraySlice<UInt8>]
        /// Stored blobs (entries minus deduplicated repeats).
        public var uniqueBlobs: Int
        public var fileSize: Int
    }

    /// Encodes the parts. Throws `InputError` naming `file` (when given) for duplicate keys,
    /// keys or contents over the kind's limits, or a header over its limit.
    public static func encodeParts(kind: PackKind, header: [UInt8], items: [Item], deduplicate: Bool = false,
                                   file: String? = nil) throws -> Parts {
        func fail(_ message: String) -> InputError { InputError(file: file, message) }
        guard header.count <= kind.maxHeaderLength else {
            throw fail("\(kind.name) header is \(header.count) bytes, more than the \(kind.maxHeaderLength) allowed")
        }
        guard items.count <= kind.maxEntries else { throw fail("\(items.count) entries, more than the \(kind.maxEntries) a \(kind.name) holds") }
        let order = items.indices.sorted { items[$0].key.lexicographicallyPrecedes(items[$1].key) }
        for (a, b) in zip(order, order.dropFirst()) where items[a].key == items[b].key {
            throw fail("\(kind.describeKey(items[a].key[...])) is given twice")
        }
        for i in order {
            let (key, content) = items[i]
            guard !key.isEmpty, key.count <= kind.maxKeyLength else {
                throw fail("\(kind.describeKey(key[...])): key of \(key.count) bytes is not in 1...\(kind.maxKeyLength)")
            }
            guard content.count <= kind.maxEntryLength else {
                throw fail("\(kind.describeKey(key[...])) is \(content.count) bytes, more than the \(kind.maxEntryLength) allowed")
            }
        }
        let stored: [ArraySlice<UInt8>]
        if kind.compressed {
            // Each blob depends only on its content, so compressing in parallel keeps the bytes.
            // Largest first: a big entry started last would leave one core working alone at the end.
            let bySize = order.indices.sorted { (-items[order[$0]].content.count, $0) < (-items[order[$1]].content.count, $1) }
            let compressed = Parallel.map(count: bySize.count) { k in
                Zlib.compress(Array(items[order[bySize[k]]].content), level: PackLayout.compressionLevel)[...]
            }
            var byOrder = [ArraySlice<UInt8>](repeating: [], count: order.count)
            for (k, j) in bySize.enumerated() { byOrder[j] = compressed[k] }
            stored = byOrder
        } else {
            stored = order.map { items[$0].content }
        }

        let indexOffset = PackLayout.indexOffset(headerLength: header.count)
        let indexLength = order.reduce(0) { $0 + kind.entrySize(keyLength: items[$1].key.count) }
        let dataOffset = indexOffset + indexLength
        var index = ByteWriter(capacity: indexLength)
        var blobs: [ArraySlice<UInt8>] = []
        var dataLength = 0
        // (CRC32, length) of stored blobs -> their offsets and positions, to find identical ones.
        var seen: [UInt64: [(offset: Int, blob: Int)]] = [:]
        for (j, i) in order.enumerated() {
            let content = items[i].content, blob = stored[j]
            let crc = CRC32.checksum(content)
            var offset = -1
            let fingerprint = UInt64(crc) << 32 | UInt64(UInt32(truncatingIfNeeded: blob.count))
            if deduplicate, let candidates = seen[fingerprint] {
                for c in candidates where blobs[c.blob].elementsEqual(blob) { offset = c.offset; break }
            }
            if offset < 0 {
                offset = dataOffset + dataLength
                dataLength += blob.count
                if deduplicate { seen[fingerprint, default: []].append((offset, blobs.count)) }
                blobs.append(blob)
            }
            index.u16(UInt16(items[i].key.count))
            index.append(contentsOf: items[i].key)
            index.u64(UInt64(offset))
            index.u64(UInt64(blob.count))
            index.u64(UInt64(content.count))
            index.u32(crc)
            if kind.hasSHA256 { index.append(contentsOf: SHA256.hash(Array(content))) }
        }
        precondition(index.count == indexLength)
        let fileSize = dataOffset + dataLength
        let preamble = PackPreamble(version: kind.version, flags: kind.flags, fileSize: UInt64(fileSize),
                                    headerLength: UInt32(header.count), headerCRC32: CRC32.checksum(header),
                                    entryCount: UInt32(order.count), indexLength: UInt32(indexLength),
                                    indexCRC32: CRC32.checksum(index.bytes), reserved1: 0,
                                    indexOffset: UInt64(indexOffset), reserved2: 0)
        var prefix = ByteWriter(capacity: dataOffset)
        prefix.append(contentsOf: preamble.encoded(magic: kind.magic))
        prefix.append(contentsOf: header)
        prefix.pad(to: 8)
        prefix.append(contentsOf: index.bytes)
        precondition(prefix.count == dataOffset)
        return Parts(prefix: prefix.bytes, blobs: blobs, uniqueBlobs: blobs.count, fileSize: fileSize)
    }

    /// The whole pack in memory.
    public static func encode(kind: PackKind, header: [UInt8], items: [Item], deduplicate: Bool = false,
                              file: String? = nil) throws -> [UInt8] {
        let parts = try encodeParts(kind: kind, header: header, items: items, deduplicate: deduplicate, file: file)
        var bytes = parts.prefix
        bytes.reserveCapacity(parts.fileSize)
        for b in parts.blobs { bytes.append(contentsOf: b) }
        return bytes
    }

    /// Encodes and writes the pack atomically (`AtomicFile`): a failed write leaves any previous
    /// file at `path` intact. Returns the file size.
    @discardableResult
    public static func write(kind: PackKind, header: [UInt8], items: [Item], deduplicate: Bool = false,
                             to path: String) throws -> Int {
        let parts = try encodeParts(kind: kind, header: header, items: items, deduplicate: deduplicate, file: path)
        let writer = try AtomicFile.create(path)
        try writer.write(parts.prefix)
        // A crash here leaves a partial temporary file and no pack (the scale workflow's kill -9 test).
        FaultPoint.reached("pack-partial-written")
        for blob in parts.blobs {
            try blob.withUnsafeBytes { try writer.write($0) }
        }
        try writer.commit()
        return parts.fileSize
    }
}
