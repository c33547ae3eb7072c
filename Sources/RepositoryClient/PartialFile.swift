import Foundation
import OffgridCore
#if canImport(Glibc)
import Glibc
#endif

/// A download in progress: `<dir>/<sha256>.part`, kept across runs so an interrupted download
/// continues where it stopped. The file is flock(2)ed while one process writes it (a second
/// process loading the same object waits, then finds it complete). Its SHA-256 is computed over
/// the bytes kept plus the bytes received, and the object counts as fetched only when size and
/// hash equal the index's.
final class PartialFile {
    let path: String
    let expectedSize: Int64
    let expectedSHA256: String
    private var fd: Int32
    private(set) var length: Int64 = 0
    private var hasher = SHA256()

    init(directory: String, sha256: String, size: Int64) throws {
        path = (directory as NSString).appendingPathComponent(sha256 + ".part")
        expectedSize = size
        expectedSHA256 = sha256
        fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw InputError(file: path, "cannot open the partial download: \(FileTools.reason())") }
        while flock(fd, LOCK_EX) != 0 {
            if errno == EINTR { continue }
            let reason = FileTools.reason()
            close(fd)
            throw InputError(file: path, "cannot lock the partial download: \(reason)")
        }
        try rehash()
    }

    deinit { closeFile() }

    func closeFile() {
        if fd >= 0 { close(fd); fd = -1 }   // closing drops the flock
    }

    /// Reads what the file holds (never more than the expected size) into the hash state.
    private func rehash() throws {
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw InputError(file: path, "cannot stat: \(FileTools.reason())") }
        hasher = SHA256()
        length = 0
        if Int64(st.st_size) > expectedSize {
            try truncate()
            return
        }
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while length < Int64(st.st_size) {
            let n = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress!, $0.count, off_t(length)) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw InputError(file: path, "cannot read: \(FileTools.reason())") }
            buffer.withUnsafeBytes { hasher.update(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
            length += Int64(n)
        }
    }

    /// Starts over (a server that ignored Range, or bytes that failed the hash).
    func truncate() throws {
        guard ftruncate(fd, 0) == 0 else { throw InputError(file: path, "cannot truncate: \(FileTools.reason())") }
        length = 0
        hasher = SHA256()
    }

    var isComplete: Bool { length == expectedSize }

    /// Appends received bytes; more than the index's size is refused (the cap on what a hostile
    /// or broken server can make us store).
    func append(_ bytes: UnsafeRawBufferPointer, url: String) throws {
        guard length + Int64(bytes.count) <= expectedSize else {
            throw FetchFailure(url: url, message: "the server sent more than the \(expectedSize) bytes the index names; refused", retryable: false)
        }
        var p = bytes.baseAddress!
        var left = bytes.count
        var offset = length
        while left > 0 {
            let n = pwrite(fd, p, left, off_t(offset))
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw InputError(file: path, "cannot write: \(FileTools.reason())") }
            p += n; left -= n; offset += Int64(n)
        }
        hasher.update(bytes)
        length += Int64(bytes.count)
    }

    /// Whether the complete file has the index's SHA-256 (the hash state is consumed: call once
    /// per completed file; `truncate` resets it).
    func hashMatches() -> Bool {
        var copy = hasher
        return SHA256.hex(copy.finalize()) == expectedSHA256
    }
}
