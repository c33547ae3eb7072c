import CShims
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
    ///
    /// zlib inflates the deflate data alone (raw); the 2-byte header is checked here, and the
    /// trailer's Adler-32 against `offgrid_adler32` of the output, which sums 32 bytes at a time
    /// where zlib's own check (Debian's build) sums one: 15 % of the instructions of unpacking a
    /// routing pack. Every stream zlib refuses is still refused.
    public static func decompress(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) throws {
        // RFC 1950: CMF (method 8, window ≤ 32 KiB), FLG (no preset dictionary), a multiple of 31 together.
        guard input.count >= 2 else { throw ZlibError("zlib stream is truncated (0 of \(output.count) bytes)") }
        let cmf = Int(input[0]), flg = Int(input[1])
        guard cmf & 0x0f == 8, cmf >> 4 <= 7, (cmf << 8 | flg) % 31 == 0 else { throw ZlibError("corrupt zlib stream: incorrect header check") }
        guard flg & 0x20 == 0 else { throw ZlibError("corrupt zlib stream: needs a preset dictionary") }
        let body = UnsafeRawBufferPointer(rebasing: input[2...])
        var stream = z_stream()
        var rc = inflateInit2_(&stream, -15, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        guard rc == Z_OK else { throw ZlibError("zlib inflateInit failed (\(rc))") }
        defer { inflateEnd(&stream) }
        stream.next_in = UnsafeMutablePointer(mutating: body.baseAddress?.assumingMemoryBound(to: UInt8.self))
        stream.avail_in = UInt32(body.count)
        stream.next_out = output.baseAddress?.assumingMemoryBound(to: UInt8.self)
        stream.avail_out = UInt32(output.count)
        rc = inflate(&stream, Z_FINISH)
        switch rc {
        case Z_STREAM_END:
            guard stream.total_out == output.count else {
                throw ZlibError("zlib stream holds \(stream.total_out) bytes, expected \(output.count)")
            }
            guard stream.avail_in >= 4 else { throw ZlibError("zlib stream is truncated (its end and checksum are missing)") }
            let stored = UInt32(bigEndian: body.loadUnaligned(fromByteOffset: body.count - Int(stream.avail_in), as: UInt32.self))
            let computed = output.baseAddress.map { offgrid_adler32(1, $0, output.count) } ?? 1
            guard stored == computed else { throw ZlibError("corrupt zlib stream: incorrect data check") }
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
        try decompress(input[...], rawSize: rawSize)
    }

    /// `rawSize` bytes inflated from `input`.
    public static func decompress(_ input: ArraySlice<UInt8>, rawSize: Int) throws -> [UInt8] {
        try input.withUnsafeBytes { src in
            try [UInt8](unsafeUninitializedCapacity: rawSize) { dst, initialized in
                try decompress(src, into: UnsafeMutableRawBufferPointer(dst))
                initialized = rawSize
            }
        }
    }
}
