import Foundation
import OffgridCore
#if canImport(Glibc)
import Glibc
#endif

/// Writes into a repository directory, in the order that keeps it readable at every instant:
/// objects first (temporary name + rename, existing ones skipped), then the per-version index,
/// then `index.json` replaced last by rename. A reader that fetched the previous `index.json`
/// still finds everything it names, since nothing is ever deleted or rewritten.
///
/// Concurrent publishers are serialized by an advisory lock on `REPO/.publish.lock` (flock(2),
/// dropped by the kernel when a process dies), held from `open` to `close`: each publisher
/// reads `index.json` and writes its successor under the lock, so no version is lost.
public final class RepositoryWriter: @unchecked Sendable {
    public static let lockFile = ".publish.lock"

    public struct Counts: Equatable, Sendable {
        public var objectsWritten = 0
        public var objectsReused = 0
        public var bytesWritten: Int64 = 0
        public var bytesReused: Int64 = 0
        public init() {}
    }

    /// What a commit changed.
    public enum Outcome: String, Sendable {
        /// The version was new: its index was written and `index.json` replaced.
        case published
        /// The same version with the same bytes was already listed: nothing was written.
        case unchanged
    }

    public let root: String
    private var lockFD: Int32 = -1
    private let lock = NSLock()
    private var madeDirectories = Set<String>()
    /// Guarded by `lock`.
    private var tally = Counts()

