import Foundation
import OffgridCore

/// The ambient cache: map packs `tilestore serve --repository` fetched because a tile was asked
/// for that no region holds (the SDK's ambient cache, by packs as in its read-and-update mode).
/// Ambient packs are ordinary map-pack objects with an `ambient_packs` row (docs/FORMATS.md):
/// they count in the store's quota like any file, and have their own limit, kept by evicting the
/// least recently used first. A pack some region also uses is never evicted, and does not count
/// in the ambient limit while a region uses it.
extension TileStore {
    /// The ambient cache's default limit: 50 MB, as the legacy SDK's ambient cache.
    public static let defaultAmbientLimit: Int64 = 50_000_000

    /// A map pack fetched from a repository, complete and hash-checked, ready to store.
    public struct FetchedPack {
        /// The verified download (`partial/<sha256>.part`); hard-linked into the store.
        public var file: String
        public var sha256: String
        public var bytes: Int64
        /// The pack headers' tileset id (the store's tileset name).
        public var tileset: String
        /// The repository key: `<band>/<z>-<x>-<y>`.
        public var key: String
        /// The repository tileset version it was fetched from, and the repository.
        public var version: String
        public var source: String
        public var expiresAt: Int64?
        /// The stored pack it replaces (outdated), or nil when the store lacked the pack.
        public var replacing: String?

        public init(file: String, sha256: String, bytes: Int64, tileset: String, key: String, version: String, source: String,
                    expiresAt: Int64?, replacing: String?) {
            self.file = file; self.sha256 = sha256; self.bytes = bytes; self.tileset = tileset; self.key = key
            self.version = version; self.source = source; self.expiresAt = expiresAt; self.replacing = replacing
        }

        /// `packs/<band>/<z>-<x>-<y>.pack`: the region_packs name of the same pack.
        var packPath: String { "packs/\(key).pack" }
    }

    /// What storing a fetched pack did.
    public struct FetchedPackOutcome: Encodable, Sendable {
        public var sha256: String
        public var key: String
        /// Regions whose pack was replaced (read-and-update), sorted.
        public var regionsUpdated: [String]
        public var ambient: Bool
        public var evicted: [EvictedObject]
    }

    /// Stores a verified pack in ONE transaction: the object, its ambient row, and, when it
    /// replaces an outdated pack, every region's reference to the old one (which is then removed
    /// unless something else still uses it). `lastUsed` (sha256 → milliseconds) is written first,
    /// so that the eviction that follows sees the server's recent reads.
    public func storeFetchedPack(_ pack: FetchedPack, ambientLimit: Int64, lastUsed: [String: Int64]) throws -> FetchedPackOutcome {
        let nowMs = Int64(Date().timeIntervalSince1970 * 1000)
        var regions: [String] = []
        var ambient = false
        let referenced = try referencedHashes()
        let plan = InstallPlan(
            what: "storing map pack \(pack.key)", progressLabel: "ambient", progressUnit: .files(itemName: "packs"),
            items: [InstallPlan.Item(sha256: pack.sha256, bytes: pack.bytes) { _ in
                let (tmp, sha, bytes) = try self.files.linkToTemporary(pack.file, trusting: pack.sha256)
                do {
                    guard sha == pack.sha256, bytes == pack.bytes else {
                        throw InputError(file: pack.file, "has \(bytes) bytes with SHA-256 \(sha), expected \(pack.bytes) bytes with \(pack.sha256)")
                    }
                    let row = try self.checkedMapPack(tmp.path, source: pack.source, sha256: sha, bytes: bytes, expectedPath: pack.packPath,
                                                      tileset: pack.tileset, expiresAt: pack.expiresAt)
                    return (tmp, row)
                } catch {
                    tmp.discard()
                    throw error
                }
            }],
            acceptExpired: false, referencedElsewhere: referenced,
            writeIndex: {
                try self.touchAmbientRows(lastUsed)
                var wasAmbient = false
                if let old = pack.replacing {
                    regions = try self.db.rows("SELECT DISTINCT region_id FROM region_packs WHERE sha256 = ? AND kind = 'map-pack' ORDER BY 1",
                                               [.text(old)]) { $0.text(0) }
                    let tiles = try self.db.int("SELECT COALESCE(tiles, 0) FROM objects WHERE sha256 = ?", [.text(pack.sha256)])
                    try self.db.run("UPDATE region_packs SET sha256 = ?, bytes = ?, tiles = ? WHERE sha256 = ? AND kind = 'map-pack'",
                                    [.text(pack.sha256), .int(pack.bytes), .int(tiles), .text(old)])
                    wasAmbient = try self.db.int("SELECT COUNT(*) FROM ambient_packs WHERE sha256 = ?", [.text(old)]) > 0
                    try self.db.run("DELETE FROM ambient_packs WHERE sha256 = ?", [.text(old)])
                    for r in regions {
                        try self.db.run("UPDATE regions SET updated_at = ? WHERE id = ?", [.int(self.now), .text(r)])
                        try self.refreshExpiries(ofRegion: r)
                    }
                    try self.journal(.packRefreshed, [
                        "key": .string(pack.key), "tileset": .string(pack.tileset), "version": .string(pack.version),
                        "previous": .string(old), "sha256": .string(pack.sha256), "regions": .array(regions.map { .string($0) }),
                        "source": .string(pack.source)])
                }
                ambient = pack.replacing == nil || wasAmbient || regions.isEmpty
                if ambient {
                    try self.db.run("""
                        INSERT OR REPLACE INTO ambient_packs (sha256, tileset, key, version, source, bytes, fetched_at, last_used)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                        """, [.text(pack.sha256), .text(pack.tileset), .text(pack.key), .text(pack.version), .text(pack.source),
                              .int(pack.bytes), .int(self.now), .int(nowMs)])
                    if pack.replacing == nil {
                        try self.journal(.ambientPackStored, [
                            "key": .string(pack.key), "tileset": .string(pack.tileset), "version": .string(pack.version),
                            "sha256": .string(pack.sha256), "bytes": .int(Int(pack.bytes)), "source": .string(pack.source)])
                    }
                }
            })
        let outcome = try install(plan, progress: SilentProgress.factory)
        var evicted = outcome.evicted
        // The replaced pack, now used by nothing: gone at once (not left for the quota to find).
        if let old = pack.replacing, old != pack.sha256, let stored = try storedObject(old) {
            evicted += try removeObjects([(EvictedObject(sha256: old, kind: .mapPack, bytes: stored.bytes, expiresAt: stored.expiresAt), stored.path)])
        }
        evicted += try evictAmbient(limit: ambientLimit, protecting: [pack.sha256])
        return FetchedPackOutcome(sha256: pack.sha256, key: pack.key, regionsUpdated: regions, ambient: ambient, evicted: evicted)
    }

