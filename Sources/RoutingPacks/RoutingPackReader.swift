import OffgridCore
import PackContainer

/// Opens a routing pack through the pack container (`PackReader`: preamble, header, index, every
/// structural check) and decodes and checks the routing header. `tileBytes(at:)` then reads one
/// tile by positioned read, inflates it and checks its length and CRC32.
///
/// Every problem is an `InputError` naming the file and the byte offset where it was found.
/// Nothing changes after `init`, so `tileBytes` may be called from several threads.
public final class RoutingPackReader: @unchecked Sendable {
    public let path: String
    public let fileSize: Int
    public let header: RoutingPackHeader
    /// Ascending tile id.
    public let entries: [RoutingPackIndexEntry]
    public let indexOffset: Int
    public let dataOffset: Int
    private let pack: PackReader

    public var tileCount: Int { entries.count }
    /// Sum of the compressed tile sizes: the unit of unpacking progress.
    public var totalCompressedBytes: Int64 { entries.reduce(0) { $0 + Int64($1.compressedSize) } }

    public convenience init(path: String) throws {
        try self.init(pack: PackReader(path: path, kind: RoutingPackFormat.kind))
    }

    /// A pack already in memory; `name` is used in errors.
    public convenience init(bytes: [UInt8], name: String) throws {
        try self.init(pack: PackReader(bytes: bytes, name: name, kind: RoutingPackFormat.kind))
    }

    private init(pack: PackReader) throws {
        self.pack = pack
        path = pack.path
        fileSize = pack.fileSize
        indexOffset = pack.indexOffset
        dataOffset = pack.dataOffset
        let decoded: RoutingPackHeader
        do {
            decoded = try RoutingPackHeader.decode(pack.headerBytes, formatVersion: RoutingPackFormat.version)
        } catch let error as BinaryFormatError {
            throw InputError(file: pack.path, offset: PackLayout.preambleSize + error.offset, "malformed header: \(error.message)")
        }
        if let problem = decoded.validationProblem() { throw pack.headerError(offset: 0, problem) }
        header = decoded
        let index = pack.index
        entries = (0..<index.count).map { i in
            RoutingPackIndexEntry(tileID: RoutingPackFormat.tileID(index.key(i)), offset: UInt64(index.offset(i)),
                                  compressedSize: UInt32(index.length(i)), rawSize: UInt32(index.rawLength(i)),
                                  rawCRC32: index.crc32(i))
        }
    }

    /// Position of tile `id` in `entries`, by binary search.
    public func index(ofTile id: UInt32) -> Int? {
        pack.find(RoutingPackFormat.key(id))
    }

    /// The decompressed bytes of tile `i` (position in `entries`), after checking the zlib
    /// stream, the raw size and the CRC32 of the raw bytes.
    public func tileBytes(at i: Int) throws -> [UInt8] {
        try pack.entryBytes(at: i)
    }

    /// The decompressed bytes of tile `id`, or nil if the pack does not hold it.
    public func tileBytes(id: UInt32) throws -> [UInt8]? {
        try pack.entryBytes(key: RoutingPackFormat.key(id))
    }
}
