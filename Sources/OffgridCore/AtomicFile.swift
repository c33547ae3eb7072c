import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes files so that readers see either the previous complete file or the new complete file,
/// never a partial one: the bytes go to `.<name>.tmp-<pid>-<counter>` in the target's directory
/// (same file system, so the final rename is atomic), are fsynced, and are renamed over the target.
/// Any failure removes the temporary file; SIGINT/SIGTERM remove it too (see `TempPathRegistry`).
///
/// File-system failures are reported as `InputError` naming the path, so tools print one line
/// and exit 1 like for any other bad input.
public enum AtomicFile {
    /// Writes `bytes` to `path` atomically.
    public static func write(_ bytes: [UInt8], to path: String) throws {
        let writer = try create(path)
        try writer.write(bytes)
        try writer.commit()
    }

    /// Starts a streamed atomic write; call `commit()` to publish or `abandon()` to discard.
    public static func create(_ path: String) throws -> AtomicFileWriter {
        try AtomicFileWriter(path: path)
    }

    private static let counterLock = NSLock()
    /// Guarded by `counterLock`.
    private nonisolated(unsafe) static var counter = 0

    /// `.<name>.tmp-<pid>-<counter>` next to `path`; the counter keeps names unique in-process.
    static func temporaryPath(for path: String) -> String {
        counterLock.lock()
        counter += 1
        let n = counter
        counterLock.unlock()
        let url = URL(fileURLWithPath: path)
        let dir = url.deletingLastPathComponent().path
        return (dir as NSString).appendingPathComponent(".\(url.lastPathComponent).tmp-\(getpid())-\(n)")
    }
}

/// One atomic write in progress. Not thread-safe; use from one thread.
/// Dropping an uncommitted writer abandons it.
public final class AtomicFileWriter {
    /// The file that `commit()` replaces.
    public let path: String
    /// Where the bytes are written until `commit()`.
    public let temporaryPath: String

    private var fd: Int32
    private var registrySlot: Int?
    private var isOpen: Bool { fd >= 0 }

    init(path: String) throws {
        self.path = path
        self.temporaryPath = AtomicFile.temporaryPath(for: path)
        TempPathRegistry.installSignalHandlers()
        // Registered before creation, so an interrupt between open and registration cannot leak it.
        registrySlot = TempPathRegistry.register(temporaryPath)
        fd = open(temporaryPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
        if fd < 0 {
            let reason = String(cString: strerror(errno))
            if let slot = registrySlot { TempPathRegistry.unregister(slot) }
            registrySlot = nil
            throw InputError(file: path, "cannot create temporary file \(temporaryPath): \(reason)")
        }
    }

    deinit { abandon() }

    public func write(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try write($0) }
    }

    public func write(_ buffer: UnsafeRawBufferPointer) throws {
        guard isOpen else { throw InputError(file: path, "write after commit or abandon") }
        if !FileTools.writeAll(fd, buffer) {
            let reason = FileTools.reason()
            abandon()
            throw InputError(file: path, "cannot write: \(reason)")
        }
    }

    /// Flushes the bytes to disk and renames the temporary file over `path`.
    public func commit() throws {
        guard isOpen else { throw InputError(file: path, "commit after commit or abandon") }
        if fsync(fd) != 0 {
            let reason = String(cString: strerror(errno))
            abandon()
            throw InputError(file: path, "cannot flush to disk: \(reason)")
        }
        close(fd)
        fd = -1
        if rename(temporaryPath, path) != 0 {
            let reason = String(cString: strerror(errno))
            unlink(temporaryPath)
            releaseSlot()
            throw InputError(file: path, "cannot rename \(temporaryPath) into place: \(reason)")
        }
        releaseSlot()
        // The rename itself is durable only once the directory is flushed.
        FileSync.syncDirectory(containing: path)
    }

    /// Closes and removes the temporary file; the target is untouched. Safe to call repeatedly.
    public func abandon() {
        if isOpen {
            close(fd)
            fd = -1
            unlink(temporaryPath)
        }
        releaseSlot()
    }

    private func releaseSlot() {
        if let slot = registrySlot { TempPathRegistry.unregister(slot) }
        registrySlot = nil
    }
}

// MARK: - Signal-time cleanup

/// Temporary paths to delete if the process is interrupted, so a Ctrl-C leaves the previous
/// good output and no `.tmp-` litter.
///
/// The signal handler may only call async-signal-safe functions, so the table is a fixed block of
/// preallocated C strings (no Swift arrays, strings or locks at signal time). On SIGINT/SIGTERM
/// the handler unlinks every registered file, tries `rmdir` on registered directories (which only
/// succeeds when empty; tools clean leftover `*.partial-*` directories on their next run),
/// restores the default action and re-raises the signal so the exit status is the usual one.
///
/// A full table is not an error: the path simply is not cleaned at signal time.
public enum TempPathRegistry {
    public static let capacity = registryCapacity
    public static let maxPathBytes = registryMaxPathBytes

