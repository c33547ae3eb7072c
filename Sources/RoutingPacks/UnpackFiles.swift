import OffgridCore
#if canImport(Glibc)
import Glibc
#endif

/// How the unpacker makes its tree durable: files are written without a flush each and their
/// writeback started at once (`FileTools.writeNewFile(durable: false)`, so the disk works while
/// the next tiles are decompressed), and the whole tree is flushed with one `syncfs(2)` before it
/// is swapped into place (file by file where the call does not exist). One fsync per tile made
/// the unpack wait on the disk 89 times.
enum UnpackFiles {
    /// Makes every file of `files` (all under `dir`) durable.
    static func flush(_ dir: String, files: [String]) throws {
        if FileSync.syncFileSystem(ofDirectory: dir) { return }
        for f in files {
            let fd = open(f, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { throw InputError(file: f, "cannot open to flush: \(FileTools.reason())") }
            defer { close(fd) }
            guard fsync(fd) == 0 else { throw InputError(file: f, "cannot flush: \(FileTools.reason())") }
        }
    }
}
