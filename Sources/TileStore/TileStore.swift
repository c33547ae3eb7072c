import Foundation
import OffgridCore
#if canImport(Glibc)
import Glibc
#endif

/// A tile store: one directory holding map packs, routing packs and style resources, each stored
/// once under its SHA-256, and an SQLite index (WAL) of regions and styles referring to them.
/// Layout and schema: docs/FORMATS.md, "Tile store".
///
///     let store = try TileStore.open("out/store", access: .write)
///     let report = try store.installRegion(directory: "out/maps/oberland")
///     let bytes = try store.tile(z: 12, x: 2145, y: 1434, tileset: "liechtenstein")
///
/// Processes that change the store hold an exclusive flock on `STORE/lock` for as long as the
/// `TileStore` is open (so writers are serialised across processes); `verify` holds a shared one;
/// readers (`list`, `show`, `get`) take none and read one consistent snapshot of the index.
public final class TileStore {
    public enum Access {
        /// Read the index only; the store must exist.
        case read
        /// Check files against the index: a shared lock, so no writer changes them meanwhile.
        case verify
        /// Change the store: created when missing (its parent must exist); exclusive lock.
        case write
        /// Append to the journal only (progress of a download running without the store's lock);
        /// the store must exist.
        case journal
    }

    public let root: String
    let db: SQLiteDatabase
    let files: StoreFiles
    private var lock: StoreLock?
    /// "Now" for expiry decisions, seconds since 1970.
    public var now: Int64 = Int64(Date().timeIntervalSince1970)

    private init(root: String, db: SQLiteDatabase, lock: StoreLock?) {
        self.root = root
        self.db = db
        self.files = StoreFiles(root: root)
        self.lock = lock
    }

    /// Closes the index and releases the lock.
    public func close() {
        db.close()
        lock?.release()
        lock = nil
    }

    deinit { close() }

    public static func open(_ path: String, access: Access, quiet: Bool = false) throws -> TileStore {
        var root = path
        while root.count > 1 && root.hasSuffix("/") { root.removeLast() }
        let index = (root as NSString).appendingPathComponent(StoreLayout.indexName)
        let lockPath = (root as NSString).appendingPathComponent(StoreLayout.lockName)
        var isDir: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: root, isDirectory: &isDir)
        if exists && !isDir.boolValue { throw InputError(file: root, "exists and is not a directory") }
        let hasIndex = FileManager.default.fileExists(atPath: index)

        guard access == .write else {
            guard exists, hasIndex else {
                throw InputError(file: root, "no tile store here (no \(StoreLayout.indexName)); install something first")
            }
            let lock = access == .verify ? try StoreLock(path: lockPath, mode: .shared, quiet: quiet) : nil
            let db = try SQLiteDatabase(path: index, create: false)
            let store = TileStore(root: root, db: db, lock: lock)
            try store.checkSchema()
            return store
        }

