import OffgridCore

/// One index entry, as a value: what `PackIndex.entry(_:)` returns.
public struct PackEntry: Equatable, Sendable {
    public var key: ArraySlice<UInt8>
    /// Absolute offset of the stored bytes in the pack.
    public var offset: Int
    /// Stored (possibly compressed) length.
    public var length: Int
    /// Content length (after inflating, for compressed kinds).
    public var rawLength: Int
    /// CRC32 of the content.
    public var crc32: UInt32
    /// SHA-256 of the content, or empty when the kind has none.
    public var sha256: ArraySlice<UInt8>
}

/// The validated index of a pack, in flat arrays (one allocation per field, none per entry):
/// keys strictly ascending byte-wise, every extent inside the data section, each one either the
/// next contiguous blob or an exact repeat of an earlier entry's blob (deduplicated content).
public struct PackIndex: Sendable {
    public private(set) var count = 0
    /// Number of distinct stored blobs (entries minus deduplicated repeats).
    public private(set) var uniqueBlobs = 0
    private var keyBytes: [UInt8] = []
    private var keyEnds: [Int] = []
    private var offsets: [Int] = []
    private var lengths: [Int] = []
    private var rawLengths: [Int] = []
    private var crcs: [UInt32] = []
    private var digests: [UInt8] = []

    public func key(_ i: Int) -> ArraySlice<UInt8> { keyBytes[(i == 0 ? 0 : keyEnds[i - 1])..<keyEnds[i]] }
    public func offset(_ i: Int) -> Int { offsets[i] }
    public func length(_ i: Int) -> Int { lengths[i] }
    public func rawLength(_ i: Int) -> Int { rawLengths[i] }
    public func crc32(_ i: Int) -> UInt32 { crcs[i] }
    public func sha256(_ i: Int) -> ArraySlice<UInt8> { digests.isEmpty ? [] : digests[(32 * i)..<(32 * i + 32)] }

    public func entry(_ i: Int) -> PackEntry {
        PackEntry(key: key(i), offset: offsets[i], length: lengths[i], rawLength: rawLengths[i], crc32: crcs[i], sha256: sha256(i))
    }

    /// Position of `key`, by binary search over the sorted keys.
    public func find<K: Collection>(_ wanted: K) -> Int? where K.Element == UInt8 {
        var lo = 0, hi = count
        while lo < hi {
            let mid = (lo + hi) / 2
            if key(mid).lexicographicallyPrecedes(wanted) { lo = mid + 1 } else { hi = mid }
        }
        return lo < count && key(lo).elementsEqual(wanted) ? lo : nil
    }

