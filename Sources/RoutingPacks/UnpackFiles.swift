import Foundation
import OffgridCore
#if canImport(Glibc)
import Glibc
#endif

/// How the unpacker writes its tree: files are written without a flush each, their writeback is
/// started at once (so the disk works while the next tiles are decompressed), and the whole tree
/// is flushed with one `syncfs(2)` before it is swapped into place (file by file where the call
/// does not exist). One fsync per tile made the unpack wait on the disk 89 times.
enum UnpackFiles {
    static func writeNewFile(_ path: String, _ bytes: [UInt8]) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
        guard fd >= 0 else { throw InputError(file: path, "cannot create: \(FileTools.reason())") }
        defer { close(fd) }
        try bytes.withUnsafeBytes { buf in
            var done = 0
            while done < buf.count, let base = buf.baseAddress {
                let n = write(fd, base + done, buf.count - done)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { throw InputError(file: path, "cannot write: \(FileTools.reason())") }
                done += n
            }
        }
        _ = syncFileRange?(fd, 0, 0, 2)   // SYNC_FILE_RANGE_WRITE: start, do not wait
    }

    /// Makes every file of `files` (all under `dir`) durable.
    static func flush(_ dir: String, files: [String]) throws {
        let dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if dfd >= 0 {
            defer { close(dfd) }
            if let syncfs, syncfs(dfd) == 0 { return }
        }
        for f in files {
            let fd = open(f, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { throw InputError(file: f, "cannot open to flush: \(FileTools.reason())") }
            defer { close(fd) }
            guard fsync(fd) == 0 else { throw InputError(file: f, "cannot flush: \(FileTools.reason())") }
        }
    }

    /// Linux calls looked up at run time (Swift's Glibc module does not declare them).
    private static let syncfs: (@convention(c) (Int32) -> Int32)? = {
        guard let symbol = dlsym(nil, "syncfs") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int32) -> Int32).self)
    }()
    private static let syncFileRange: (@convention(c) (Int32, Int64, Int64, UInt32) -> Int32)? = {
        guard let symbol = dlsym(nil, "sync_file_range") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int32, Int64, Int64, UInt32) -> Int32).self)
    }()
}
