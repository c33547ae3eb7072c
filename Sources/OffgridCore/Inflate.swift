import CZlib

/// Decompression of gzip members (PMTiles' internal compression) and of zlib streams of unknown
/// size, into a buffer that grows up to a limit, so a hostile "zip bomb" becomes an error, not an exhausted
/// machine.
extension Zlib {
    public enum Format {
        /// RFC 1952 gzip member (windowBits 16 + 15).
        case gzip
        /// RFC 1950 zlib stream (windowBits 15).
        case zlib
        /// Either, detected from the header (windowBits 32 + 15).
        case auto
    }

    /// Inflates one complete stream. Throws when the stream is corrupt, truncated, followed by
    /// other bytes, or inflates to more than `maxOutput` bytes.
    public static func decompress(_ input: ArraySlice<UInt8>, format: Format, maxOutput: Int) throws -> [UInt8] {
        let windowBits: Int32
        switch format {
        case .gzip: windowBits = 16 + 15
        case .zlib: windowBits = 15
        case .auto: windowBits = 32 + 15
        }
        var stream = z_stream()
        var rc = inflateInit2_(&stream, windowBits, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        guard rc == Z_OK else { throw ZlibError("zlib inflateInit2 failed (\(rc))") }
        defer { inflateEnd(&stream) }
        guard input.count <= Int(UInt32.max) else { throw ZlibError("compressed block too large") }

        var output = [UInt8](repeating: 0, count: min(max(64, input.count * 4), max(64, maxOutput)))
        var produced = 0
        return try input.withUnsafeBufferPointer { src -> [UInt8] in
            stream.next_in = UnsafeMutablePointer(mutating: src.baseAddress)
            stream.avail_in = UInt32(src.count)
            while true {
                if produced == output.count {
                    guard output.count < maxOutput else {
                        throw ZlibError("decompresses to more than \(maxOutput) bytes")
                    }
                    output.append(contentsOf: repeatElement(0, count: min(output.count, maxOutput - output.count)))
                }
                let room = output.count - produced
                rc = output.withUnsafeMutableBufferPointer { dst -> Int32 in
                    stream.next_out = dst.baseAddress! + produced
                    stream.avail_out = UInt32(min(room, Int(UInt32.max)))
                    let before = stream.avail_out
                    let r = inflate(&stream, Z_NO_FLUSH)
                    produced += Int(before - stream.avail_out)
                    return r
                }
                switch rc {
                case Z_STREAM_END:
                    guard stream.avail_in == 0 else {
                        throw ZlibError("\(stream.avail_in) unexpected bytes after the compressed stream")
                    }
                    output.removeSubrange(produced...)
                    return output
                case Z_OK:
                    continue
                case Z_BUF_ERROR:
                    if stream.avail_in == 0 { throw ZlibError("compressed stream is truncated") }
                    continue
                case Z_DATA_ERROR:
                    let msg = stream.msg.map { String(cString: $0) } ?? "invalid data"
                    throw ZlibError("corrupt compressed stream: \(msg)")
                case Z_MEM_ERROR:
                    throw ZlibError("out of memory while decompressing")
                default:
                    throw ZlibError("zlib inflate failed (\(rc))")
                }
            }
        }
    }

    /// A gzip member of `input` (deterministic: zlib's default header, no name, mtime 0), for
    /// tests and fixtures that need gzip bytes.
    public static func gzip(_ input: [UInt8], level: Int32 = 6) -> [UInt8] {
        var stream = z_stream()
        var rc = deflateInit2_(&stream, level, Z_DEFLATED, 16 + 15, 8, Z_DEFAULT_STRATEGY,
                               ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        precondition(rc == Z_OK, "deflateInit2 failed (\(rc))")
        defer { deflateEnd(&stream) }
        let bound = Int(deflateBound(&stream, UInt(input.count))) + 32
        var out = [UInt8](repeating: 0, count: bound)
        var input = input
        let count = input.count
        input.withUnsafeMutableBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                stream.next_in = src.baseAddress
                stream.avail_in = UInt32(count)
                stream.next_out = dst.baseAddress
                stream.avail_out = UInt32(dst.count)
                rc = deflate(&stream, Z_FINISH)
            }
        }
        precondition(rc == Z_STREAM_END, "deflate failed (\(rc))")
        out.removeSubrange(Int(stream.total_out)...)
        return out
    }
}