    /// Writes the server's in-memory last-use times (sha256 → milliseconds) of ambient packs.
    public func touchAmbient(_ lastUsed: [String: Int64]) throws {
        guard !lastUsed.isEmpty, try hasAmbientTable() else { return }
        try db.writeTransaction { try touchAmbientRows(lastUsed) }
    }

    private func touchAmbientRows(_ lastUsed: [String: Int64]) throws {
        let s = try db.prepare("UPDATE ambient_packs SET last_used = MAX(last_used, ?) WHERE sha256 = ?")
        for (sha, ms) in lastUsed.sorted(by: { $0.key < $1.key }) {
            try s.bind([.int(ms), .text(sha)])
            while try s.step() {}
        }
    }

    /// Evicts ambient packs no region uses, least recently used first, until those left take at
    /// most `limit` bytes (never one in `protecting`). Journals one `ambient-evicted` event.
    @discardableResult
    public func evictAmbient(limit: Int64, protecting: Set<String> = []) throws -> [EvictedObject] {
        guard try hasAmbientTable() else { return [] }
        let candidates = try db.rows("""
            SELECT a.sha256, o.path, o.bytes, o.expires_at FROM ambient_packs a JOIN objects o ON o.sha256 = a.sha256
            WHERE NOT EXISTS (SELECT 1 FROM region_packs rp WHERE rp.sha256 = a.sha256)
            ORDER BY a.last_used, a.sha256
            """) { s in (EvictedObject(sha256: s.text(0), kind: .mapPack, bytes: s.int(2), expiresAt: s.optionalInt(3)), s.text(1)) }
        var total = candidates.reduce(Int64(0)) { $0 + $1.0.bytes }
        var chosen: [(EvictedObject, String)] = []
        for c in candidates where total > limit && !protecting.contains(c.0.sha256) {
            chosen.append(c)
            total -= c.0.bytes
        }
        let removed = try removeObjects(chosen)
        if !removed.isEmpty {
            try journal(.ambientEvicted, ["packs": .int(removed.count), "bytes": .int(Int(removed.reduce(Int64(0)) { $0 + $1.bytes })),
                                          "limit": .int(Int(limit)), "sha256": .array(removed.map { .string($0.sha256) })])
        }
        return removed
    }

