import OffgridCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Opens a pack of any kind by reading only its preamble, header and index, validated in one
/// order for every kind:
///
/// 1. file: exists, regular, not empty;
/// 2. preamble: magic (foreign files are named), length, version, CRC32, declared size against
///    the real size (truncation or trailing bytes), flags, reserved fields;
/// 3. sections: header length and entry count under the kind's caps, index offset where the
///    header ends, index length consistent with the entry count, index inside the file;
/// 4. header CRC32 and zero padding, index CRC32;
/// 5. index content (`PackIndex.parse`): key lengths, keys strictly ascending, lengths under the
///    caps and of a possible compression ratio, extents inside the data section, contiguous or
///    exact repeats, data ending at the end of the file.
///
/// The kind's header fields are then the caller's to decode (`headerBytes`, errors through
/// `headerError`). `entryBytes(at:)` reads one entry by positioned read and checks only that
/// entry: zlib stream, length, CRC32 and SHA-256. Every failure is an `InputError` naming the
/// file and the byte offset. Immutable after `init`: entries may be read from several threads.
public final class PackReader: @unchecked Sendable {
    /// The file name used in errors (the path for `init(path:kind:)`).
    public let path: String
    public let kind: PackKind
    public let fileSize: Int
    /// The kind header's bytes (file offset `PackLayout.preambleSize`).
    public let headerBytes: [UInt8]
    public let index: PackIndex
    public let indexOffset: Int
    public let dataOffset: Int
    private let source: PackSource

    /// Opens the pack at `path`; nothing beyond the index is read.
    public convenience init(path: String, kind: PackKind) throws {
        let (fd, size) = try PackSource.openFile(path)
        do {
            try self.init(source: .file(fd: fd), size: size, name: path, kind: kind)
        } catch {
            close(fd)
            throw error
        }
    }

    /// Validates a pack already in memory; `name` is used in errors.
    public convenience init(bytes: [UInt8], name: String, kind: PackKind) throws {
        try self.init(source: .memory(bytes), size: bytes.count, name: name, kind: kind)
    }

    private init(source: PackSource, size: Int, name: String, kind: PackKind) throws {
        self.source = source
        self.path = name
        self.kind = kind
        self.fileSize = size
        func fail(_ offset: Int, _ message: String) -> InputError { InputError(file: name, offset: offset, message) }
        guard size > 0 else { throw fail(0, "empty file, not a \(kind.name)") }

        // 2. Preamble.
        let head = try source.read(offset: 0, count: min(size, PackLayout.preambleSize), file: name, what: "preamble")
        guard head.starts(with: kind.magic.prefix(head.count)) else { throw fail(0, ForeignFiles.message(head, kind: kind)) }
        guard head.count == PackLayout.preambleSize else {
            throw fail(size, "truncated: \(size) bytes, shorter than the \(PackLayout.preambleSize)-byte \(kind.name) preamble")
        }
        let p = PackPreamble.decode(head)
        guard p.version == kind.version else {
            throw fail(PackLayout.versionOffset, "unsupported \(kind.name) version \(p.version) (this tool reads version \(kind.version))")
        }
        let storedCRC = UInt32(head[60]) | UInt32(head[61]) << 8 | UInt32(head[62]) << 16 | UInt32(head[63]) << 24
        let crc = CRC32.checksum(head[0..<PackLayout.preambleCRCOffset])
        guard crc == storedCRC else {
            throw fail(0, "preamble fails its CRC32 check (stored \(hex32(storedCRC)), data gives \(hex32(crc)))")
        }
        guard p.fileSize == UInt64(size) else {
            if p.fileSize > UInt64(size) { throw fail(size, "truncated: file has \(size) bytes, the pack declares \(p.fileSize)") }
            throw fail(Int(p.fileSize), "\(UInt64(size) - p.fileSize) unexpected bytes after the declared end of the pack (\(p.fileSize) bytes)")
        }
        guard p.flags == kind.flags else {
            throw fail(PackLayout.flagsOffset, "unknown flags \(hex32(p.flags)) (a \(kind.name) has \(hex32(kind.flags)))")
        }
        guard p.reserved1 == 0 else { throw fail(PackLayout.reserved1Offset, "reserved field is not zero") }
        guard p.reserved2 == 0 else { throw fail(PackLayout.reserved2Offset, "reserved field is not zero") }

        // 3. Sections.
        let headerLength = Int(p.headerLength), count = Int(p.entryCount), indexLength = Int(p.indexLength)
        guard headerLength <= kind.maxHeaderLength else {
            throw fail(PackLayout.headerLengthOffset, "header length \(headerLength) exceeds the \(kind.maxHeaderLength)-byte limit")
        }
        guard count <= kind.maxEntries else {
            throw fail(PackLayout.entryCountOffset, "\(count) entries exceed the limit of \(kind.maxEntries)")
        }
        let expectedIndex = PackLayout.indexOffset(headerLength: headerLength)
        guard p.indexOffset == UInt64(expectedIndex) else {
            throw fail(PackLayout.indexOffsetOffset, "index offset \(p.indexOffset), expected \(expectedIndex)")
        }
        let minLength = count * kind.entrySize(keyLength: 1), maxLength = count * kind.entrySize(keyLength: kind.maxKeyLength)
        guard indexLength >= minLength, indexLength <= maxLength else {
            throw fail(PackLayout.indexLengthOffset, "index length \(indexLength) cannot hold \(count) entries (\(minLength)...\(maxLength) bytes)")
        }
        let data = expectedIndex + indexLength
        guard data <= size else {
            throw fail(PackLayout.entryCountOffset, "\(count) entries need an index ending at byte \(data), past the end of the file (\(size))")
        }

        // 4. Header and index bytes, in one read.
        let start = PackLayout.preambleSize
        let sections = try source.read(offset: start, count: data - start, file: name, what: "header and index")
        let header = sections.prefix(headerLength)
        let headerCRC = CRC32.checksum(header)
        guard headerCRC == p.headerCRC32 else {
            throw fail(start, "header fails its CRC32 check (preamble says \(hex32(p.headerCRC32)), data gives \(hex32(headerCRC)))")
        }
        let padding = sections[(sections.startIndex + headerLength)..<(sections.startIndex + expectedIndex - start)]
        if let nonZero = padding.firstIndex(where: { $0 != 0 }) {
            throw fail(start + nonZero - sections.startIndex, "padding after the header is not zero")
        }
        let indexBytes = sections.suffix(indexLength)
        let indexCRC = CRC32.checksum(indexBytes)
        guard indexCRC == p.indexCRC32 else {
            throw fail(expectedIndex, "index fails its CRC32 check (preamble says \(hex32(p.indexCRC32)), data gives \(hex32(indexCRC)))")
        }

        // 5. Index content.
        index = try PackIndex.parse(indexBytes, count: count, at: expectedIndex, dataOffset: data, fileSize: size,
                                    kind: kind, file: name)
        headerBytes = Array(header)
        indexOffset = expectedIndex
        dataOffset = data
    }