    /// Creates the repository directory when missing and takes the publish lock (waiting for
    /// another publisher, with `onWait` told once).
    public init(root: String, onWait: () -> Void = {}) throws {
        self.root = root
        if FileTools.kind(root) == .missing { try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true) }
        guard FileTools.kind(root) == .directory else { throw InputError(file: root, "the repository is not a directory") }
        let path = join(Self.lockFile)
        lockFD = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o666)
        guard lockFD >= 0 else { throw InputError(file: path, "cannot open the publish lock: \(FileTools.reason())") }
        if flock(lockFD, LOCK_EX | LOCK_NB) != 0 {
            if errno == EWOULDBLOCK { onWait() }
            while flock(lockFD, LOCK_EX) != 0 {
                if errno == EINTR { continue }
                let reason = FileTools.reason()
                Glibc.close(lockFD)
                lockFD = -1
                throw InputError(file: path, "cannot lock the repository: \(reason)")
            }
        }
    }

    deinit { close() }

    /// Releases the lock.
    public func close() {
        if lockFD >= 0 {
            flock(lockFD, LOCK_UN)
            Glibc.close(lockFD)
            lockFD = -1
        }
    }

    public var counts: Counts {
        lock.lock(); defer { lock.unlock() }
        return tally
    }

    func join(_ relative: String) -> String { (root as NSString).appendingPathComponent(relative) }

    /// Whether the object is present with the expected size (objects only ever appear whole,
    /// by rename, so a present file of the right size is the object).
    public func hasObject(sha256: String, size: Int) -> Bool {
        guard let rel = RepositoryLayout.objectPath(sha256: sha256) else { return false }
        return FileTools.regularFileSize(join(rel)) == size
    }

    /// Stores an object whose bytes are the concatenation of `parts`; `sha256` must be their
    /// hash. Returns whether it was written (false: it was there already). Thread-safe.
    @discardableResult
    public func putObject(parts: [ArraySlice<UInt8>], sha256: String) throws -> Bool {
        guard let rel = RepositoryLayout.objectPath(sha256: sha256) else {
            throw InputError(file: root, "object hash \(sha256) is not 64 lowercase hex digits")
        }
        let size = parts.reduce(0) { $0 + $1.count }
        guard RepositoryRules.isObjectSize(size) else { throw InputError(file: join(rel), "object of \(size) bytes is empty or over 2 GiB") }
        if hasObject(sha256: sha256, size: size) {
            count(written: false, size)
            return false
        }
        try makeDirectories(for: rel)
        let writer = try AtomicFile.create(join(rel))
        for p in parts { try p.withUnsafeBytes { try writer.write($0) } }
        try writer.commit()
        count(written: true, size)
        return true
    }

    private func count(written: Bool, _ size: Int) {
        lock.lock(); defer { lock.unlock() }
        if written { tally.objectsWritten += 1; tally.bytesWritten += Int64(size) } else { tally.objectsReused += 1; tally.bytesReused += Int64(size) }
    }

    private func makeDirectories(for relative: String) throws {
        let dir = (relative as NSString).deletingLastPathComponent
        lock.lock()
        let known = madeDirectories.contains(dir)
        lock.unlock()
        if known { return }
        try FileManager.default.createDirectory(atPath: join(dir), withIntermediateDirectories: true)
        lock.lock()
        madeDirectories.insert(dir)
        lock.unlock()
    }

    /// The current `index.json`, or an empty index when the repository has none yet.
    public func currentIndex() throws -> RepositoryIndex {
        let path = join(RepositoryLayout.indexFile)
        guard FileTools.kind(path) != .missing else { return RepositoryIndex() }
        return try RepositoryIndex.load(path: path)
    }

    // MARK: - Versions

    /// Records a tileset version whose objects are all stored. Refuses a version already listed
    /// with different content (versions are immutable; publish a new one).
    public func commit(_ version: TilesetVersionIndex) throws -> Outcome {
        guard let rel = RepositoryLayout.tilesetIndexPath(name: version.name, version: version.version) else {
            throw InputError("tileset \(version.name) version \(version.version): names must be [A-Za-z0-9._-]{1,128}")
        }
        let bytes = version.encoded()
        // Only what readers accept is written.
        _ = try TilesetVersionIndex.decode(bytes, source: join(rel))
        return try commitVersion(version.version, bytes: bytes, relative: rel, what: "tileset \(version.name) version \(version.version)",
                                 entries: version.entries) { index, ref in
            var list = index.tileset(named: version.name)?.versions ?? []
            if let old = list.first(where: { $0.version == ref.version }) { return old == ref ? nil : old }
            list.insert(ref, at: 0)
            index.tilesets.removeAll { $0.name == version.name }
            index = RepositoryIndex(tilesets: index.tilesets + [.init(name: version.name, versions: list)], routing: index.routing, styles: index.styles)
            return nil
        }
    }

    /// Records a routing data version whose objects are all stored (same rules as tilesets).
    public func commit(_ version: RoutingVersionIndex) throws -> Outcome {
        guard let rel = RepositoryLayout.routingIndexPath(profile: version.profile, dataVersion: version.dataVersion) else {
            throw InputError("routing \(version.profile) data version \(version.dataVersion): names must be [A-Za-z0-9._-]{1,128}")
        }
        let bytes = version.encoded()
        _ = try RoutingVersionIndex.decode(bytes, source: join(rel))
        return try commitVersion(version.dataVersion, bytes: bytes, relative: rel, what: "routing \(version.profile) data version \(version.dataVersion)",
                                 entries: version.entries) { index, ref in
            var list = index.routing(profile: version.profile)?.versions ?? []
            if let old = list.first(where: { $0.version == ref.version }) { return old == ref ? nil : old }
            list.insert(ref, at: 0)
            index.routing.removeAll { $0.profile == version.profile }
            index = RepositoryIndex(tilesets: index.tilesets, routing: index.routing + [.init(profile: version.profile, versions: list)], styles: index.styles)
            return nil
        }
    }

    /// Lists a style pack (already stored as an object) under its URI, replacing an older pack
    /// of the same URI.
    public func commitStyle(uri: String, sha256: String, size: Int) throws -> Outcome {
        guard RepositoryRules.isStyleURI(uri) else { throw InputError("style URI \"\(uri)\" is not 1-1024 bytes without control characters") }
        guard hasObject(sha256: sha256, size: size) else { throw InputError(file: root, "style object \(sha256) is not stored") }
        var index = try currentIndex()
        let style = RepositoryIndex.Style(uri: uri, sha256: sha256, size: size)
        if index.style(uri: uri) == style { return .unchanged }
        index = RepositoryIndex(tilesets: index.tilesets, routing: index.routing, styles: index.styles.filter { $0.uri != uri } + [style])
        try replaceIndex(index)
        return .published
    }

    /// Writes the per-version index (unless an identical one is listed), then `index.json`.
    /// `update` adds the reference to the index, or returns the listed one that differs.
    private func commitVersion(_ version: String, bytes: [UInt8], relative: String, what: String, entries: [RepositoryEntry],
                               update: (inout RepositoryIndex, RepositoryIndex.VersionRef) -> RepositoryIndex.VersionRef?) throws -> Outcome {
        for e in entries where !hasObject(sha256: e.sha256, size: e.size) {
            throw InputError(file: root, "\(what): object \(e.sha256) of \(e.key) is not stored")
        }
        let before = try currentIndex()
        var index = before
        let ref = RepositoryIndex.VersionRef(version: version, index: relative, sha256: SHA256.hex(SHA256.hash(bytes)), size: bytes.count)
        if let listed = update(&index, ref) {
            throw InputError(file: join(relative), "\(what) is already published with other content (sha256 \(listed.sha256)); versions are immutable: publish a new version")
        }
        if index == before { return .unchanged }
        // Not listed yet, so no reader knows the file: (re)writing it is safe.
        try makeDirectories(for: relative)
        try AtomicFile.write(bytes, to: join(relative))
        FaultPoint.reached("publish-version-index-written")
        try replaceIndex(index)
        return .published
    }

    private func replaceIndex(_ index: RepositoryIndex) throws {
        let bytes = index.encoded()
        guard bytes.count <= RepositoryRules.maxIndexBytes else {
            throw InputError(file: join(RepositoryLayout.indexFile), "the index would have \(bytes.count) bytes, more than the \(RepositoryRules.maxIndexBytes) readers accept")
        }
        let writer = try AtomicFile.create(join(RepositoryLayout.indexFile))
        try writer.write(bytes)
        FaultPoint.reached("publish-before-index-rename")
        try writer.commit()
    }
}
