import OffgridCore
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Writing files into a store: bytes go to `tmp/<pid>-<n>.tmp` and are checked there; then
/// `publish` flushes them, renames them to their content-addressed names and flushes the
/// directories, all before the index transaction that refers to them commits. A crash therefore leaves at worst files the
/// index does not know (orphans, removed by `verify --repair` and `evict`), never index rows
/// without their file.
final class StoreFiles {
    let root: String
    private var counter = 0

    init(root: String) {
        self.root = root
    }

    func absolute(_ relative: String) -> String { (root as NSString).appendingPathComponent(relative) }

    /// A fresh temporary path in `tmp/`, registered for removal on SIGINT/SIGTERM.
    func temporaryFile() -> TemporaryFile {
        counter += 1
        let path = absolute("\(StoreLayout.tmpDirectory)/\(getpid())-\(counter).tmp")
        return TemporaryFile(path: path)
    }

    /// Copies `source` into a temporary file, hashing as it goes (not flushed yet: `publish`).
    func copyToTemporary(_ source: String) throws -> (file: TemporaryFile, sha256: String, bytes: Int64) {
        let input = open(source, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw InputError(file: source, "cannot open: \(String(cString: strerror(errno)))") }
        defer { close(input) }
        var st = stat()
        guard fstat(input, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else {
            throw InputError(file: source, "not a regular file")
        }
        let tmp = temporaryFile()
        try tmp.create()
        var sha = SHA256()
        let total: Int64
        do {
            total = try Self.readChunks(input, path: source) { chunk in
                sha.update(chunk)
                try tmp.write(chunk)
            }
            try tmp.finishWriting()
        } catch {
            tmp.discard()
            throw error
        }
        return (tmp, SHA256.hex(sha.finalize()), total)
    }

    /// Hard-links `source` (a file the store owns, e.g. a finished download in `partial/`) to a
    /// temporary name and hashes it: no second copy of the bytes. Falls back to copying.
    /// `trusting`: the hash the caller checked the file against when it completed it (a load's
    /// download, hashed as it arrived and never written since), so it is not read again here.
    func linkToTemporary(_ source: String, trusting sha256: String? = nil) throws -> (file: TemporaryFile, sha256: String, bytes: Int64) {
        let tmp = temporaryFile()
        guard tmp.link(from: source) else { return try copyToTemporary(source) }
        if let sha256, let size = FileTools.regularFileSize(tmp.path) { return (tmp, sha256, Int64(size)) }
        do {
            let (sha, bytes) = try Self.hashFile(atPath: tmp.path)
            return (tmp, sha, bytes)
        } catch {
            tmp.discard()
            throw error
        }
    }

    /// Reads `fd` to its end in 1 MiB chunks; the bytes read.
    private static func readChunks(_ fd: Int32, path: String, _ body: (UnsafeRawBufferPointer) throws -> Void) throws -> Int64 {
        var total: Int64 = 0
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 { throw InputError(file: path, "cannot read: \(String(cString: strerror(errno)))") }
            if n == 0 { return total }
            try buffer.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
            total += Int64(n)
        }
    }

    /// Writes `bytes` to a temporary file (not flushed yet: `publish`).
    func writeTemporary(_ bytes: ArraySlice<UInt8>) throws -> TemporaryFile {
        let tmp = temporaryFile()
        try tmp.create()
        do {
            try bytes.withUnsafeBytes { try tmp.write($0) }
            try tmp.finishWriting()
        } catch {
            tmp.discard()
            throw error
        }
        return tmp
    }

    /// Flushes written temporary files to disk, renames each to its relative path (replacing a
    /// file of that name: the same content, since names are hashes) and flushes the directories,
    /// so that when this returns the files are durable under their final names. One `syncfs(2)`
    /// for a batch of many files where the system has it (hundreds of small style resources would
    /// otherwise cost two fsyncs each), else an fsync per file and per directory: a pack or two
    /// (`serve --repository` stores one at a time) would wait for everything other processes
    /// wrote to the file system.
    func publish(_ batch: [(file: TemporaryFile, relative: String)]) throws {
        guard !batch.isEmpty else { return }
        CrashPoint.reached(.copied)
        let wholeFileSystem = batch.count > Self.fsyncPerFileUpTo
        if !wholeFileSystem || !FileSync.syncFileSystem(ofDirectory: root) {
            for (tmp, _) in batch { try tmp.fsyncFile() }
        }
        var directories: Set<String> = []
        for (tmp, relative) in batch {
            let target = absolute(relative)
            let dir = (target as NSString).deletingLastPathComponent
            if !directories.contains(dir) {
                if mkdir(dir, 0o777) == 0 {
                    directories.insert((dir as NSString).deletingLastPathComponent)
                } else if errno != EEXIST {
                    throw InputError(file: dir, "cannot create directory: \(String(cString: strerror(errno)))")
                }
            }
            guard rename(tmp.path, target) == 0 else {
                throw InputError(file: target, "cannot rename \(tmp.path) into place: \(String(cString: strerror(errno)))")
            }
            tmp.published()
            directories.insert(dir)
        }
        if !wholeFileSystem || !FileSync.syncFileSystem(ofDirectory: root) {
            for dir in directories.sorted(by: { $0.count > $1.count }) { FileSync.syncDirectory(dir) }
        }
        CrashPoint.reached(.published)
    }