    /// `ambient clear`: every ambient pack no region uses is removed; ambient rows of packs a
    /// region uses are dropped (the packs stay, as the region's).
    public func clearAmbient() throws -> AmbientReport {
        guard try hasAmbientTable() else { return try ambientReport(limit: nil) }
        let removed = try evictAmbientAll()
        let dropped = try db.writeTransaction { () -> Int in
            try db.run("DELETE FROM ambient_packs")
            let n = sqlite3Changes(db)
            try journal(.ambientCleared, ["packs": .int(removed.count), "bytes": .int(Int(removed.reduce(Int64(0)) { $0 + $1.bytes })),
                                          "regionPacksKept": .int(n)])
            return n
        }
        var report = try ambientReport(limit: nil)
        report.cleared = AmbientReport.Cleared(packsRemoved: removed.count, bytesFreed: removed.reduce(Int64(0)) { $0 + $1.bytes },
                                               regionPacksKept: dropped)
        return report
    }

    private func evictAmbientAll() throws -> [EvictedObject] {
        let rows = try db.rows("""
            SELECT a.sha256, o.path, o.bytes, o.expires_at FROM ambient_packs a JOIN objects o ON o.sha256 = a.sha256
            WHERE NOT EXISTS (SELECT 1 FROM region_packs rp WHERE rp.sha256 = a.sha256) ORDER BY a.last_used, a.sha256
            """) { s in (EvictedObject(sha256: s.text(0), kind: .mapPack, bytes: s.int(2), expiresAt: s.optionalInt(3)), s.text(1)) }
        return try removeObjects(rows)
    }

    /// `ambient` / `ambient show`: the cache's packs (most recently used first) and totals.
    public func ambientReport(limit: Int64?) throws -> AmbientReport {
        var packs: [AmbientReport.Pack] = []
        if try hasAmbientTable() {
            packs = try db.rows("""
                SELECT a.sha256, a.tileset, a.key, a.version, a.source, a.bytes, a.fetched_at, a.last_used,
                       EXISTS (SELECT 1 FROM region_packs rp WHERE rp.sha256 = a.sha256)
                FROM ambient_packs a ORDER BY a.last_used DESC, a.sha256
                """) { s in
                AmbientReport.Pack(sha256: s.text(0), tileset: s.text(1), key: s.text(2), version: s.text(3), source: s.text(4),
                                   bytes: s.int(5), fetched: ISO8601.string(s.int(6)), lastUsed: ISO8601.string(s.int(7) / 1000),
                                   inRegion: s.int(8) != 0)
            }
        }
        let own = packs.filter { !$0.inRegion }
        return AmbientReport(packs: packs.count, bytes: own.reduce(Int64(0)) { $0 + $1.bytes }, packsInRegions: packs.count - own.count,
                             limit: limit, list: packs, store: try summary())
    }

    /// Every pack `serve --repository` may refresh, with the repository version it came from:
    /// ambient packs, and the packs of regions loaded from a repository (sha256 → version).
    public func repositoryPackVersions() throws -> [String: String] {
        var out: [String: String] = [:]
        try db.rows("""
            SELECT rp.sha256, r.tileset FROM region_packs rp JOIN regions r ON r.id = rp.region_id
            WHERE rp.kind = 'map-pack' AND r.load_source IS NOT NULL
            """) { ($0.text(0), jsonValue($0.optionalText(1))["version"]?.stringValue ?? "") }.forEach { out[$0.0] = $0.1 }
        if try hasAmbientTable() {
            try db.rows("SELECT sha256, version FROM ambient_packs") { ($0.text(0), $0.text(1)) }.forEach { out[$0.0] = $0.1 }
        }
        return out
    }

    /// A version 1 or 2 index read without upgrading has no ambient table.
    func hasAmbientTable() throws -> Bool {
        try db.int("SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = 'ambient_packs'") > 0
    }
}

/// What `tilestore ambient` prints.
public struct AmbientReport: Encodable {
    public struct Pack: Encodable {
        public var sha256: String
        public var tileset: String
        public var key: String
        public var version: String
        public var source: String
        public var bytes: Int64
        public var fetched: String
        public var lastUsed: String
        /// A region uses it too: not evicted, not counted in `bytes`.
        public var inRegion: Bool
    }

    public struct Cleared: Encodable {
        public var packsRemoved: Int
        public var bytesFreed: Int64
        public var regionPacksKept: Int
    }

    public var packs: Int
    /// Bytes of the ambient packs no region uses (what the limit bounds).
    public var bytes: Int64
    public var packsInRegions: Int
    @NullWhenNil public var limit: Int64?
    public var list: [Pack]
    @NullWhenNil public var cleared: Cleared?
    public var store: StoreSummary

    init(packs: Int, bytes: Int64, packsInRegions: Int, limit: Int64?, list: [Pack], store: StoreSummary) {
        self.packs = packs; self.bytes = bytes; self.packsInRegions = packsInRegions; self.limit = limit
        self.list = list; self.cleared = nil; self.store = store
    }
}
