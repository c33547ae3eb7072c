import OffgridCore
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A style pack read into memory and validated completely: magic, version, preamble CRC32,
/// declared size (truncation), header and index CRC32s and contents, contiguous resource data,
/// and the CRC32 and SHA-256 of every resource. Any problem is an `InputError` naming the file,
/// the byte offset and, for a resource, its path. Nothing is allocated from an unchecked count.
///
///     let pack = try StylePack(path: "out/style.stylepack")
///     let style = pack.styleJSON                                  // the style's bytes
///     let range = pack.resource(named: "glyphs/DejaVu Sans Book/0-255.pbf")
///     range?.contentHash                                          // hex SHA-256, for updates
///     let bytes = pack.bytes(of: range!)
///
/// Immutable after `init`, so it may be shared between threads.
public final class StylePack: @unchecked Sendable {
    /// One resource: its index entry. `bytes(of:)` gives its data.
    public struct Resource: Equatable, Sendable {
        public let info: StyleResourceInfo
        /// Absolute file offset of the data.
        public let offset: Int
        public let length: Int
        public let crc32: UInt32
        /// SHA-256 of the data, 32 bytes.
        public let sha256: [UInt8]

        public var kind: StyleResourceKind { info.kind }
        public var path: String { info.path }
        public var url: String { info.url }
        /// Lowercase hex SHA-256 of the data: equal hashes, equal bytes. What a store compares to
        /// decide whether a resource changed between two packs of the same style.
        public var contentHash: String { SHA256.hex(sha256) }
    }

    /// The file name used in errors (the path for `init(path:)`).
    public let path: String
    public let fileSize: Int
    /// The style's URI: `--uri` when it was built, else the style's `name`.
    public let uri: String
    public let createdBy: String
    public let glyphsMode: GlyphsMode
    public let pixelRatios: [Int]
    /// Font stacks whose glyph ranges the pack holds (names joined by ","), sorted.
    public let fontStacks: [String]
    public let sprites: [StyleSprite]
    /// The style's sources as recorded (not fetched), sorted by id.
    public let sources: [StyleSource]
    /// Index order: the style, sprite files, glyph ranges.
    public let resources: [Resource]

    private let bytes: [UInt8]
    private let byPath: [String: Int]

    /// Reads and validates the pack at `path`.
    public convenience init(path: String) throws {
        try self.init(bytes: Self.readFile(path), name: path)
    }

