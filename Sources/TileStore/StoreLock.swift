import Foundation
import OffgridCore
#if canImport(Glibc)
import Glibc
#endif

/// An advisory lock on `STORE/lock` (flock(2)): exclusive for every change to the store, shared
/// for `verify` (so it sees files and index from one state). The kernel drops the lock when the
/// process dies, so a killed install never leaves the store locked.
final class StoreLock {
    private var fd: Int32

    enum Mode { case shared, exclusive }

    /// Blocks until the lock is held; says so on stderr when another process has it.
    init(path: String, mode: Mode, quiet: Bool) throws {
        fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o666)
        guard fd >= 0 else {
            throw InputError(file: path, "cannot open the store lock: \(String(cString: strerror(errno)))")
        }
        let op = mode == .exclusive ? LOCK_EX : LOCK_SH
        if flock(fd, op | LOCK_NB) != 0 {
            if errno == EWOULDBLOCK && !quiet {
                StdIO.err("tilestore: waiting for another process to finish with the store\n")
            }
            while flock(fd, op) != 0 {
                if errno == EINTR { continue }
                let reason = String(cString: strerror(errno))
                close(fd)
                fd = -1
                throw InputError(file: path, "cannot lock the store: \(reason)")
            }
        }
    }

    func release() {
        if fd >= 0 {
            flock(fd, LOCK_UN)
            close(fd)
            fd = -1
        }
    }

    deinit { release() }
}
