import ContractionHierarchy
import Foundation
import OffgridCore
import RoutingProfile
#if canImport(Glibc)
import Glibc
#endif

/// A graph file mapped into memory: sections are used in place as typed buffers, so opening
/// costs a header check and content checks (`GraphFileValidation`), not a parse: a linear pass
/// over the roads' sections, the hierarchy's shape only (its arcs are checked block by block as
/// searches reach them, `CHGraphView.blockChecks`). Section CRCs and the whole hierarchy are checked by
/// `verify()` (a full read).
public final class GraphFile {
    public let path: String
    public let dataVersion: String
    public let profileName: String
    public let profileHash: String
    /// Who the graph is for (`TravelMode`).
    public let travelMode: TravelMode
    public let fileSize: Int
    /// Owns the mapping, so every exit from `init` (and the file's end) unmaps it exactly once.
    private let mapping: FileMapping
    private var base: UnsafeRawPointer { mapping.base }
    /// The bytes of the file the kernel maps with 2 MiB pages, nil where that is not known.
    public var hugePageBytes: Int? { mapping.hugePageBytes }
    private var sections: [UInt32: (offset: Int, length: Int, crc: UInt32)] = [:]
    private var scalars: [UInt64] = []
    /// The rank of each edge direction (`2 × edge + direction`), `UInt32.max` for one without:
    /// the inverse of section rankEdgeDirection, built while `checkRanks` proves it one-to-one
    /// (storing it cost 1.9 bytes per OSM node; building it costs what checking it did).
    var edgeDirectionRanks = OwnedWords(count: 0)
    /// The hierarchy's content checks, made block by block as searches reach them
    /// (`CHGraphView.blockChecks`): opening reads none of its arcs.
    public private(set) var hierarchyChecks = BlockChecks(count: 0, shift: 0) { _ in nil }
    /// The snapping grid's, block of cells by block as snapping reaches them (`GridCells.blockChecks`).
    public private(set) var gridChecks = BlockChecks(count: 0, shift: 0) { _ in nil }
    /// The nodes' road ends', block of nodes by block as readers reach them (`makeNodeEndChecks`).
    public private(set) var nodeEndChecks = BlockChecks(count: 0, shift: 0) { _ in nil }
    static let nodeEndBlockShift = 12
    public var edgeDirectionRank: UnsafeBufferPointer<UInt32> { UnsafeBufferPointer(edgeDirectionRanks.words) }

    /// How a process will use the file, which decides the pages it is mapped with.
    public enum Use: Sendable {
        /// A server, a batch or a benchmark, which will touch most of the file: 2 MiB pages
        /// where the kernel gives them (`MADV_HUGEPAGE`), so searches that jump all over it
        /// fault and miss the TLB far less.
        case resident
        /// A process answering one query: the kernel's default pages, so that its memory is the
        /// pages the query touches (a 2 MiB page per touch made a one-off route on the ~5 M
        /// graph 53 MiB bigger).
        case oneOff
    }