    /// Validates a pack already in memory; `name` is used in errors.
    public init(bytes: [UInt8], name: String) throws {
        path = name
        self.bytes = bytes
        fileSize = bytes.count
        func fail(_ offset: Int, _ message: String) -> InputError { InputError(file: name, offset: offset, message) }

        // 1. Magic, size, version, preamble CRC.
        guard !bytes.isEmpty else { throw fail(0, "empty file, not a style pack") }
        let magicCount = min(bytes.count, StylePackFormat.magic.count)
        guard bytes[0..<magicCount].elementsEqual(StylePackFormat.magic[0..<magicCount]) else {
            throw fail(0, Self.notAStylePack(bytes))
        }
        guard bytes.count >= StylePackFormat.preambleLength else {
            throw fail(bytes.count, "truncated: \(bytes.count) bytes, shorter than the \(StylePackFormat.preambleLength)-byte preamble")
        }
        guard bytes.count <= StylePackFormat.maxFileSize else {
            throw fail(0, "style pack of \(bytes.count) bytes is over the \(StylePackFormat.maxFileSize >> 30) GiB limit")
        }
        var p = ByteReader(bytes, offset: 8)
        let version = try p.u32()
        guard version == StylePackFormat.version else {
            throw fail(8, "unsupported style pack version \(version) (this reader knows \(StylePackFormat.version))")
        }
        let flags = try p.u32()
        let declaredSize = try p.u64()
        let headerLength = Int(try p.u32())
        let headerCRC = try p.u32()
        let resourceCount = Int(try p.u32())
        let indexLength = Int(try p.u32())
        let indexCRC = try p.u32()
        let reserved1 = try p.u32()
        let dataOffset = try p.u64()
        let reserved2 = try p.u32()
        let preambleCRC = try p.u32()
        guard CRC32.checksum(bytes[0..<60]) == preambleCRC else { throw fail(60, "preamble fails its CRC32 check") }

        // 2. Declared size: truncation anywhere is found here.
        if declaredSize > UInt64(bytes.count) {
            throw fail(bytes.count, "truncated: the file has \(bytes.count) bytes, the preamble declares \(declaredSize)")
        }
        if declaredSize < UInt64(bytes.count) {
            throw fail(Int(declaredSize), "unexpected bytes after the declared end (\(declaredSize) bytes declared, \(bytes.count) present)")
        }
        guard flags == 0 else { throw fail(12, "unknown flags 0x\(String(flags, radix: 16))") }
        guard reserved1 == 0 else { throw fail(44, "reserved field is not zero") }
        guard reserved2 == 0 else { throw fail(56, "reserved field is not zero") }
        guard headerLength <= StylePackFormat.maxHeaderLength else {
            throw fail(24, "header length \(headerLength) over the \(StylePackFormat.maxHeaderLength >> 20) MiB limit")
        }
        guard indexLength <= StylePackFormat.maxIndexLength else {
            throw fail(36, "index length \(indexLength) over the \(StylePackFormat.maxIndexLength >> 20) MiB limit")
        }
        let headerStart = StylePackFormat.preambleLength
        let indexStart = headerStart + headerLength
        let expectedData = indexStart + indexLength
        guard dataOffset == UInt64(expectedData) else {
            throw fail(48, "data offset \(dataOffset) is not 64 + header length + index length = \(expectedData)")
        }
        guard expectedData <= bytes.count else {
            throw fail(48, "data offset \(expectedData) is past the end of the file (\(bytes.count) bytes)")
        }
        guard resourceCount >= 1 else { throw fail(32, "no resources: a style pack holds at least its style") }
        guard resourceCount <= indexLength / StylePackFormat.minIndexEntryLength else {
            throw fail(32, "resource count \(resourceCount) cannot fit in an index of \(indexLength) bytes")
        }

        // 3. Header.
        guard CRC32.checksum(bytes[headerStart..<indexStart]) == headerCRC else {
            throw fail(headerStart, "header fails its CRC32 check")
        }
        var h = ByteReader(Array(bytes[headerStart..<indexStart]))
        func headerError(_ error: Error) -> InputError {
            if let e = error as? BinaryFormatError { return fail(headerStart + e.offset, "header: \(e.message)") }
            if let e = error as? InputError { return e }
            return fail(headerStart, "header: \(error)")
        }
        let hd: Header
        do {
            hd = try Self.parseHeader(&h, at: headerStart, fail: fail)
        } catch {
            throw headerError(error)
        }
        uri = hd.uri
        createdBy = hd.createdBy
        glyphsMode = hd.glyphsMode
        pixelRatios = hd.pixelRatios
        fontStacks = hd.fontStacks
        sprites = hd.sprites
        sources = hd.sources

        // 4. Index.
        guard CRC32.checksum(bytes[indexStart..<expectedData]) == indexCRC else {
            throw fail(indexStart, "index fails its CRC32 check")
        }
        var x = ByteReader(Array(bytes[indexStart..<expectedData]))
        var resources: [Resource] = []
        var byPath: [String: Int] = [:]
        var nextOffset = expectedData
        let stackSet = Set(hd.fontStacks), spriteIDs = Set(hd.sprites.map(\.id))
        for i in 0..<resourceCount {
            let entryAt = indexStart + x.offset
            func entryFail(_ message: String) -> InputError { fail(entryAt, "index entry \(i): \(message)") }
            let info: StyleResourceInfo
            let offset: UInt64, length: UInt64, crc: UInt32, sha: [UInt8]
            do {
                let kindByte = try x.u8()
                let ratio = Int(try x.u8())
                let reserved = try x.u16()
                let rangeStart = Int(try x.u32())
                offset = try x.u64()
                length = try x.u64()
                crc = try x.u32()
                sha = Array(try x.bytes(32))
                let path = try x.string(), url = try x.string(), group = try x.string()
                guard let kind = StyleResourceKind(rawValue: kindByte) else { throw entryFail("unknown kind \(kindByte)") }
                guard reserved == 0 else { throw entryFail("reserved field is not zero") }
                info = StyleResourceInfo(kind: kind, path: path, url: url, group: group, pixelRatio: ratio, rangeStart: rangeStart)
            } catch let e as BinaryFormatError {
                throw fail(indexStart + e.offset, "index entry \(i): \(e.message)")
            }
            let named = "resource \"\(info.path)\""
            guard isSafeRelativePath(info.path) else { throw entryFail("\(named): not a safe relative path") }
            guard byPath[info.path] == nil else { throw entryFail("\(named) appears twice") }
            if i == 0 {
                guard info.kind == .style else { throw entryFail("\(named): entry 0 must be the style") }
            } else {
                guard info.kind != .style else { throw entryFail("\(named): a second style") }
                guard info.kind.section >= resources[i - 1].kind.section else {
                    throw entryFail("\(named): entries are not in the order style, sprite files, glyph ranges")
                }
            }
            switch info.kind {
            case .style:
                guard info.path == StylePackFormat.stylePath, info.pixelRatio == 0, info.rangeStart == 0, info.group.isEmpty else {
                    throw entryFail("\(named): the style entry must be \"\(StylePackFormat.stylePath)\" with no ratio, range or group")
                }
            case .spriteIndex, .spriteImage:
                guard hd.pixelRatios.contains(info.pixelRatio), info.rangeStart == 0 else {
                    throw entryFail("\(named): pixel ratio \(info.pixelRatio) is not one of the pack's \(hd.pixelRatios)")
                }
                guard spriteIDs.contains(info.group) else { throw entryFail("\(named): unknown sprite \"\(info.group)\"") }
            case .glyphRange:
                guard info.pixelRatio == 0 else { throw entryFail("\(named): a glyph range with pixel ratio \(info.pixelRatio)") }
                guard info.rangeStart % 256 == 0, info.rangeStart <= 65280 else {
                    throw entryFail("\(named): range start \(info.rangeStart) is not a multiple of 256 up to 65280")
                }
                guard stackSet.contains(info.group) else { throw entryFail("\(named): unknown font stack \"\(info.group)\"") }
                if hd.glyphsMode == .localIdeographs && GlyphRanges.isIdeographRange(start: info.rangeStart) {
                    throw entryFail("\(named): an ideograph range in a local-ideographs pack")
                }
            }
            guard offset == UInt64(nextOffset) else {
                throw entryFail("\(named): offset \(offset), expected \(nextOffset) (data must be contiguous)")
            }
            guard length <= UInt64(StylePackFormat.maxResourceLength), offset + length <= UInt64(bytes.count) else {
                throw entryFail("\(named): \(length) bytes at \(offset) run past the end of the file (\(bytes.count) bytes)")
            }
            nextOffset += Int(length)
            byPath[info.path] = i
            resources.append(Resource(info: info, offset: Int(offset), length: Int(length), crc32: crc, sha256: sha))
        }
        guard x.isAtEnd else { throw fail(indexStart + x.offset, "index: \(x.remaining) unexpected bytes after entry \(resourceCount - 1)") }
        guard nextOffset == bytes.count else {
            throw fail(nextOffset, "\(bytes.count - nextOffset) bytes after the last resource")
        }

        // 5. Every resource's checksums.
        for r in resources {
            let data = bytes[r.offset..<(r.offset + r.length)]
            guard CRC32.checksum(data) == r.crc32 else {
                throw fail(r.offset, "resource \"\(r.path)\" fails its CRC32 check")
            }
            var sha = SHA256()
            sha.update(data)
            guard sha.finalize() == r.sha256 else {
                throw fail(r.offset, "resource \"\(r.path)\" fails its SHA-256 check")
            }
        }
        self.resources = resources
        self.byPath = byPath
    }

