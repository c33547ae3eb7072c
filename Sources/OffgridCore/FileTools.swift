import CShims
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Plain POSIX file operations, with failures turned into `InputError`s
/// that name the path and the system's reason.
public enum FileTools {
    public static func reason() -> String { String(cString: strerror(errno)) }

    public enum Kind { case missing, file, directory, other }

    /// `open(path, O_RDONLY | O_CLOEXEC)`, without access-time updates where the process may
    /// ask for that (O_NOATIME: it owns the file, or is root), for readers that make many
    /// small reads: the kernel skips its access-time check on each one. -1 with errno on failure.
    public static func openForReading(_ path: String) -> Int32 {
        offgrid_open_read_noatime(path)
    }

    /// What is at `path`, without following a final symlink.
    public static func kind(_ path: String) -> Kind {
        var st = stat()
        guard lstat(path, &st) == 0 else { return .missing }
        switch st.st_mode & S_IFMT {
        case S_IFREG: return .file
        case S_IFDIR: return .directory
        default: return .other
        }
    }

    /// Size of a regular file, or nil when `path` is missing or not a regular file.
    public static func regularFileSize(_ path: String) -> Int? {
        var st = stat()
        guard lstat(path, &st) == 0, st.st_mode & S_IFMT == S_IFREG else { return nil }
        return Int(st.st_size)
    }

    /// Reads a whole regular file, refusing files larger than `maxBytes` before allocating.
    public static func readFile(_ path: String, maxBytes: Int) throws -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw InputError(file: path, "cannot open: \(reason())") }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw InputError(file: path, "cannot stat: \(reason())") }
        guard st.st_mode & S_IFMT == S_IFREG else { throw InputError(file: path, "not a regular file") }
        let size = Int(st.st_size)
        guard size <= maxBytes else {
            throw InputError(file: path, "has \(size) bytes, more than the \(maxBytes) expected")
        }
        var bytes = [UInt8](repeating: 0, count: size)
        var done = 0
        try bytes.withUnsafeMutableBytes { buf in
            while done < size, let base = buf.baseAddress {
                let n = read(fd, base + done, size - done)
                if n < 0 && errno == EINTR { continue }
                if n < 0 { throw InputError(file: path, "cannot read: \(reason())") }
                if n == 0 { break }
                done += n
            }
        }
        guard done == size else { throw InputError(file: path, "file shrank while being read") }
        return bytes
    }

    /// Creates a new file (never overwriting) and writes `bytes`. `durable`: fsync it before
    /// returning; otherwise only start its writeback, for callers that flush a whole tree at
    /// once (`FileSync.syncFileSystem`).
    public static func writeNewFile(_ path: String, _ bytes: [UInt8], durable: Bool = true) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
        guard fd >= 0 else { throw InputError(file: path, "cannot create: \(reason())") }
        var ok = bytes.withUnsafeBytes { writeAll(fd, $0) }
        if ok {
            if durable { ok = fsync(fd) == 0 } else { FileSync.startWriteback(fd) }
        }
        let failure = ok ? "" : reason()
        close(fd)
        guard ok else { throw InputError(file: path, "cannot write: \(failure)") }
    }

    /// Writes all of `buffer` to `fd`, resuming after short and interrupted writes; false (with
    /// `errno` set) when a write fails.
    public static func writeAll(_ fd: Int32, _ buffer: UnsafeRawBufferPointer) -> Bool {
        guard var p = buffer.baseAddress else { return true }
        var left = buffer.count
        while left > 0 {
            let n = write(fd, p, left)
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return false }
            p += n
            left -= n
        }
        return true
    }

    /// Hard-links `source` to `destination` so an unchanged tile keeps its inode and mtime;
    /// copies when the file system cannot link.
    public static func linkOrCopy(_ source: String, to destination: String, maxBytes: Int) throws {
        if link(source, destination) == 0 { return }
        let err = errno
        guard err == EXDEV || err == EPERM || err == EMLINK || err == ENOTSUP || err == EOPNOTSUPP else {
            throw InputError(file: destination, "cannot link from \(source): \(String(cString: strerror(err)))")
        }
        try writeNewFile(destination, try readFile(source, maxBytes: maxBytes))
    }

    public static func makeDirectory(_ path: String) throws {
        guard mkdir(path, 0o777) == 0 else { throw InputError(file: path, "cannot create directory: \(reason())") }
    }

    /// Removes a file or a directory tree; best effort (used on temporary trees only).
    public static func removeTree(_ path: String) {
        guard kind(path) != .missing else { return }
        try? FileManager.default.removeItem(atPath: path)
    }

    /// Entry names of a directory, or nil when it cannot be listed.
    public static func directoryEntries(_ path: String) -> [String]? {
        try? FileManager.default.contentsOfDirectory(atPath: path)
    }
}