        if !exists {
            let parent = (root as NSString).deletingLastPathComponent
            if !parent.isEmpty && !FileManager.default.fileExists(atPath: parent) {
                throw InputError(file: root, "cannot create the store: its parent directory does not exist")
            }
            if mkdir(root, 0o777) != 0 && errno != EEXIST {
                throw InputError(file: root, "cannot create the store: \(String(cString: strerror(errno)))")
            }
        } else if !hasIndex {
            // Only an empty directory, one an interrupted creation left, or one another process
            // has just made a store becomes (or is opened as) a store.
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
            if let other = StoreLayout.foreignEntry(in: entries) {
                throw InputError(file: root, "is not a tile store (no \(StoreLayout.indexName)) and is not empty (\(other)); refusing to use it")
            }
        }
        let lock = try StoreLock(path: lockPath, mode: .exclusive, quiet: quiet)
        for dir in StoreLayout.directories {
            let full = (root as NSString).appendingPathComponent(dir)
            if mkdir(full, 0o777) != 0 && errno != EEXIST {
                throw InputError(file: full, "cannot create directory: \(String(cString: strerror(errno)))")
            }
        }
        if !FileManager.default.fileExists(atPath: index) {
            // A new index is made under another name and renamed into place once it has its
            // schema, so a process killed while creating the store never leaves an empty index.
            let creating = index + ".creating"
            unlink(creating)
            let fresh = try SQLiteDatabase(path: creating, create: true)
            try fresh.writeTransaction {
                try fresh.exec(StoreSchema.statements)
                try fresh.run("INSERT OR IGNORE INTO meta (key, value) VALUES ('schema_version', ?)", [.text("\(StoreSchema.version)")])
            }
            fresh.close()
            guard rename(creating, index) == 0 else { throw InputError(file: index, "cannot create the store index: \(String(cString: strerror(errno)))") }
            FileSync.syncDirectory(root)
        }
        let db = try SQLiteDatabase(path: index, create: true)
        let store = TileStore(root: root, db: db, lock: lock)
        try db.exec("PRAGMA journal_mode=WAL")
        try db.exec("PRAGMA synchronous=FULL")
        try db.exec("PRAGMA foreign_keys=ON")
        // An index at the current version needs no write (and no fsync'd commit) to be opened.
        let hasMetaTable = try db.int("SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = 'meta'") > 0
        let version = hasMetaTable ? try db.row("SELECT value FROM meta WHERE key = 'schema_version'") { $0.text(0) } : nil
        if version != "\(StoreSchema.version)" { try db.writeTransaction {
            let hasMeta = try db.int("SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = 'meta'") > 0
            let existing = hasMeta ? try db.row("SELECT value FROM meta WHERE key = 'schema_version'") { $0.text(0) } : nil
            if existing == "1" { try db.exec(StoreSchema.renameVersion1Tables) }
            try db.exec(StoreSchema.statements)
            if existing == "1" { try db.exec(StoreSchema.copyVersion1Rows) }
            // 2 → 3: `statements` added `ambient_packs`; nothing else changes.
            try db.run("INSERT OR REPLACE INTO meta (key, value) VALUES ('schema_version', ?)", [.text("\(StoreSchema.version)")])
        } }
        FileSync.syncDirectory(root)
        try store.checkSchema()
        try store.removeTemporaryFiles()
        return store
    }

    private func checkSchema() throws {
        try db.exec("PRAGMA foreign_keys=ON")
        let version: String?
        do {
            version = try db.row("SELECT value FROM meta WHERE key = 'schema_version'") { $0.text(0) }
        } catch {
            throw InputError(file: db.path, "not a tile store index (no meta table)")
        }
        // An older index is read as is (no events, no ambient packs yet); the first writer upgrades it.
        guard let version, StoreSchema.readable.contains(version) else {
            throw InputError(file: db.path, "unsupported tile store schema version \(version ?? "none") (this tool knows \(StoreSchema.version))")
        }
    }

    /// Removes `tmp/` files. Only called under the exclusive lock, when no other writer is busy,
    /// so every file there was left by a process that died.
    @discardableResult
    func removeTemporaryFiles() throws -> [String] {
        let leftovers = files.files(under: StoreLayout.tmpDirectory)
        for f in leftovers { files.remove(f) }
        return leftovers
    }

    // MARK: - Quota and totals

    /// The disk quota in bytes, or nil for none.
    public func quota() throws -> Int64? {
        try db.row("SELECT value FROM meta WHERE key = 'quota'") { Int64($0.text(0)) } ?? nil
    }

    func setQuotaRow(_ quota: Int64?) throws {
        if let quota {
            try db.run("INSERT OR REPLACE INTO meta (key, value) VALUES ('quota', ?)", [.text(String(quota))])
        } else {
            try db.run("DELETE FROM meta WHERE key = 'quota'")
        }
    }

    struct Totals {
        var bytes: Int64 = 0
        var files = 0
        var evictableBytes: Int64 = 0
        var evictableFiles = 0
        var mapPacks = 0
        var referencedMapPacks = 0
    }

    func totals() throws -> Totals {
        var t = Totals()
        try db.row("SELECT COALESCE(SUM(bytes), 0), COUNT(*) FROM objects") { s in
            t.bytes = s.int(0)
            t.files = Int(s.int(1))
        }
        try db.row("SELECT COALESCE(SUM(bytes), 0), COUNT(*) FROM objects o WHERE \(StoreSchema.unreferenced)") { s in
            t.evictableBytes = s.int(0)
            t.evictableFiles = Int(s.int(1))
        }
        t.mapPacks = Int(try db.int("SELECT COUNT(*) FROM objects WHERE kind = 'map-pack'"))
        t.referencedMapPacks = Int(try db.int("SELECT COUNT(DISTINCT sha256) FROM region_packs WHERE kind = 'map-pack'"))
        return t
    }

    /// The store's totals: bytes, files, evictable bytes, quota, eviction threshold.
    public func summary() throws -> StoreSummary {
        let t = try totals()
        let q = try quota()
        return StoreSummary(
            bytes: t.bytes, files: t.files, evictableBytes: t.evictableBytes, evictableFiles: t.evictableFiles,
            mapPacks: t.mapPacks, mapPacksInRegions: t.referencedMapPacks, quota: q,
            evictionThreshold: q.map { max(0, $0 - evictionMargin) },
            regions: Int(try db.int("SELECT COUNT(*) FROM regions")), styles: Int(try db.int("SELECT COUNT(*) FROM styles")))
    }
}

// MARK: - JSON in the index

/// Compact JSON text (sorted keys) of a value the index keeps as text.
func jsonText(_ value: JSONValue) -> String { JSONWriter.string(value, pretty: false) }

/// The JSON value the index keeps as text, or null.
func jsonValue(_ text: String?) -> JSONValue {
    guard let text, let value = try? JSONReader.parse(text) else { return .null }
    return value
}
