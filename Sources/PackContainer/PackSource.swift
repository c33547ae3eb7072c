import OffgridCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a pack's bytes come from: an open file read by positioned reads (`pread`, so several
/// threads may read at once), or bytes already in memory.
enum PackSource {
    case file(fd: Int32)
    case memory([UInt8])

    /// Opens `path` read-only and returns its descriptor and size; a regular file only.
    static func openFile(_ path: String) throws -> (fd: Int32, size: Int) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw InputError(file: path, "cannot open: \(String(cString: strerror(errno)))") }
        var st = stat()
        guard fstat(fd, &st) == 0 else {
            let message = String(cString: strerror(errno))
            close(fd)
            throw InputError(file: path, "cannot stat: \(message)")
        }
        guard (st.st_mode & S_IFMT) == S_IFREG else {
            close(fd)
            throw InputError(file: path, "not a regular file")
        }
        return (fd, Int(st.st_size))
    }

    /// Exactly `count` bytes at `offset`; callers check the extent against the file size first,
    /// so a short read means the file changed underneath us.
    func read(offset: Int, count: Int, file: String, what: String) throws -> ArraySlice<UInt8> {
        switch self {
        case .memory(let bytes):
            guard offset >= 0, count >= 0, offset <= bytes.count, count <= bytes.count - offset else {
                throw InputError(file: file, offset: offset, "truncated \(what): the pack ends early")
            }
            return bytes[offset..<(offset + count)]
        case .file(let fd):
            var done = 0
            // Not zeroed first: every byte is read into, or the read throws.
            let out = try [UInt8](unsafeUninitializedCapacity: count) { buf, initialized in
                while done < count {
                    guard let base = buf.baseAddress else { return }
                    let n = pread(fd, base + done, count - done, off_t(offset + done))
                    if n < 0 && errno == EINTR { continue }
                    if n < 0 {
                        throw InputError(file: file, offset: offset + done, "cannot read \(what): \(String(cString: strerror(errno)))")
                    }
                    if n == 0 { throw InputError(file: file, offset: offset + done, "truncated \(what): file ended early") }
                    done += n
                }
                initialized = count
            }
            return out[...]
        }
    }
}

/// "0x0000abcd", for checksum messages (every pack kind uses it).
public func hex32(_ v: UInt32) -> String {
    let digits = String(v, radix: 16)
    return "0x" + String(repeating: "0", count: 8 - digits.count) + digits
}