    public enum Kind { case file, directory }

    private static let lock = NSLock()
    /// Guarded by `lock`.
    private nonisolated(unsafe) static var handlersInstalled = false

    /// Installs the SIGINT/SIGTERM handlers once per process. A signal that was ignored when
    /// the process started (e.g. SIGINT under `nohup` or `&`) stays ignored.
    public static func installSignalHandlers() {
        lock.lock()
        defer { lock.unlock() }
        guard !handlersInstalled else { return }
        handlersInstalled = true
        // Touch the lazily initialized globals now, never for the first time inside the handler.
        _ = registryPaths
        _ = registryStates
        for sig in [SIGINT, SIGTERM] {
            let previous = signal(sig, tempPathSignalHandler)
            if let previous, unsafeBitCast(previous, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self) {
                signal(sig, SIG_IGN)
            }
        }
    }

    /// Records `path` for removal at signal time; returns its slot for `unregister`,
    /// or nil if the table is full or the path too long.
    @discardableResult
    public static func register(_ path: String, kind: Kind = .file) -> Int? {
        let utf8 = Array(path.utf8)
        guard utf8.count < maxPathBytes, !utf8.contains(0) else { return nil }
        lock.lock()
        var slot: Int?
        for i in 0..<capacity where registryStates[i] == slotFree {
            registryStates[i] = slotWriting  // the handler skips slots being filled
            slot = i
            break
        }
        lock.unlock()
        guard let slot else { return nil }
        let dst = registryPaths + slot * maxPathBytes
        for (i, byte) in utf8.enumerated() { dst[i] = CChar(bitPattern: byte) }
        dst[utf8.count] = 0
        // Published under the lock: another thread's `register` reads every slot's state under
        // it, and an unlocked store raced with those reads (ThreadSanitizer, make test-sanitized).
        // The unlock is also the release barrier that orders the path bytes before the state
        // for the signal handler.
        lock.lock()
        registryStates[slot] = kind == .file ? slotFile : slotDirectory
        lock.unlock()
        return slot
    }

    /// Forgets a slot (after commit, or after the caller removed the path itself).
    public static func unregister(_ slot: Int) {
        guard slot >= 0 && slot < capacity else { return }
        lock.lock()
        registryStates[slot] = slotFree
        lock.unlock()
    }

    /// Number of registered paths (tests).
    public static var registeredCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return (0..<capacity).filter { registryStates[$0] == slotFile || registryStates[$0] == slotDirectory }.count
    }

    /// What the signal handler does before re-raising: unlink files, rmdir directories.
    /// Uses only async-signal-safe calls.
    public static func removeRegisteredPaths() {
        removeRegisteredPathsSignalSafe()
    }
}

private let registryCapacity = 64
private let registryMaxPathBytes = 4096
private let slotFree: Int32 = 0
private let slotWriting: Int32 = 1
private let slotFile: Int32 = 2
private let slotDirectory: Int32 = 3

// Raw pointers rather than Swift arrays: the signal handler must not touch reference counts or
// allocate. Slot allocation is guarded by `TempPathRegistry.lock`; the handler only reads.
private nonisolated(unsafe) let registryPaths: UnsafeMutablePointer<CChar> = {
    let p = UnsafeMutablePointer<CChar>.allocate(capacity: registryCapacity * registryMaxPathBytes)
    p.initialize(repeating: 0, count: registryCapacity * registryMaxPathBytes)
    return p
}()

private nonisolated(unsafe) let registryStates: UnsafeMutablePointer<Int32> = {
    let p = UnsafeMutablePointer<Int32>.allocate(capacity: registryCapacity)
    p.initialize(repeating: slotFree, count: registryCapacity)
    return p
}()

private func removeRegisteredPathsSignalSafe() {
    for i in 0..<registryCapacity {
        let state = registryStates[i]
        if state == slotFile {
            unlink(registryPaths + i * registryMaxPathBytes)
        } else if state == slotDirectory {
            rmdir(registryPaths + i * registryMaxPathBytes)
        }
    }
}

private func tempPathSignalHandler(_ sig: Int32) {
    removeRegisteredPathsSignalSafe()
    // A zeroed sigaction is SIG_DFL with an empty mask; the re-raised signal is delivered as
    // soon as this handler returns and terminates the process with the usual status.
    var action = sigaction()
    sigaction(sig, &action, nil)
    raise(sig)
}