    /// The style JSON, exactly as it was read when the pack was built.
    public var styleJSON: [UInt8] { bytes(of: resources[0]) }

    /// The resource at `path` (`style.json`, `sprite@2x.png`, `glyphs/<stack>/<range>.pbf`, …).
    public func resource(named path: String) -> Resource? {
        byPath[path].map { resources[$0] }
    }

    /// The data of a resource of this pack (already checked against its CRC32 and SHA-256).
    public func bytes(of resource: Resource) -> [UInt8] {
        precondition(resource.offset >= StylePackFormat.preambleLength && resource.offset + resource.length <= bytes.count,
                     "resource \(resource.path) is not from this pack")
        return Array(bytes[resource.offset..<(resource.offset + resource.length)])
    }

    /// The data of the resource at `path`, or nil when the pack has none.
    public func bytes(named path: String) -> [UInt8]? {
        resource(named: path).map { bytes(of: $0) }
    }

    /// Glyph ranges of one font stack, ascending.
    public func glyphRanges(of fontStack: String) -> [Resource] {
        resources.filter { $0.kind == .glyphRange && $0.info.group == fontStack }
    }

    // MARK: - Helpers

    private struct Header {
        var uri = "", createdBy = ""
        var glyphsMode = GlyphsMode.all
        var pixelRatios: [Int] = []
        var fontStacks: [String] = []
        var sprites: [StyleSprite] = []
        var sources: [StyleSource] = []
    }