    deinit {
        if case .file(let fd) = source { close(fd) }
    }

    public var entryCount: Int { index.count }

    /// Position of the entry with `key`, or nil.
    public func find<K: Collection>(_ key: K) -> Int? where K.Element == UInt8 { index.find(key) }

    /// The content of entry `i`, read on its own and checked: zlib stream and length for
    /// compressed kinds, CRC32, and SHA-256 when the kind has it.
    public func entryBytes(at i: Int) throws -> [UInt8] {
        precondition(i >= 0 && i < index.count, "entry \(i) out of range 0..<\(index.count)")
        let stored = try source.read(offset: index.offset(i), count: index.length(i), file: path, what: kind.describeKey(index.key(i)))
        return try checkedContent(of: i, stored: stored)
    }

    /// Inflates (compressed kinds) and checks the stored bytes of entry `i`.
    private func checkedContent(of i: Int, stored: ArraySlice<UInt8>) throws -> [UInt8] {
        let e = index.entry(i)
        func fail(_ message: String) -> InputError { InputError(file: path, offset: e.offset, "\(kind.describeKey(e.key)): \(message)") }
        var content: [UInt8]
        if kind.compressed {
            do {
                content = try Zlib.decompress(stored, rawSize: e.rawLength)
            } catch {
                throw fail("\(error) (index says \(e.rawLength) bytes)")
            }
        } else {
            content = Array(stored)
        }
        let crc = CRC32.checksum(content)
        guard crc == e.crc32 else {
            throw fail("content fails its CRC32 check (index says \(hex32(e.crc32)), data gives \(hex32(crc)))")
        }
        if kind.hasSHA256 {
            guard SHA256.hash(content)[...] == e.sha256 else { throw fail("content fails its SHA-256 check") }
        }
        return content
    }

    /// The content of the entry with `key`, or nil when the pack has none.
    public func entryBytes<K: Collection>(key: K) throws -> [UInt8]? where K.Element == UInt8 {
        guard let i = find(key) else { return nil }
        return try entryBytes(at: i)
    }

    /// An error in the kind header at `offset` bytes into it.
    public func headerError(offset: Int, _ message: String) -> InputError {
        InputError(file: path, offset: PackLayout.preambleSize + offset, "invalid header: \(message)")
    }

    /// Checks every entry: what reading the whole pack would check. The data section is read in
    /// large sequential chunks (not one positioned read per entry), each entry checked from them.
    public func verifyAll() throws {
        let chunk = 64 << 20
        var i = 0
        while i < index.count {
            // Entries are in key order; their blobs are ascending except repeats, which point back.
            let start = index.offset(i)
            var end = start + index.length(i), j = i + 1
            while j < index.count, index.offset(j) >= start, index.offset(j) + index.length(j) - start <= chunk {
                end = max(end, index.offset(j) + index.length(j))
                j += 1
            }
            let bytes = try source.read(offset: start, count: end - start, file: path, what: "entry data")
            for k in i..<j {
                let from = bytes.startIndex + index.offset(k) - start
                _ = try checkedContent(of: k, stored: bytes[from..<(from + index.length(k))])
            }
            i = j
        }
    }
}
