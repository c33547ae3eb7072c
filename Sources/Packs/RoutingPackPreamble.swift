import OffgridCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The fixed 64 bytes at the start of a routing pack, validated in the order that gives the most
/// useful message: is it a pack at all (magic), can we read it (version), are these 64 bytes
/// intact (CRC32), is the file complete (declared size), and do the section offsets add up.
struct PackPreamble {
    let version: UInt32
    let fileSize: Int
    let headerLength: Int
    let headerCRC32: UInt32
    let tileCount: Int
    let indexCRC32: UInt32
    let indexOffset: Int
    let dataOffset: Int

    static func read(fd: Int32, path: String, fileSize: Int) throws -> PackPreamble {
        func fail(_ offset: Int, _ message: String) -> InputError { InputError(file: path, offset: offset, message) }
        guard fileSize > 0 else { throw fail(0, "empty file, not a routing pack") }
        let size = RoutingPackFormat.preambleSize
        let bytes = try PackFileIO.read(fd: fd, path: path, offset: 0, count: min(fileSize, size), what: "preamble")

        let magic = RoutingPackFormat.magic
        guard bytes.starts(with: magic.prefix(bytes.count)) else {
            throw fail(0, notAPackMessage(bytes))
        }
        guard bytes.count == size else {
            throw fail(fileSize, "truncated: \(fileSize) bytes, shorter than the \(size)-byte routing pack preamble")
        }
        var r = ByteReader(bytes, offset: RoutingPackFormat.versionOffset)
        let version = try r.u32()
        guard version == RoutingPackFormat.version else {
            throw fail(RoutingPackFormat.versionOffset,
                       "unsupported routing pack version \(version) (this tool reads version \(RoutingPackFormat.version))")
        }
        let storedCRC = UInt32(bytes[60]) | UInt32(bytes[61]) << 8 | UInt32(bytes[62]) << 16 | UInt32(bytes[63]) << 24
        let crc = CRC32.checksum(bytes[0..<RoutingPackFormat.preambleCRCOffset])
        guard crc == storedCRC else {
            throw fail(0, "preamble fails its CRC32 check (stored \(hex(storedCRC)), data gives \(hex(crc)))")
        }
        let flags = try r.u32()
        let declaredSize = try r.u64()
        guard declaredSize <= UInt64(Int.max), Int(declaredSize) == fileSize else {
            if declaredSize > UInt64(fileSize) {
                throw fail(fileSize, "truncated: file has \(fileSize) bytes, the pack declares \(declaredSize)")
            }
            throw fail(Int(declaredSize), "\(UInt64(fileSize) - declaredSize) unexpected bytes after the declared end of the pack (\(declaredSize) bytes)")
        }
        guard flags == 0 else { throw fail(RoutingPackFormat.flagsOffset, "unknown flags \(hex(flags))") }

        let headerLength = Int(try r.u32())
        let headerCRC = try r.u32()
        let tileCount = Int(try r.u32())
        let indexCRC = try r.u32()
        let indexOffset = try r.u64()
        let dataOffset = try r.u64()
        let reserved = try r.u32()
        guard reserved == 0 else { throw fail(RoutingPackFormat.reservedOffset, "reserved field is not zero") }
        guard headerLength <= RoutingPackFormat.maxHeaderLength else {
            throw fail(RoutingPackFormat.headerLengthOffset,
                       "header length \(headerLength) exceeds the \(RoutingPackFormat.maxHeaderLength)-byte limit")
        }
        let expectedIndex = RoutingPackFormat.indexOffset(headerLength: headerLength)
        guard indexOffset == UInt64(expectedIndex) else {
            throw fail(RoutingPackFormat.indexOffsetOffset, "index offset \(indexOffset), expected \(expectedIndex)")
        }
        // Int is 64-bit and tileCount < 2^32, so this cannot overflow.
        let expectedData = expectedIndex + tileCount * RoutingPackFormat.indexEntrySize
        guard dataOffset == UInt64(expectedData) else {
            throw fail(RoutingPackFormat.dataOffsetOffset, "data offset \(dataOffset), expected \(expectedData)")
        }
        guard expectedData <= fileSize else {
            throw fail(RoutingPackFormat.tileCountOffset,
                       "\(tileCount) tiles need an index ending at byte \(expectedData), past the end of the file (\(fileSize))")
        }
        return PackPreamble(version: version, fileSize: fileSize, headerLength: headerLength, headerCRC32: headerCRC,
                            tileCount: tileCount, indexCRC32: indexCRC, indexOffset: expectedIndex, dataOffset: expectedData)
    }

    /// Names the file type when it is a common one, since "bad magic" alone does not help.
    private static func notAPackMessage(_ bytes: [UInt8]) -> String {
        let osmHeader = Array("OSMHeader".utf8)
        if bytes.count >= 15 && Array(bytes[6..<15]) == osmHeader {
            return "not a routing pack: this is an OSM PBF file (build a pack with tilepack-build routing)"
        }
        if bytes.starts(with: [0x1f, 0x8b]) { return "not a routing pack: this is a gzip file" }
        if bytes.starts(with: Array("SQLite format 3".utf8).prefix(bytes.count)) && bytes.count >= 15 {
            return "not a routing pack: this is an SQLite file"
        }
        return "not a routing pack (no \"OGRPACK\" magic at byte 0)"
    }
}

/// Exact-length positioned reads.
enum PackFileIO {
    /// Reads `count` bytes at `offset`; callers check the extent against the file size first,
    /// so a short read means the file changed underneath us.
    static func read(fd: Int32, path: String, offset: Int, count: Int, what: String) throws -> [UInt8] {
        var out = [UInt8](repeating: 0, count: count)
        var done = 0
        try out.withUnsafeMutableBytes { buf in
            while done < count {
                guard let base = buf.baseAddress else { return }
                let n = pread(fd, base + done, count - done, off_t(offset + done))
                if n < 0 && errno == EINTR { continue }
                if n < 0 {
                    throw InputError(file: path, offset: offset + done,
                                     "cannot read \(what): \(String(cString: strerror(errno)))")
                }
                if n == 0 {
                    throw InputError(file: path, offset: offset + done, "truncated \(what): file ended early")
                }
                done += n
            }
        }
        return out
    }
}
