import OffgridCore
import TileMath
import Foundation

/// A PMTiles v3 archive read from a local file: the 127-byte header, the root directory, leaf
/// directories (read on demand and cached), run-length entries, and tile bytes read with
/// `pread`. Internal compression (directories, metadata) may be none or gzip.
///
/// Everything read from the file is checked before use: varints, entry counts against the bytes
/// that hold them, ascending tile ids, offsets and lengths against their sections, section
/// bounds against the file size, directory nesting depth (which also stops cycles), and the
/// decompressed size of every directory. A violation is an `InputError` naming the file and,
/// where it applies, the byte offset.
public final class PMTilesSource: TileSource {
    public let path: String
    public let info: TileSourceInfo
    public let header: Header

    /// The largest directory or metadata block accepted after decompression.
    public static let maxDirectoryBytes = 64 << 20
    /// Root plus at most this many levels of leaves (the spec uses at most three in all).
    public static let maxLeafDepth = 3

    public struct Header: Sendable {
        public var rootOffset: UInt64, rootLength: UInt64
        public var metadataOffset: UInt64, metadataLength: UInt64
        public var leafOffset: UInt64, leafLength: UInt64
        public var tileDataOffset: UInt64, tileDataLength: UInt64
        public var addressedTiles: UInt64, tileEntries: UInt64, tileContents: UInt64
        public var clustered: Bool
        public var internalCompression: TileCompression
        public var tileCompression: TileCompression
        public var tileType: TileType
        public var minZoom: Int, maxZoom: Int
        public var bounds: [Double]
        public var centerZoom: Int
        public var center: [Double]
    }

    /// One directory entry; `runLength == 0` marks a leaf directory.
    public struct Entry: Hashable, Sendable {
        public var tileId: UInt64
        public var offset: UInt64
        public var length: UInt32
        public var runLength: UInt32
    }

    private let fd: Int32
    private let fileSize: UInt64
    private let root: [Entry]
    private var leafCache: [UInt64: [Entry]] = [:]
    private var leafCacheBytes = 0