    /// Batches of at most this many files are flushed file by file, not with `syncfs(2)`.
    static let fsyncPerFileUpTo = 8

    /// Removes a file by relative path; a missing file is not an error. Returns whether it existed.
    @discardableResult
    func remove(_ relative: String) -> Bool {
        unlink(absolute(relative)) == 0
    }

    /// Size of a file, or nil when it is missing or not a regular file.
    func size(_ relative: String) -> Int64? {
        var st = stat()
        guard stat(absolute(relative), &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int64(st.st_size)
    }

    /// SHA-256 of a stored file, streamed.
    func sha256(_ relative: String) throws -> (sha256: String, bytes: Int64) {
        try Self.hashFile(atPath: absolute(relative))
    }

    /// SHA-256 and size of any file, streamed.
    static func hashFile(atPath path: String) throws -> (sha256: String, bytes: Int64) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw InputError(file: path, "cannot open: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var sha = SHA256()
        let total = try readChunks(fd, path: path) { sha.update($0) }
        return (SHA256.hex(sha.finalize()), total)
    }

    /// Every regular file under `directory` (relative to the store), as store-relative paths.
    func files(under directory: String) -> [String] {
        let base = absolute(directory)
        guard let enumerator = FileManager.default.enumerator(atPath: base) else { return [] }
        var out: [String] = []
        while let item = enumerator.nextObject() as? String {
            let full = (base as NSString).appendingPathComponent(item)
            var st = stat()
            if lstat(full, &st) == 0, (st.st_mode & S_IFMT) != S_IFDIR {
                out.append("\(directory)/\(item)")
            }
        }
        return out.sorted()
    }
}

/// A file in `tmp/` being written. Removed on SIGINT/SIGTERM, on `discard()`, or when dropped
/// unpublished; a SIGKILLed process leaves it for the next writer to remove.
final class TemporaryFile {
    let path: String
    private var fd: Int32 = -1
    private var slot: Int?
    private var done = false

    init(path: String) {
        self.path = path
    }

    func create() throws {
        TempPathRegistry.installSignalHandlers()
        slot = TempPathRegistry.register(path)
        fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            let reason = String(cString: strerror(errno))
            discard()
            throw InputError(file: path, "cannot create: \(reason)")
        }
    }

    /// Makes the file a hard link of `source` instead of creating it; false when the file system
    /// refuses (the caller copies instead).
    func link(from source: String) -> Bool {
        TempPathRegistry.installSignalHandlers()
        slot = TempPathRegistry.register(path)
        if Glibc.link(source, path) == 0 { return true }
        if let slot { TempPathRegistry.unregister(slot) }
        slot = nil
        return false
    }

    func write(_ buffer: UnsafeRawBufferPointer) throws {
        guard FileTools.writeAll(fd, buffer) else {
            throw InputError(file: path, "cannot write: \(FileTools.reason())")
        }
    }

    /// Closes the file after the last write (the data may not be on disk yet).
    func finishWriting() throws {
        if fd >= 0 {
            close(fd)
            fd = -1
        }
    }

    /// fsync(2) of the closed file.
    func fsyncFile() throws {
        let f = open(path, O_RDONLY | O_CLOEXEC)
        guard f >= 0, fsync(f) == 0 else {
            let reason = String(cString: strerror(errno))
            if f >= 0 { close(f) }
            throw InputError(file: path, "cannot flush to disk: \(reason)")
        }
        close(f)
    }

    /// After a rename: nothing left to clean.
    func published() {
        done = true
        if fd >= 0 { close(fd); fd = -1 }
        if let slot { TempPathRegistry.unregister(slot) }
        slot = nil
    }

    func discard() {
        guard !done else { return }
        done = true
        if fd >= 0 { close(fd); fd = -1 }
        unlink(path)
        if let slot { TempPathRegistry.unregister(slot) }
        slot = nil
    }

    deinit { discard() }
}
