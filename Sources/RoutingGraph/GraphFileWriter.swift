import ContractionHierarchy
import OffgridCore

/// Writes a graph file: header, section table, aligned sections (atomically, via a temp name).
public struct GraphFileWriter {
    public var dataVersion: String
    public var profileName: String
    public var profileHash: String
    /// `TravelMode` raw value of the profile: the steps' `mode` (driving, cycling, walking).
    public var travelMode: String
    public var scalars = [UInt64](repeating: 0, count: GraphFileFormat.Scalar.allCases.count)
    private var sections: [(section: GraphFileFormat.Section, elementSize: Int, bytes: [UInt8])] = []

    public init(dataVersion: String, profileName: String, profileHash: String, travelMode: String = "car") {
        self.dataVersion = dataVersion
        self.profileName = profileName
        self.profileHash = profileHash
        self.travelMode = travelMode
    }

    public mutating func set(_ s: GraphFileFormat.Scalar, _ value: Int) { scalars[s.rawValue] = UInt64(bitPattern: Int64(value)) }

    /// Adds an array section; elements are written in the machine's (little-endian) order.
    public mutating func add<T: FixedWidthInteger>(_ section: GraphFileFormat.Section, _ values: [T]) {
        precondition(MemoryLayout<T>.size == section.fixedElementSize, "\(section) holds \(section.fixedElementSize)-byte elements")
        appendFixed(section, values.withUnsafeBytes { Array($0) })
    }

    /// A section of packed entries (`chCoreDistances`), already in file order.
    public mutating func add(_ section: GraphFileFormat.Section, bytes: [UInt8]) {
        precondition(bytes.count % section.fixedElementSize == 0, "\(section) holds \(section.fixedElementSize)-byte elements")
        appendFixed(section, bytes)
    }

    /// Records of plain words without padding (`CHArc`, `EdgeRecord`) as a section of their
    /// words, as `GraphFile.records` reads them back.
    public mutating func add<Record>(_ section: GraphFileFormat.Section, records: [Record]) {
        precondition(MemoryLayout<Record>.size == MemoryLayout<Record>.stride && MemoryLayout<Record>.stride % section.fixedElementSize == 0,
                     "\(section) holds records of \(section.fixedElementSize)-byte words")
        appendFixed(section, records.withUnsafeBytes { Array($0) })
    }

    /// The shortcut middles of a hierarchy of `rankCount` ranks, packed as `CHShortcutMiddles`
    /// reads them (three bytes each up to 2^24 ranks).
    public mutating func addShortcutMiddles(_ middles: [UInt32], rankCount: Int) {
        let (bytes, width) = CHShortcutMiddles.pack(middles, rankCount: rankCount)
        sections.append((.chShortcutMiddle, width, bytes))
    }

    /// A section of one of the fixed element sizes (every one but chShortcutMiddle's).
    private mutating func appendFixed(_ section: GraphFileFormat.Section, _ bytes: [UInt8]) {
        precondition(section != .chShortcutMiddle, "chShortcutMiddle's element size depends on the rank count: addShortcutMiddles")
        sections.append((section, section.fixedElementSize, bytes))
    }

    public func encodeHeader() -> (header: [UInt8], offsets: [Int], total: Int) {
        var w = ByteWriter()
        w.append(contentsOf: GraphFileFormat.magic)
        w.u32(GraphFileFormat.version)
        w.u32(0)  // header length, patched
        w.u32(0)  // header CRC, patched
        w.u32(UInt32(sections.count))
        w.u64(0)  // file size, patched
        for s in scalars { w.u64(s) }
        w.string(dataVersion)
        w.string(profileName)
        w.string(profileHash)
        w.string(travelMode)
        let tableStart = w.count
        for _ in sections { for _ in 0..<GraphFileFormat.sectionEntrySize { w.u8(0) } }
        w.pad(to: GraphFileFormat.alignment)
        var offsets: [Int] = []
        var offset = w.count
        for (_, _, bytes) in sections {
            offsets.append(offset)
            offset += bytes.count
            offset = (offset + GraphFileFormat.alignment - 1) / GraphFileFormat.alignment * GraphFileFormat.alignment
        }
        var header = w
        for (i, (section, elementSize, bytes)) in sections.enumerated() {
            let at = tableStart + i * GraphFileFormat.sectionEntrySize
            header.patchU32(at: at, section.rawValue)
            header.patchU32(at: at + 4, UInt32(elementSize))
            header.patchU64(at: at + 8, UInt64(offsets[i]))
            header.patchU64(at: at + 16, UInt64(bytes.count))
            header.patchU32(at: at + 24, CRC32.checksum(bytes))
        }
        header.patchU32(at: 12, UInt32(header.count))
        header.patchU64(at: 24, UInt64(offset))
        header.patchU32(at: 16, CRC32.checksum(header.bytes[20...]))
        return (header.bytes, offsets, offset)
    }

    /// Writes the file; returns its size.
    @discardableResult
    public func write(to path: String) throws -> Int {
        let (header, offsets, total) = encodeHeader()
        let file = try AtomicFile.create(path)
        var out = HugePageChunks(file)
        try out.append(header)
        var position = header.count
        for (i, (_, _, bytes)) in sections.enumerated() {
            if offsets[i] > position { try out.append([UInt8](repeating: 0, count: offsets[i] - position)) }
            try out.append(bytes)
            position = offsets[i] + bytes.count
        }
        if total > position { try out.append([UInt8](repeating: 0, count: total - position)) }
        try out.flush()
        try file.commit()
        return total
    }
}

/// Bytes written on in whole 2 MiB pieces at multiples of 2 MiB (the last one shorter).
///
/// The file system keeps what was written in the page cache in folios as large as the writes
/// allow; written section by section, at offsets anywhere, a ~1 M graph file was in 2 MiB folios
/// for 38 of its 58 MB, in aligned 2 MiB writes for all of it. A reader that maps it with huge
/// pages (`GraphFile`) then maps each folio with one entry from its first query on, without
/// waiting for the file to leave the cache and be read again.
struct HugePageChunks {
    static let size = 1 << 21
    private let file: AtomicFileWriter
    private var buffer: [UInt8] = []

    init(_ file: AtomicFileWriter) {
        self.file = file
        buffer.reserveCapacity(Self.size)
    }

    mutating func append(_ bytes: [UInt8]) throws {
        var rest = bytes[...]
        while !rest.isEmpty {
            let take = min(rest.count, Self.size - buffer.count)
            buffer.append(contentsOf: rest.prefix(take))
            rest = rest.dropFirst(take)
            if buffer.count == Self.size { try flush() }
        }
    }

    mutating func flush() throws {
        if buffer.isEmpty { return }
        try file.write(buffer)
        buffer.removeAll(keepingCapacity: true)
    }
}