    public init(path: String) throws {
        self.path = path
        fd = Foundation.open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw InputError(file: path, "cannot open: \(FileBytes.reason())") }
        do {
            var st = stat()
            guard fstat(fd, &st) == 0 else { throw InputError(file: path, "cannot stat: \(FileBytes.reason())") }
            guard st.st_mode & S_IFMT == S_IFREG else { throw InputError(file: path, "not a regular file") }
            fileSize = UInt64(st.st_size)
            header = try PMTilesSource.readHeader(fd: fd, fileSize: fileSize, path: path)
            root = try PMTilesSource.readDirectory(fd: fd, path: path, header: header, offset: header.rootOffset,
                                                   length: header.rootLength, what: "root directory", leaf: false)
            let metadata = try PMTilesSource.readMetadata(fd: fd, path: path, header: header)
            let name = metadata["name"]?.stringValue ?? ""
            info = TileSourceInfo(container: .pmtiles, name: name, tileType: header.tileType,
                                  tileCompression: header.tileCompression, minZoom: header.minZoom,
                                  maxZoom: header.maxZoom, bounds: header.bounds, metadata: metadata,
                                  expires: metadata["expires"].map { $0.stringValue ?? JSONWriter.string($0, pretty: false) })
        } catch {
            close(fd)
            throw error
        }
    }

    deinit { close(fd) }

    // MARK: - Queries

    public func index(under parent: TileCoordinate, atZoom zoom: Int) throws -> [TileIndexEntry] {
        guard parent.isValid, zoom >= parent.z, zoom <= 30 else { return [] }
        let range = PMTilesID.descendantRange(of: parent, atZoom: zoom)
        var result: [TileIndexEntry] = []
        try collect(range, in: root, depth: 0) { id, entry in
            guard let c = PMTilesID.coordinate(id) else { return }
            result.append(TileIndexEntry(coordinate: c, length: Int(entry.length), offset: entry.offset))
        }
        result.sort { $0.coordinate < $1.coordinate }
        return result
    }

    public func read(under parent: TileCoordinate, atZoom zoom: Int,
                     _ body: (TileCoordinate, UnsafeRawBufferPointer) throws -> Void) throws {
        let entries = try index(under: parent, atZoom: zoom)
        guard !entries.isEmpty else { return }
        // Read runs of nearby tiles with one pread each (clustered archives store a subtree's
        // tiles together), then hand out slices.
        let byOffset = entries.sorted { ($0.offset, $0.coordinate) < ($1.offset, $1.coordinate) }
        var i = 0
        var buffer: [UInt8] = []
        while i < byOffset.count {
            let start = byOffset[i].offset
            var end = start + UInt64(byOffset[i].length)
            var j = i + 1
            while j < byOffset.count, byOffset[j].offset <= end + 65_536,
                  max(end, byOffset[j].offset + UInt64(byOffset[j].length)) - start <= 16 << 20 {
                end = max(end, byOffset[j].offset + UInt64(byOffset[j].length))
                j += 1
            }
            let count = Int(end - start)
            if buffer.count < count { buffer = [UInt8](repeating: 0, count: count) }
            try preadFully(into: &buffer, count: count, at: header.tileDataOffset + start, what: "tile data")
            try buffer.withUnsafeBytes { raw in
                for k in i..<j {
                    let e = byOffset[k]
                    let from = Int(e.offset - start)
                    try body(e.coordinate, UnsafeRawBufferPointer(rebasing: raw[from..<(from + e.length)]))
                }
            }
            i = j
        }
    }

    public func tile(_ coordinate: TileCoordinate) throws -> [UInt8]? {
        guard coordinate.isValid else { return nil }
        let id = PMTilesID.id(coordinate)
        var found: Entry?
        try collect(id..<(id + 1), in: root, depth: 0) { _, e in found = e }
        guard let e = found else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(e.length))
        try preadFully(into: &bytes, count: Int(e.length), at: header.tileDataOffset + e.offset, what: "tile data")
        return bytes
    }

    /// Every directory entry, leaves expanded (tests, inspection).
    public func allEntries() throws -> [Entry] {
        var out: [Entry] = []
        try walk(root, depth: 0) { out.append($0) }
        return out
    }

    private func walk(_ dir: [Entry], depth: Int, _ body: (Entry) -> Void) throws {
        for e in dir {
            if e.runLength > 0 { body(e) } else { try walk(try leaf(e, depth: depth + 1), depth: depth + 1, body) }
        }
    }

    /// Calls `body(id, entry)` for every tile id in `range` that `dir` (and its leaves) holds,
    /// in ascending id order.
    private func collect(_ range: Range<UInt64>, in dir: [Entry], depth: Int,
                         _ body: (UInt64, Entry) throws -> Void) throws {
        guard !dir.isEmpty, !range.isEmpty else { return }
        // The last entry starting at or before range.lowerBound, then onwards while below the end.
        var lo = 0, hi = dir.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if dir[mid].tileId <= range.lowerBound { lo = mid + 1 } else { hi = mid }
        }
        var i = max(0, lo - 1)
        while i < dir.count, dir[i].tileId < range.upperBound {
            let e = dir[i]
            if e.runLength == 0 {
                let next = i + 1 < dir.count ? dir[i + 1].tileId : UInt64.max
                if next > range.lowerBound {
                    try collect(range, in: try leaf(e, depth: depth + 1), depth: depth + 1, body)
                }
            } else {
                let first = max(e.tileId, range.lowerBound)
                let last = min(e.tileId + UInt64(e.runLength), range.upperBound)
                var id = first
                while id < last {
                    try body(id, e)
                    id += 1
                }
            }
            i += 1
        }
    }

    private func leaf(_ e: Entry, depth: Int) throws -> [Entry] {
        guard depth <= PMTilesSource.maxLeafDepth else {
            throw InputError(file: path, offset: Int(clamping: header.leafOffset + e.offset),
                             "leaf directories nested deeper than \(PMTilesSource.maxLeafDepth) levels (a cycle or a corrupt directory)")
        }
        if let cached = leafCache[e.offset] { return cached }
        let entries = try PMTilesSource.readDirectory(fd: fd, path: path, header: header,
                                                      offset: header.leafOffset + e.offset, length: UInt64(e.length),
                                                      what: "leaf directory", leaf: true)
        if leafCacheBytes > 256 << 20 {
            leafCache.removeAll()
            leafCacheBytes = 0
        }
        leafCache[e.offset] = entries
        leafCacheBytes += entries.count * MemoryLayout<Entry>.stride
        return entries
    }

    private func preadFully(into buffer: inout [UInt8], count: Int, at offset: UInt64, what: String) throws {
        try PMTilesSource.preadFully(fd: fd, path: path, into: &buffer, count: count, at: offset, what: what)
    }

    // MARK: - Parsing

    static func preadFully(fd: Int32, path: String, into buffer: inout [UInt8], count: Int, at offset: UInt64, what: String) throws {
        var done = 0
        try buffer.withUnsafeMutableBytes { raw in
            while done < count {
                let n = pread(fd, raw.baseAddress! + done, count - done, off_t(offset) + off_t(done))
                if n < 0 && errno == EINTR { continue }
                if n < 0 { throw InputError(file: path, offset: Int(offset), "cannot read \(what): \(FileBytes.reason())") }
                if n == 0 { throw InputError(file: path, offset: Int(offset) + done, "truncated \(what)") }
                done += n
            }
        }
    }

    static func readHeader(fd: Int32, fileSize: UInt64, path: String) throws -> Header {
        guard fileSize >= 127 else {
            throw InputError(file: path, "truncated PMTiles header: the file has \(fileSize) bytes, the header needs 127")
        }
        var bytes = [UInt8](repeating: 0, count: 127)
        try preadFully(fd: fd, path: path, into: &bytes, count: 127, at: 0, what: "header")
        guard bytes.starts(with: Array("PMTiles".utf8)) else { throw InputError(file: path, "not a PMTiles archive") }
        guard bytes[7] == 3 else {
            throw InputError(file: path, offset: 7, "unsupported PMTiles version \(bytes[7]) (only version 3 is read)")
        }
        var r = ByteReader(bytes, offset: 8)
        func u64() -> UInt64 { (try? r.u64()) ?? 0 }
        func i32() -> Int32 { (try? r.i32()) ?? 0 }
        func u8() -> UInt8 { (try? r.u8()) ?? 0 }
        var h = Header(rootOffset: u64(), rootLength: u64(), metadataOffset: u64(), metadataLength: u64(),
                       leafOffset: u64(), leafLength: u64(), tileDataOffset: u64(), tileDataLength: u64(),
                       addressedTiles: u64(), tileEntries: u64(), tileContents: u64(),
                       clustered: false, internalCompression: .unknown, tileCompression: .unknown, tileType: .unknown,
                       minZoom: 0, maxZoom: 0, bounds: [], centerZoom: 0, center: [])
        h.clustered = u8() == 1
        let internalCode = u8(), tileCode = u8(), typeCode = u8()
        h.minZoom = Int(u8())
        h.maxZoom = Int(u8())
        let e7 = (0..<4).map { _ in Double(i32()) / 1e7 }
        h.bounds = e7
        h.centerZoom = Int(u8())
        h.center = (0..<2).map { _ in Double(i32()) / 1e7 }

        guard let internalCompression = TileCompression(rawValue: internalCode) else {
            throw InputError(file: path, offset: 97, "unknown internal compression code \(internalCode)")
        }
        guard internalCompression == .none || internalCompression == .gzip else {
            throw InputError(file: path, offset: 97, "unsupported internal compression \(internalCompression.name) (directories and metadata must be uncompressed or gzip)")
        }
        h.internalCompression = internalCompression
        guard let tileCompression = TileCompression(rawValue: tileCode) else {
            throw InputError(file: path, offset: 98, "unknown tile compression code \(tileCode)")
        }
        h.tileCompression = tileCompression
        guard let tileType = TileType(rawValue: typeCode) else {
            throw InputError(file: path, offset: 99, "unknown tile type code \(typeCode)")
        }
        h.tileType = tileType
        guard h.minZoom <= h.maxZoom, h.maxZoom <= 30 else {
            throw InputError(file: path, offset: 100, "bad zoom range \(h.minZoom)-\(h.maxZoom) (zooms 0-30, min ≤ max)")
        }
        for (name, offset, length, at) in [("root directory", h.rootOffset, h.rootLength, 8),
                                           ("metadata", h.metadataOffset, h.metadataLength, 24),
                                           ("leaf directories", h.leafOffset, h.leafLength, 40),
                                           ("tile data", h.tileDataOffset, h.tileDataLength, 56)] {
            let (end, overflow) = offset.addingReportingOverflow(length)
            guard !overflow, end <= fileSize else {
                throw InputError(file: path, offset: at, "\(name) (\(length) bytes at \(offset)) extends past the end of the file (\(fileSize) bytes): truncated or corrupt")
            }
        }
        return h
    }

    /// Reads, decompresses and decodes one directory.
    static func readDirectory(fd: Int32, path: String, header: Header, offset: UInt64, length: UInt64,
                              what: String, leaf: Bool) throws -> [Entry] {
        let sectionEnd = leaf ? header.leafOffset + header.leafLength : header.rootOffset + header.rootLength
        let (end, overflow) = offset.addingReportingOverflow(length)
        guard !overflow, end <= sectionEnd, end <= UInt64(Int.max) else {
            throw InputError(file: path, offset: Int(clamping: offset), "\(what) (\(length) bytes) extends past its section")
        }
        guard length <= UInt64(maxDirectoryBytes) else {
            throw InputError(file: path, offset: Int(offset), "\(what) of \(length) bytes is larger than the \(maxDirectoryBytes) accepted")
        }
        var raw = [UInt8](repeating: 0, count: Int(length))
        try preadFully(fd: fd, path: path, into: &raw, count: Int(length), at: offset, what: what)
        let bytes = try decompressInternal(raw, header: header, path: path, offset: offset, what: what)
        do {
            return try decodeDirectory(bytes, header: header, leaf: leaf)
        } catch let e as BinaryFormatError {
            throw InputError(file: path, offset: Int(offset), "corrupt \(what): \(e.message) (at byte \(e.offset) of the decompressed directory)")
        }
    }

    static func decompressInternal(_ raw: [UInt8], header: Header, path: String, offset: UInt64, what: String) throws -> [UInt8] {
        switch header.internalCompression {
        case .none: return raw
        default:
            do {
                return try Zlib.decompress(raw[...], format: .gzip, maxOutput: maxDirectoryBytes)
            } catch let e as ZlibError {
                throw InputError(file: path, offset: Int(offset), "corrupt \(what): gzip: \(e.message)")
            }
        }
    }

    /// Decodes a directory: a varint entry count, then the tile-id deltas, run lengths, lengths
    /// and offsets of all entries, each as a column of varints.
    public static func decodeDirectory(_ bytes: [UInt8], header: Header, leaf: Bool) throws -> [Entry] {
        var r = ByteReader(bytes)
        let count = try r.varint()
        // Every entry takes at least four bytes (one per column).
        guard count <= UInt64(r.remaining / 4) else {
            throw BinaryFormatError(offset: 0, "directory claims \(count) entries but has only \(r.remaining) bytes")
        }
        let n = Int(count)
        var entries = [Entry](repeating: Entry(tileId: 0, offset: 0, length: 0, runLength: 0), count: n)
        var last: UInt64 = 0
        for i in 0..<n {
            let at = r.offset
            let delta = try r.varint()
            if i > 0 && delta == 0 { throw BinaryFormatError(offset: at, "tile ids are not strictly ascending (entry \(i))") }
            let (id, overflow) = last.addingReportingOverflow(delta)
            guard !overflow else { throw BinaryFormatError(offset: at, "tile id overflows 64 bits (entry \(i))") }
            entries[i].tileId = id
            last = id
        }
        for i in 0..<n {
            let at = r.offset
            let run = try r.varint()
            guard run <= UInt64(UInt32.max) else { throw BinaryFormatError(offset: at, "run length \(run) too large (entry \(i))") }
            entries[i].runLength = UInt32(run)
        }
        for i in 0..<n {
            let at = r.offset
            let length = try r.varint()
            guard length > 0, length <= UInt64(UInt32.max) else {
                throw BinaryFormatError(offset: at, "bad length \(length) (entry \(i))")
            }
            entries[i].length = UInt32(length)
        }
        for i in 0..<n {
            let at = r.offset
            let v = try r.varint()
            if v == 0 {
                guard i > 0 else { throw BinaryFormatError(offset: at, "first entry has a relative offset") }
                let (o, overflow) = entries[i - 1].offset.addingReportingOverflow(UInt64(entries[i - 1].length))
                guard !overflow else { throw BinaryFormatError(offset: at, "offset overflows (entry \(i))") }
                entries[i].offset = o
            } else {
                entries[i].offset = v - 1
            }
        }
        // Bounds and overlaps.
        let maxId = PMTilesID.zoomBase(31)
        for i in 0..<n {
            let e = entries[i]
            let section = e.runLength == 0 ? header.leafLength : header.tileDataLength
            let (end, overflow) = e.offset.addingReportingOverflow(UInt64(e.length))
            guard !overflow, end <= section else {
                throw BinaryFormatError(offset: 0, "entry \(i) (\(e.length) bytes at \(e.offset)) points past the \(e.runLength == 0 ? "leaf directories" : "tile data") section (\(section) bytes)")
            }
            let span = UInt64(max(e.runLength, 1))
            guard e.tileId < maxId, e.tileId + span <= maxId else {
                throw BinaryFormatError(offset: 0, "entry \(i) has tile id \(e.tileId) beyond zoom 30")
            }
            if e.runLength > 0, i + 1 < n, e.tileId + span > entries[i + 1].tileId {
                throw BinaryFormatError(offset: 0, "entry \(i) (tile id \(e.tileId), run length \(e.runLength)) overlaps the next entry")
            }
        }
        return entries
    }

    static func readMetadata(fd: Int32, path: String, header: Header) throws -> [String: JSONValue] {
        guard header.metadataLength > 0 else { return [:] }
        guard header.metadataLength <= UInt64(maxDirectoryBytes) else {
            throw InputError(file: path, offset: 32, "metadata of \(header.metadataLength) bytes is larger than the \(maxDirectoryBytes) accepted")
        }
        var raw = [UInt8](repeating: 0, count: Int(header.metadataLength))
        try preadFully(fd: fd, path: path, into: &raw, count: raw.count, at: header.metadataOffset, what: "metadata")
        let bytes = try decompressInternal(raw, header: header, path: path, offset: header.metadataOffset, what: "metadata")
        guard let dict = (try? JSONReader.parse(bytes))?.objectValue else {
            throw InputError(file: path, offset: Int(header.metadataOffset), "metadata is not a JSON object")
        }
        // Archives converted from MBTiles keep MBTiles' `json` value as a string: merge it the
        // way MBTiles 1.3 says, so both containers describe a tileset the same way.
        var merged = dict
        if let json = dict["json"]?.stringValue, let object = (try? JSONReader.parse(json))?.objectValue {
            merged["json"] = nil
            for (k, v) in object where merged[k] == nil { merged[k] = v }
        }
        return merged
    }
}
