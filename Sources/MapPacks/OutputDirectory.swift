import CShims
import Foundation
import OffgridCore
#if canImport(Glibc)
import Glibc
#endif

/// A directory replaced in one atomic step: files are written into the sibling
/// `DIR.partial-<pid>`, flushed, and the finished tree is swapped with DIR
/// (`renameat2(RENAME_EXCHANGE)`, else two renames). Until then DIR is untouched, so an
/// interrupted or failed build leaves the previous output exactly as it was.
///
/// DIR must be missing, empty, or hold a previous map build (`region.json` of this format):
/// an unrelated directory is never replaced. `DIR.partial-*` left by killed runs are removed
/// (unless their process is still alive).
final class OutputDirectory {
    let path: String
    let partial: String
    private let existed: Bool
    private var slot: Int?
    private var files: [String] = []
    private let filesLock = NSLock()
    private var finished = false

    init(path: String, marker: String) throws {
        var p = path
        while p.count > 1 && p.hasSuffix("/") { p.removeLast() }
        self.path = p
        partial = p + ".partial-\(getpid())"
        var isDir: ObjCBool = false
        if FileManager.default.fileExists(atPath: p, isDirectory: &isDir) {
            guard isDir.boolValue else { throw InputError(file: p, "exists and is not a directory") }
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: p)) ?? []
            if !entries.isEmpty {
                let manifest = (p as NSString).appendingPathComponent("region.json")
                guard let data = FileManager.default.contents(atPath: manifest),
                      let object = try? JSONReader.parse([UInt8](data)),
                      object["format"]?.stringValue == marker else {
                    throw InputError(file: p, "exists and is not the output of a map build (no region.json); refusing to replace it")
                }
            }
            existed = true
        } else {
            existed = false
            let parent = (p as NSString).deletingLastPathComponent
            if !parent.isEmpty && !FileManager.default.fileExists(atPath: parent) {
                throw InputError(file: p, "its parent directory does not exist")
            }
        }
        OutputDirectory.removeLeftovers(of: p)
        try? FileManager.default.removeItem(atPath: partial)
        guard mkdir(partial, 0o777) == 0 else {
            throw InputError(file: partial, "cannot create directory: \(String(cString: strerror(errno)))")
        }
        TempPathRegistry.installSignalHandlers()
        slot = TempPathRegistry.register(partial, kind: .directory)
    }

    deinit { if !finished { abandon() } }

    /// Creates a directory (and its parents) under the partial tree.
    func makeDirectory(_ relative: String) throws {
        let dir = (partial as NSString).appendingPathComponent(relative)
        do {
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        } catch {
            throw InputError(file: dir, "cannot create directory: \(error.localizedDescription)")
        }
    }

    /// Creates `relative` (with its directories) under the partial tree. Thread-safe for files in
    /// directories that already exist (`makeDirectory`).
    func write(_ relative: String, _ bytes: [UInt8]) throws {
        try write(relative, parts: [bytes[...]])
    }

    /// Creates `relative` holding the concatenation of `parts` (written with `writev`).
    func write(_ relative: String, parts: [ArraySlice<UInt8>]) throws {
        let full = (partial as NSString).appendingPathComponent(relative)
        let dir = (full as NSString).deletingLastPathComponent
        if !FileManager.default.fileExists(atPath: dir) {
            do {
                try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            } catch {
                throw InputError(file: dir, "cannot create directory: \(error.localizedDescription)")
            }
        }
        let fd = open(full, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
        guard fd >= 0 else { throw InputError(file: full, "cannot create: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        FileSync.preallocate(fd, bytes: parts.reduce(0) { $0 + $1.count })
        try OutputDirectory.writeAll(fd: fd, parts: parts, path: full)
        FileSync.startWriteback(fd)   // the final flush then waits only for the last packs
        filesLock.lock()
        files.append(full)
        filesLock.unlock()
    }

    /// Writes the parts in order, many per `writev` call, resuming after short writes.
    static func writeAll(fd: Int32, parts: [ArraySlice<UInt8>], path: String) throws {
        var i = 0, skip = 0   // next part, and bytes of it already written
        while i < parts.count {
            let batch = min(parts.count - i, 512)
            let written = try writeBatch(fd: fd, parts: parts, from: i, count: batch, skip: skip, path: path)
            // Advance over what was written.
            var left = written
            while left > 0 && i < parts.count {
                let remaining = parts[i].count - skip
                if left >= remaining { left -= remaining; i += 1; skip = 0 } else { skip += left; left = 0 }
            }
            while i < parts.count && parts[i].count - skip == 0 { i += 1; skip = 0 }
        }
    }

    private static func writeBatch(fd: Int32, parts: [ArraySlice<UInt8>], from: Int, count: Int, skip: Int, path: String) throws -> Int {
        var iov = [iovec]()
        iov.reserveCapacity(count)
        // The slices' storage stays alive (held by `parts`) for the duration of the call.
        func go(_ k: Int) throws -> Int {
            if k == from + count {
                while true {
                    let n = writev(fd, iov, Int32(iov.count))
                    if n < 0 && errno == EINTR { continue }
                    if n < 0 { throw InputError(file: path, "cannot write: \(String(cString: strerror(errno)))") }
                    if n == 0 && !iov.isEmpty { throw InputError(file: path, "cannot write: no progress") }
                    return n
                }
            }
            return try parts[k].withUnsafeBytes { raw in
                let offset = k == from ? skip : 0
                if raw.count - offset > 0 {
                    iov.append(iovec(iov_base: UnsafeMutableRawPointer(mutating: raw.baseAddress! + offset), iov_len: raw.count - offset))
                }
                return try go(k + 1)
            }
        }
        return try go(from)
    }

    /// Flushes every file and swaps the finished tree into place.
    func commit() throws {
        // One flush for the whole tree where the system has it, else file by file.
        if !FileSync.syncFileSystem(ofDirectory: partial) {
            for f in files {
                let fd = open(f, O_RDONLY | O_CLOEXEC)
                if fd >= 0 { _ = fsync(fd); close(fd) }
            }
        }
        if existed {
            if offgrid_rename_exchange(partial, path) == 0 {
                try? FileManager.default.removeItem(atPath: partial)   // the old tree now
            } else {
                let old = partial + "-old"
                guard rename(path, old) == 0 else {
                    throw InputError(file: path, "cannot move the old directory aside: \(String(cString: strerror(errno)))")
                }
                guard rename(partial, path) == 0 else {
                    let why = String(cString: strerror(errno))
                    _ = rename(old, path)
                    throw InputError(file: path, "cannot rename \(partial) into place: \(why)")
                }
                try? FileManager.default.removeItem(atPath: old)
            }
        } else {
            guard rename(partial, path) == 0 else {
                throw InputError(file: path, "cannot rename \(partial) into place: \(String(cString: strerror(errno)))")
            }
        }
        FileSync.syncDirectory(containing: path)
        finished = true
        if let slot { TempPathRegistry.unregister(slot) }
        slot = nil
    }

    func abandon() {
        try? FileManager.default.removeItem(atPath: partial)
        if let slot { TempPathRegistry.unregister(slot) }
        slot = nil
        finished = true
    }

    static func removeLeftovers(of dir: String) {
        let parent = (dir as NSString).deletingLastPathComponent
        let prefix = (dir as NSString).lastPathComponent + ".partial-"
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: parent.isEmpty ? "." : parent) else { return }
        for name in names where name.hasPrefix(prefix) {
            let rest = name.dropFirst(prefix.count)
            let pidText = rest.split(separator: "-").first.map(String.init) ?? ""
            if let pid = Int32(pidText), pid != getpid(), kill(pid, 0) == 0 { continue }   // alive
            try? FileManager.default.removeItem(atPath: ((parent.isEmpty ? "." : parent) as NSString).appendingPathComponent(name))
        }
    }
}