    public init(path: String, use: Use = .resident) throws {
        self.path = path
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw InputError(file: path, "cannot open: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { throw InputError(file: path, "not a regular file") }
        fileSize = Int(st.st_size)
        guard fileSize >= 64 else { throw InputError(file: path, "not a graph file (\(fileSize) bytes)") }
        guard let map = mmap(nil, fileSize, PROT_READ, MAP_PRIVATE, fd, 0), map != MAP_FAILED else {
            throw InputError(file: path, "cannot map: \(String(cString: strerror(errno)))")
        }
        // Huge pages where the kernel can give them (transparent huge pages in `madvise` mode,
        // a filesystem with large folios) for a resident use: the file is read once into 2 MiB
        // folios, each mapped by one entry. Best effort: nothing changes where it is refused.
        if use == .resident { _ = madvise(map, fileSize, MADV_HUGEPAGE) }
        mapping = FileMapping(base: UnsafeRawPointer(map), size: fileSize)
        let base = mapping.base
        do {
            let head = Array(UnsafeRawBufferPointer(start: base, count: min(fileSize, 1 << 16)))
            var r = ByteReader(head)
            guard Array(try r.bytes(8)) == GraphFileFormat.magic else { throw InputError(file: path, offset: 0, "not a graph file (bad magic)") }
            let version = try r.u32()
            guard version == GraphFileFormat.version else {
                throw InputError(file: path, offset: 8, "unsupported graph file version \(version), not \(GraphFileFormat.version) (build it again with route-graph)")
            }
            let headerLength = Int(try r.u32())
            let headerCRC = try r.u32()
            guard headerLength <= head.count, headerLength >= 32 else { throw InputError(file: path, offset: 12, "bad header length \(headerLength)") }
            guard CRC32.checksum(head[20..<headerLength]) == headerCRC else { throw InputError(file: path, offset: 16, "header checksum mismatch") }
            let count = Int(try r.u32())
            let declaredSize = try Self.size(r.u64(), at: 24, path: path, what: "file size")
            guard declaredSize == fileSize else {
                throw InputError(file: path, offset: 24, "file is \(fileSize) bytes, header says \(declaredSize) (truncated?)")
            }
            scalars = try GraphFileFormat.Scalar.allCases.map { _ in try r.u64() }
            dataVersion = try r.string()
            profileName = try r.string()
            profileHash = try r.string()
            let mode = try r.string()
            guard let travelMode = TravelMode(rawValue: mode) else { throw InputError(file: path, offset: r.offset, "unknown travel mode \"\(mode)\"") }
            self.travelMode = travelMode
            // The middles' element size depends on the rank count (`elementSize(_:)`, which needs
            // the finished instance): read once from the scalars just decoded.
            let rankCount = Self.scalar(.edgeBasedNodeCount, in: scalars)
            for _ in 0..<count {
                let id = try r.u32(), elementSize = Int(try r.u32())
                let offsetAt = r.offset
                let offset = try Self.size(r.u64(), at: offsetAt, path: path, what: "section \(id) offset")
                let length = try Self.size(r.u64(), at: offsetAt + 8, path: path, what: "section \(id) length")
                let crc = try r.u32()
                _ = try r.u32()
                guard offset % GraphFileFormat.alignment == 0, offset >= headerLength, length >= 0, offset <= fileSize - length else {
                    throw InputError(file: path, offset: r.offset, "section \(id) lies outside the file")
                }
                if let known = GraphFileFormat.Section(rawValue: id) {
                    guard known.elementSize(rankCount: rankCount) == elementSize, length % elementSize == 0 else {
                        throw InputError(file: path, offset: r.offset, "section \(known) has element size \(elementSize)")
                    }
                }
                sections[id] = (offset, length, crc)
            }
            for s in GraphFileFormat.Section.allCases where sections[s.rawValue] == nil {
                throw InputError(file: path, "graph file lacks section \(s) (written by an older route-graph? build it again)")
            }
        } catch let e as BinaryFormatError {
            throw InputError(file: path, offset: e.offset, "not a graph file (\(e.message))")
        }
        try validateContent()
        hierarchyChecks = uncheckedHierarchy.blockChecks(maxWeight: Self.maxWeight)
        gridChecks = GridCells.blockChecks(cells: scalar(.gridRows) * scalar(.gridColumns), index: array(.gridCellIndex),
                                           first: array(.gridCellFirst), cellEdges: array(.gridCellEdges),
                                           boxes: array(.gridCellEdgeBox), edgeCount: scalar(.edgeCount))
        nodeEndChecks = makeNodeEndChecks()
    }

    /// A u64 size or offset from the header as an `Int`: one past `Int.max` cannot describe
    /// any file, and converting it unchecked would trap (found by the graph fuzz target).
    private static func size(_ raw: UInt64, at offset: Int, path: String, what: String) throws -> Int {
        guard let value = Int(exactly: raw) else { throw InputError(file: path, offset: offset, "\(what) \(raw) is past any file size") }
        return value
    }

    public func scalar(_ s: GraphFileFormat.Scalar) -> Int { Self.scalar(s, in: scalars) }

    private static func scalar(_ s: GraphFileFormat.Scalar, in scalars: [UInt64]) -> Int { Int(Int64(bitPattern: scalars[s.rawValue])) }

    /// Bytes per element of section `s` in this file (its section table says the same: `init` checks).
    func elementSize(_ s: GraphFileFormat.Section) -> Int { s.elementSize(rankCount: scalar(.edgeBasedNodeCount)) }

    /// A section as a typed buffer over the mapped file.
    public func array<T: FixedWidthInteger>(_ s: GraphFileFormat.Section, as: T.Type = T.self) -> UnsafeBufferPointer<T> {
        let (offset, length, _) = sections[s.rawValue]!
        return UnsafeBufferPointer(start: (base + offset).assumingMemoryBound(to: T.self), count: length / MemoryLayout<T>.size)
    }

    /// A section of words read as records of several words each (`CHArc`, `EdgeRecord`): the
    /// file holds them as written from memory, little-endian, without padding.
    func records<Record>(_ s: GraphFileFormat.Section, as: Record.Type = Record.self) -> UnsafeBufferPointer<Record> {
        let words: UnsafeBufferPointer<UInt32> = array(s)
        let count = words.count * MemoryLayout<UInt32>.size / MemoryLayout<Record>.stride
        return UnsafeBufferPointer(start: UnsafeRawPointer(words.baseAddress!).bindMemory(to: Record.self, capacity: count), count: count)
    }

    /// The hierarchy's search arrays in place (`chArcs` read as `CHArc` records), each block of
    /// ranks checked when a search first reaches it (`hierarchyChecks`).
    public var hierarchy: CHGraphView { uncheckedHierarchy.checked(by: hierarchyChecks) }

    /// The same arrays with no checks: for the checks themselves.
    var uncheckedHierarchy: CHGraphView {
        let arcs: UnsafeBufferPointer<CHArc> = records(.chArcs)
        let nodeCount = scalar(.edgeBasedNodeCount)
        return CHGraphView(nodeCount: nodeCount, firstOut: array(.chFirstOut), arcs: arcs,
                           middle: CHShortcutMiddles(arcCount: arcs.count, index: array(.chShortcutIndex),
                                                     middles: UnsafeRawBufferPointer(array(.chShortcutMiddle, as: UInt8.self)),
                                                     middleBytes: elementSize(.chShortcutMiddle)),
                           core: CHCoreTable(nodeCount: nodeCount, entries: UnsafeRawBufferPointer(array(.chCoreDistances, as: UInt8.self))))
    }

    /// The edges' records in place, `edgeCount + 1` with the sentinel (`edgeRecords` read as `EdgeRecord`).
    public var edges: UnsafeBufferPointer<EdgeRecord> { records(.edgeRecords) }

    /// Each rank's component in place (`rankComponentIndex` and `rankMinorComponent`).
    public var rankComponents: RankComponents {
        RankComponents(rankCount: scalar(.edgeBasedNodeCount), index: array(.rankComponentIndex), minor: array(.rankMinorComponent))
    }

    /// The full check, for a file from elsewhere: every section's CRC32 (reads the whole file)
    /// and the whole hierarchy at once, with what searches do not need checked (every shortcut's
    /// halves, the index of middles as a whole, the core table's distances), so every damage the
    /// checks by block would find (and more) is found here, before any query.
    public func verify() throws {
        do {
            try checkGridWhole()
            try checkNodeEndsWhole()
        } catch let d as Damage {
            throw InputError(file: path, "damaged graph file: \(d.message)")
        }
        for s in GraphFileFormat.Section.allCases {
            let (offset, length, crc) = sections[s.rawValue]!
            guard CRC32.checksum(UnsafeRawBufferPointer(start: base + offset, count: length)) == crc else {
                throw InputError(file: path, offset: offset, "section \(s) fails its CRC32 check")
            }
        }
        let view = uncheckedHierarchy
        if let problem = view.validate(shortcutHalves: true, maxWeight: Self.maxWeight) {
            throw InputError(file: path, "damaged graph file: hierarchy: \(problem)")
        }
        if let problem = view.core?.problem(in: view, complete: true) {
            throw InputError(file: path, "damaged graph file: section chCoreDistances: \(problem)")
        }
    }

    /// Names and refs in place: a value to keep, since `array` is a dictionary lookup.
    public var strings: GraphStrings { GraphStrings(offsets: array(.stringOffsets), bytes: array(.stringBytes)) }
}

/// The file's names and refs: string `i` is `bytes[offsets[i] ..< offsets[i + 1]]` (UTF-8),
/// bounds checked at open.
public struct GraphStrings: @unchecked Sendable {
    let offsets: UnsafeBufferPointer<UInt32>
    let bytes: UnsafeBufferPointer<UInt8>

