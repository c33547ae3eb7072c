import OffgridCore
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Opens a routing pack and validates everything but the tile bytes: magic, version, preamble,
/// declared file size (truncation), header and index CRC32s, and that the index describes
/// ascending tile ids whose data is contiguous, in range and of plausible size.
/// `tileBytes(at:)` then decompresses one tile and checks both of its CRC32s and its size.
///
/// Every problem is an `InputError` naming the file and the byte offset where it was found.
/// Nothing is allocated from an unchecked size: headers, indexes and tiles are only read once
/// their extent is known to lie inside the file. Reads use `pread` and nothing changes after
/// `init`, so `tileBytes` may be called from several threads (hence `@unchecked Sendable`).
public final class RoutingPackReader: @unchecked Sendable {
    public let path: String
    public let fileSize: Int
    public let header: RoutingPackHeader
    /// Ascending tile id.
    public let entries: [RoutingPackIndexEntry]
    public let indexOffset: Int
    public let dataOffset: Int

    private let fd: Int32

    public var tileCount: Int { entries.count }
    /// Sum of the compressed tile sizes: the unit of unpacking progress.
    public var totalCompressedBytes: Int64 { Int64(fileSize - dataOffset) }

    public init(path: String) throws {
        self.path = path
        fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw InputError(file: path, "cannot open: \(String(cString: strerror(errno)))")
        }
        // From here on, a throw skips deinit; close explicitly.
        do {
            var st = stat()
            guard fstat(fd, &st) == 0 else {
                throw InputError(file: path, "cannot stat: \(String(cString: strerror(errno)))")
            }
            guard (st.st_mode & S_IFMT) == S_IFREG else {
                throw InputError(file: path, "not a regular file")
            }
            let size = Int(st.st_size)
            fileSize = size
            let preamble = try PackPreamble.read(fd: fd, path: path, fileSize: size)
            indexOffset = preamble.indexOffset
            dataOffset = preamble.dataOffset
            header = try Self.readHeader(fd: fd, path: path, preamble: preamble)
            entries = try Self.readIndex(fd: fd, path: path, preamble: preamble)
        } catch {
            close(fd)
            throw error
        }
    }

    deinit { close(fd) }

    /// Position of tile `id` in `entries`, by binary search.
    public func index(ofTile id: UInt32) -> Int? {
        var lo = 0, hi = entries.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if entries[mid].tileID < id { lo = mid + 1 } else { hi = mid }
        }
        return lo < entries.count && entries[lo].tileID == id ? lo : nil
    }

    /// The decompressed bytes of tile `i` (position in `entries`), after checking the CRC32 of
    /// the compressed bytes, the zlib stream, the raw size and the CRC32 of the raw bytes.
    public func tileBytes(at i: Int) throws -> [UInt8] {
        precondition(i >= 0 && i < entries.count, "tile index \(i) out of range 0..<\(entries.count)")
        let e = entries[i]
        let at = Int(e.offset)
        func fail(_ message: String) -> InputError { InputError(file: path, offset: at, "tile \(e.tileID): \(message)") }
        let packed = try PackFileIO.read(fd: fd, path: path, offset: at, count: Int(e.compressedSize), what: "tile \(e.tileID)")
        let packedCRC = CRC32.checksum(packed)
        guard packedCRC == e.compressedCRC32 else {
            throw fail("compressed bytes fail their CRC32 check (index says \(hex(e.compressedCRC32)), data gives \(hex(packedCRC)))")
        }
        let raw: [UInt8]
        do {
            raw = try Zlib.decompress(packed, rawSize: Int(e.rawSize))
        } catch {
            throw fail("\(error) (index says \(e.rawSize) bytes)")
        }
        let rawCRC = CRC32.checksum(raw)
        guard rawCRC == e.rawCRC32 else {
            throw fail("decompressed bytes fail their CRC32 check (index says \(hex(e.rawCRC32)), data gives \(hex(rawCRC)))")
        }
        return raw
    }

    /// The decompressed bytes of tile `id`, or nil if the pack does not hold it.
    public func tileBytes(id: UInt32) throws -> [UInt8]? {
        guard let i = index(ofTile: id) else { return nil }
        return try tileBytes(at: i)
    }

    // MARK: - Validation

    private static func readHeader(fd: Int32, path: String, preamble: PackPreamble) throws -> RoutingPackHeader {
        let start = RoutingPackFormat.preambleSize
        let bytes = try PackFileIO.read(fd: fd, path: path, offset: start,
                                        count: preamble.indexOffset - start, what: "header")
        let headerBytes = Array(bytes[0..<preamble.headerLength])
        let crc = CRC32.checksum(headerBytes)
        guard crc == preamble.headerCRC32 else {
            throw InputError(file: path, offset: start,
                             "header fails its CRC32 check (preamble says \(hex(preamble.headerCRC32)), data gives \(hex(crc)))")
        }
        if let nonZero = bytes[preamble.headerLength...].firstIndex(where: { $0 != 0 }) {
            throw InputError(file: path, offset: start + nonZero, "padding after the header is not zero")
        }
        let header: RoutingPackHeader
        do {
            header = try RoutingPackHeader.decode(headerBytes, formatVersion: preamble.version)
        } catch let error as BinaryFormatError {
            throw InputError(file: path, offset: start + error.offset, "malformed header: \(error.message)")
        }
        if let problem = header.validationProblem() {
            throw InputError(file: path, offset: start, "invalid header: \(problem)")
        }
        return header
    }

    private static func readIndex(fd: Int32, path: String, preamble: PackPreamble) throws -> [RoutingPackIndexEntry] {
        let count = preamble.tileCount
        let bytes = try PackFileIO.read(fd: fd, path: path, offset: preamble.indexOffset,
                                        count: count * RoutingPackFormat.indexEntrySize, what: "index")
        let crc = CRC32.checksum(bytes)
        guard crc == preamble.indexCRC32 else {
            throw InputError(file: path, offset: preamble.indexOffset,
                             "index fails its CRC32 check (preamble says \(hex(preamble.indexCRC32)), data gives \(hex(crc)))")
        }
        var reader = ByteReader(bytes)
        var entries: [RoutingPackIndexEntry] = []
        entries.reserveCapacity(count)
        var expectedOffset = UInt64(preamble.dataOffset)
        for i in 0..<count {
            let at = preamble.indexOffset + i * RoutingPackFormat.indexEntrySize
            func fail(_ message: String) -> InputError { InputError(file: path, offset: at, "index entry \(i): \(message)") }
            let e = try RoutingPackIndexEntry.decode(&reader)
            if let previous = entries.last, e.tileID <= previous.tileID {
                throw fail("tile id \(e.tileID) does not follow \(previous.tileID) in ascending order")
            }
            guard e.offset == expectedOffset else {
                throw fail("tile \(e.tileID) data at byte \(e.offset), expected \(expectedOffset) (tiles must be contiguous)")
            }
            guard e.compressedSize >= RoutingPackFormat.minCompressedTileSize else {
                throw fail("tile \(e.tileID) compressed size \(e.compressedSize) is too small for a zlib stream")
            }
            guard e.rawSize <= RoutingPackFormat.maxRawTileSize else {
                throw fail("tile \(e.tileID) raw size \(e.rawSize) exceeds the \(RoutingPackFormat.maxRawTileSize)-byte limit")
            }
            guard UInt64(e.rawSize) <= UInt64(e.compressedSize) * UInt64(RoutingPackFormat.maxCompressionRatio) else {
                throw fail("tile \(e.tileID) raw size \(e.rawSize) is impossible for \(e.compressedSize) compressed bytes")
            }
            expectedOffset += UInt64(e.compressedSize)
            guard expectedOffset <= UInt64(preamble.fileSize) else {
                throw fail("tile \(e.tileID) data ends at byte \(expectedOffset), past the end of the file (\(preamble.fileSize))")
            }
            entries.append(e)
        }
        guard expectedOffset == UInt64(preamble.fileSize) else {
            throw InputError(file: path, offset: Int(expectedOffset),
                             "tile data ends at byte \(expectedOffset) but the file has \(preamble.fileSize) bytes")
        }
        return entries
    }
}

func hex(_ v: UInt32) -> String {
    let digits = String(v, radix: 16)
    return "0x" + String(repeating: "0", count: 8 - digits.count) + digits
}
