import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Getting written files onto the disk: directory fsyncs (so a rename or a new entry survives a
/// crash), one flush of a whole file system instead of one per file, and starting a file's
/// writeback early so that the final flush waits for less.
public enum FileSync {
    /// Best effort: some file systems refuse fsync on directories, which is not worth failing for.
    public static func syncDirectory(_ dir: String) {
        let dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard dfd >= 0 else { return }
        _ = fsync(dfd)
        close(dfd)
    }

    public static func syncDirectory(containing path: String) {
        syncDirectory(URL(fileURLWithPath: path).deletingLastPathComponent().path)
    }

    /// `syncfs(2)` on the file system holding directory `dir`: one flush for a whole tree of new
    /// files. False when the call is unavailable or fails (callers then fsync file by file).
    public static func syncFileSystem(ofDirectory dir: String) -> Bool {
        guard let syncfs else { return false }
        let dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard dfd >= 0 else { return false }
        defer { close(dfd) }
        return syncfs(dfd) == 0
    }

    /// Starts writing `fd`'s dirty pages without waiting for them (Linux
    /// `sync_file_range(SYNC_FILE_RANGE_WRITE)`); nothing where the call does not exist. Without
    /// it the kernel holds a build's dirty pages (up to its background ratio, gigabytes on a large
    /// machine) and the final flush waits for all of them.
    public static func startWriteback(_ fd: Int32) {
        _ = syncFileRange?(fd, 0, 0, 2)   // SYNC_FILE_RANGE_WRITE
    }

    /// Reserves `bytes` for new, empty file `fd` before it is written (Linux `fallocate(2)`, mode
    /// 0): the file system allocates its blocks in one extent up front instead of at writeback,
    /// which for many new files was a large part of the kernel's cost. Best effort: nothing where
    /// the call does not exist or the file system refuses it (the writes then allocate as usual).
    /// The file's size becomes `bytes`, so the caller must write all of them.
    public static func preallocate(_ fd: Int32, bytes: Int) {
        guard bytes > 0 else { return }
        _ = fallocate?(fd, 0, 0, Int64(bytes))
    }

    /// Linux calls looked up at run time: Swift's Glibc module does not declare them.
    private static let syncfs: (@convention(c) (Int32) -> Int32)? = {
        guard let symbol = dlsym(nil, "syncfs") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int32) -> Int32).self)
    }()
    private static let fallocate: (@convention(c) (Int32, Int32, Int64, Int64) -> Int32)? = {
        guard let symbol = dlsym(nil, "fallocate") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int32, Int32, Int64, Int64) -> Int32).self)
    }()
    private static let syncFileRange: (@convention(c) (Int32, Int64, Int64, UInt32) -> Int32)? = {
        guard let symbol = dlsym(nil, "sync_file_range") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int32, Int64, Int64, UInt32) -> Int32).self)
    }()
}