    /// "" for an id past the end.
    public subscript(i: Int) -> String {
        guard i + 1 < offsets.count else { return "" }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[Int(offsets[i])..<Int(offsets[i + 1])]), as: UTF8.self)
    }
}

/// Words computed at open rather than stored in the file, freed with it.
final class OwnedWords: @unchecked Sendable {
    let words: UnsafeMutableBufferPointer<UInt32>

    init(count: Int, repeating value: UInt32 = UInt32.max) {
        let block = UnsafeMutableBufferPointer<UInt32>.allocate(capacity: max(1, count))
        block.initialize(repeating: value)
        words = UnsafeMutableBufferPointer(rebasing: block[0..<count])
    }

    deinit { words.baseAddress?.deallocate() }
}

/// A read-only `mmap` of a whole file, unmapped when released.
final class FileMapping {
    let base: UnsafeRawPointer
    let size: Int

    init(base: UnsafeRawPointer, size: Int) {
        self.base = base
        self.size = size
    }

    deinit { munmap(UnsafeMutableRawPointer(mutating: base), size) }

    /// The bytes of the mapping the kernel maps with 2 MiB pages (`FilePmdMapped` in
    /// /proc/self/smaps), nil where that is not known. Benchmarks report it: on the same file,
    /// searches and the opening checks run 10-25 % faster when most of it is.
    var hugePageBytes: Int? {
        // Read to the end: a /proc file's size is 0, which a whole-file read would trust.
        guard let handle = FileHandle(forReadingAtPath: "/proc/self/smaps"),
              let data = try? handle.readToEnd(), let text = String(data: data, encoding: .utf8) else { return nil }
        defer { try? handle.close() }
        var inside = false
        for line in text.split(separator: "\n") {
            // A mapping's block starts with its address range: "7f3a00000000-7f3a12345000 r--p ...".
            if let dash = line.firstIndex(of: "-"), let start = UInt(line[..<dash], radix: 16) {
                inside = start == UInt(bitPattern: base)
            } else if inside, line.hasPrefix("FilePmdMapped:") {
                return line.split(separator: " ").dropFirst().first.flatMap { Int($0) }.map { $0 * 1024 }
            }
        }
        return nil
    }
}