    /// Parses and checks `bytes` (the whole index section, at file offset `at`) for a pack of
    /// `fileSize` bytes whose data starts at `dataOffset`. Throws `InputError` naming `file`
    /// and the offset of the offending entry.
    static func parse(_ bytes: ArraySlice<UInt8>, count: Int, at indexOffset: Int, dataOffset: Int, fileSize: Int,
                      kind: PackKind, file: String) throws -> PackIndex {
        var index = PackIndex()
        index.keyEnds.reserveCapacity(count)
        index.offsets.reserveCapacity(count)
        index.lengths.reserveCapacity(count)
        index.rawLengths.reserveCapacity(count)
        index.crcs.reserveCapacity(count)
        if kind.hasSHA256 { index.digests.reserveCapacity(32 * count) }
        let base = bytes.startIndex
        var p = 0
        func u16() -> Int { defer { p += 2 }; return Int(bytes[base + p]) | Int(bytes[base + p + 1]) << 8 }
        func u32() -> UInt32 {
            defer { p += 4 }
            return UInt32(bytes[base + p]) | UInt32(bytes[base + p + 1]) << 8 | UInt32(bytes[base + p + 2]) << 16 | UInt32(bytes[base + p + 3]) << 24
        }
        func u64() -> UInt64 { UInt64(u32()) | UInt64(u32()) << 32 }
        var nextData = dataOffset
        // Entries that stored a new blob, in ascending offset order: a repeat is found by binary
        // search (no hashing per entry; most entries are new blobs and find nothing).
        var blobEntries: [Int] = []
        func storedBlob(offset: Int, length: Int) -> Int? {
            var lo = 0, hi = blobEntries.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if index.offsets[blobEntries[mid]] < offset { lo = mid + 1 } else { hi = mid }
            }
            // Zero-length blobs share their offset with the next blob: scan the (few) equal offsets.
            while lo < blobEntries.count, index.offsets[blobEntries[lo]] == offset {
                if index.lengths[blobEntries[lo]] == length { return blobEntries[lo] }
                lo += 1
            }
            return nil
        }
        let tail = PackLayout.entryFixedSize - 2 + (kind.hasSHA256 ? 32 : 0)
        for i in 0..<count {
            let at = indexOffset + p
            func fail(_ message: String) -> InputError { InputError(file: file, offset: at, "index entry \(i): \(message)") }
            guard bytes.count - p >= 2 else { throw fail("the index ends inside the entry") }
            let keyLength = u16()
            guard keyLength >= 1, keyLength <= kind.maxKeyLength else {
                throw fail("key length \(keyLength) is not in 1...\(kind.maxKeyLength)")
            }
            guard bytes.count - p >= keyLength + tail else { throw fail("the index ends inside the entry") }
            let key = bytes[(base + p)..<(base + p + keyLength)]
            p += keyLength
            // Only on failure: formatting a name per entry would cost an allocation each.
            func name() -> String { kind.describeKey(key) }
            if i > 0 {
                guard index.key(i - 1).lexicographicallyPrecedes(key) else {
                    throw fail("\(name()): keys are not strictly ascending")
                }
            }
            let offset = u64(), length = u64(), rawLength = u64(), crc = u32()
            guard rawLength <= UInt64(kind.maxEntryLength) else {
                throw fail("\(name()): content length \(rawLength) exceeds the \(kind.maxEntryLength)-byte limit")
            }
            if kind.compressed {
                guard length >= UInt64(PackLayout.minCompressedLength) else {
                    throw fail("\(name()): compressed length \(length) is too small for a zlib stream")
                }
                // Division, not multiplication: a hostile length must not overflow. rawLength is capped above.
                let ratio = UInt64(PackLayout.maxCompressionRatio)
                guard (rawLength + ratio - 1) / ratio <= length else {
                    throw fail("\(name()): content length \(rawLength) is impossible for \(length) compressed bytes")
                }
            } else {
                guard length == rawLength else { throw fail("\(name()): stored length \(length) differs from content length \(rawLength) in an uncompressed pack") }
            }
            guard offset >= UInt64(dataOffset), offset <= UInt64(fileSize), length <= UInt64(fileSize) - offset else {
                throw fail("\(name()): \(length) bytes at \(offset) are outside the data section \(dataOffset)..<\(fileSize)")
            }
            let o = Int(offset), n = Int(length)
            if let first = storedBlob(offset: o, length: n) {
                guard index.crcs[first] == crc, index.rawLengths[first] == Int(rawLength) else {
                    throw fail("\(name()): shares the data at \(offset) with entry \(first) but not its checksum and length")
                }
            } else if o == nextData {
                blobEntries.append(i)
                nextData += n
                index.uniqueBlobs += 1
            } else {
                throw fail("\(name()): data at \(offset) is neither the next blob (\(nextData)) nor an earlier identical one")
            }
            index.keyBytes.append(contentsOf: key)
            index.keyEnds.append(index.keyBytes.count)
            index.offsets.append(o)
            index.lengths.append(n)
            index.rawLengths.append(Int(rawLength))
            index.crcs.append(crc)
            if kind.hasSHA256 {
                index.digests.append(contentsOf: bytes[(base + p)..<(base + p + 32)])
                p += 32
            }
            index.count += 1
        }
        guard p == bytes.count else {
            throw InputError(file: file, offset: indexOffset + p, "\(bytes.count - p) unexpected bytes after the last index entry")
        }
        guard nextData == fileSize else {
            throw InputError(file: file, offset: nextData, "entry data ends at byte \(nextData) but the file has \(fileSize) bytes")
        }
        return index
    }
}
