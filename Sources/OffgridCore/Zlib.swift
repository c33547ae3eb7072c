import CZlib

public struct ZlibError: Error, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// zlib-format (RFC 1950) compression, the format of PBF blobs and of pack tiles.
public enum Zlib {
    /// Compresses `input`; the output depends only on the input and level, so packs are reproducible.
    public static func compress(_ input: UnsafeRawBufferPointer, level: Int32 = 6) -> [UInt8] {
        let bound = Int(compressBound(UInt(input.count)))
        var out = [UInt8](repeating: 0, count: bound)
        var outLen = UInt(bound)
        let rc = out.withUnsafeMutableBufferPointer { dst -> Int32 in
            compress2(dst.baseAddress, &outLen,
                      input.baseAddress?.assumingMemoryBound(to: UInt8.self) ?? UnsafePointer(dst.baseAddress!),
                      UInt(input.count), level)
        }
        precondition(rc == Z_OK, "zlib compress2 failed with \(rc)")
        out.removeSubrange(Int(outLen)...)
        return out
    }

    public static func compress(_ input: [UInt8], level: Int32 = 6) -> [UInt8] {
        input.withUnsafeBytes { compress($0, level: level) }
    }

    /// Inflates `input` into exactly `rawSize` bytes written to `output`.
    /// Throws when the stream is corrupt, ends early or holds more than `rawSize` bytes.
    public static func decompress(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) throws {
        var stream = z_stream()
        var rc = inflateInit_(&stream, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        guard rc == Z_OK else { throw ZlibError("zlib inflateInit failed (\(rc))") }
        defer { inflateEnd(&stream) }
        stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress?.assumingMemoryBound(to: UInt8.self))
        stream.avail_in = UInt32(input.count)
        stream.next_out = output.baseAddress?.assumingMemoryBound(to: UInt8.self)
        stream.avail_out = UInt32(output.count)
        rc = inflate(&stream, Z_FINISH)
        switch rc {
        case Z_STREAM_END:
            guard stream.total_out == output.count else {
                throw ZlibError("zlib stream holds \(stream.total_out) bytes, expected \(output.count)")
            }
        case Z_BUF_ERROR where stream.avail_out == 0 && stream.avail_in > 0:
            throw ZlibError("zlib stream holds more than the expected \(output.count) bytes")
        case Z_BUF_ERROR where stream.avail_out == 0:
            throw ZlibError("zlib stream is truncated (its end and checksum are missing)")
        case Z_BUF_ERROR:
            throw ZlibError("zlib stream is truncated (\(stream.total_out) of \(output.count) bytes)")
        case Z_DATA_ERROR:
            let msg = stream.msg.map { String(cString: $0) } ?? "invalid data"
            throw ZlibError("corrupt zlib stream: \(msg)")
        default:
            throw ZlibError("zlib inflate failed (\(rc))")
        }
    }

    public static func decompress(_ input: [UInt8], rawSize: Int) throws -> [UInt8] {
        var out = [UInt8](repeating: 0, count: rawSize)
        try input.withUnsafeBytes { src in
            try out.withUnsafeMutableBytes { dst in try decompress(src, into: dst) }
        }
        return out
    }
}