    private static func parseHeader(_ h: inout ByteReader, at headerStart: Int,
                                    fail: (Int, String) -> InputError) throws -> Header {
        var hd = Header()
        hd.uri = try h.string()
        hd.createdBy = try h.string()
        let modeAt = h.offset
        let modeByte = try h.u8()
        guard let mode = GlyphsMode(code: modeByte) else {
            throw fail(headerStart + modeAt, "header: unknown glyphs mode \(modeByte)")
        }
        hd.glyphsMode = mode
        let ratioAt = h.offset
        let ratioCount = Int(try h.u8())
        var ratios: [Int] = []
        for _ in 0..<ratioCount { ratios.append(Int(try h.u8())) }
        guard !ratios.isEmpty, ratios.allSatisfy(StylePackFormat.pixelRatioRange.contains),
              zip(ratios, ratios.dropFirst()).allSatisfy({ $0 < $1 }) else {
            throw fail(headerStart + ratioAt, "header: pixel ratios \(ratios) are not 1 to 4 distinct ascending values")
        }
        hd.pixelRatios = ratios
        let stacksAt = h.offset
        let stackCount = try count(&h, elementBytes: 4)
        for _ in 0..<stackCount { hd.fontStacks.append(try h.string()) }
        guard zip(hd.fontStacks, hd.fontStacks.dropFirst()).allSatisfy({ utf8Less($0, $1) }),
              hd.fontStacks.allSatisfy({ !$0.isEmpty }) else {
            throw fail(headerStart + stacksAt, "header: font stacks are not non-empty, distinct and sorted")
        }
        let spritesAt = h.offset
        let spriteCount = try count(&h, elementBytes: 8)
        for _ in 0..<spriteCount { hd.sprites.append(StyleSprite(id: try h.string(), url: try h.string())) }
        guard Set(hd.sprites.map(\.id)).count == hd.sprites.count else {
            throw fail(headerStart + spritesAt, "header: sprite ids are not distinct")
        }
        let sourcesAt = h.offset
        let sourceCount = try count(&h, elementBytes: 16)
        for _ in 0..<sourceCount {
            let id = try h.string(), type = try h.string(), url = try h.string()
            let tileCount = try count(&h, elementBytes: 4)
            var tiles: [String] = []
            for _ in 0..<tileCount { tiles.append(try h.string()) }
            hd.sources.append(StyleSource(id: id, type: type, url: url, tiles: tiles))
        }
        guard zip(hd.sources, hd.sources.dropFirst()).allSatisfy({ utf8Less($0.id, $1.id) }) else {
            throw fail(headerStart + sourcesAt, "header: source ids are not distinct and sorted")
        }
        guard h.isAtEnd else { throw fail(headerStart + h.offset, "header: \(h.remaining) unexpected bytes after the last field") }
        return hd
    }

    /// A u32 count whose elements take at least `elementBytes` each: refused when the rest of the
    /// section could not hold them, before any loop or allocation.
    private static func count(_ r: inout ByteReader, elementBytes: Int) throws -> Int {
        let at = r.offset
        let n = Int(try r.u32())
        guard n <= r.remaining / elementBytes else {
            throw BinaryFormatError(offset: at, "count \(n) cannot fit in the \(r.remaining) bytes left")
        }
        return n
    }

    static func readFile(_ path: String) throws -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw InputError(file: path, "cannot open: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw InputError(file: path, "cannot stat: \(String(cString: strerror(errno)))") }
        guard (st.st_mode & S_IFMT) == S_IFREG else { throw InputError(file: path, "not a regular file") }
        let size = Int(st.st_size)
        guard size <= StylePackFormat.maxFileSize else {
            throw InputError(file: path, "style pack of \(size) bytes is over the \(StylePackFormat.maxFileSize >> 30) GiB limit")
        }
        var bytes = [UInt8](repeating: 0, count: size)
        var done = 0
        while done < size {
            let n = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + done, size - done, off_t(done)) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else {
                if n == 0 { bytes.removeSubrange(done...); break }  // shrank while reading
                throw InputError(file: path, offset: done, "cannot read: \(String(cString: strerror(errno)))")
            }
            done += n
        }
        return bytes
    }

    static func notAStylePack(_ bytes: [UInt8]) -> String {
        if bytes.starts(with: Array("OGRPACK".utf8)) { return "not a style pack: this is a routing pack" }
        if bytes.starts(with: [0x1f, 0x8b]) { return "not a style pack: this is a gzip file" }
        if bytes.starts(with: Array("SQLite format 3".utf8)) { return "not a style pack: this is an SQLite file" }
        if bytes.first == UInt8(ascii: "{") { return "not a style pack: this looks like JSON (a style? build a pack with tilepack-build style)" }
        return "not a style pack (no \"OGSTYLE\" magic at byte 0)"
    }
}
