import Foundation
import OffgridCore

extension TileStore {
    /// Evicts files no region or style uses, nearest expiry first (files that never expire last,
    /// then oldest install first), until the store holds at most `target` bytes or none is left.
    /// Index rows go first (one transaction), then the files: a crash in between leaves orphan
    /// files, never rows without files.
    func evict(downTo target: Int64, protecting: Set<String>) throws -> [EvictedObject] {
        var total = try totals().bytes
        guard total > target else { return [] }
        let candidates = try db.rows("""
            SELECT sha256, kind, path, bytes, expires_at FROM objects o WHERE \(StoreSchema.unreferenced)
            ORDER BY expires_at IS NULL, expires_at, installed_at, sha256
            """) { s -> (EvictedObject, String) in
            (EvictedObject(sha256: s.text(0), kind: StoredObjectKind(rawValue: s.text(1)) ?? .mapPack,
                           bytes: s.int(3), expiresAt: s.optionalInt(4)), s.text(2))
        }
        var chosen: [(EvictedObject, String)] = []
        for c in candidates where total > target && !protecting.contains(c.0.sha256) {
            chosen.append(c)
            total -= c.0.bytes
        }
        return try removeObjects(chosen)
    }

    /// Removes index rows (only if still unused) and then their files.
    func removeObjects(_ chosen: [(EvictedObject, String)]) throws -> [EvictedObject] {
        guard !chosen.isEmpty else { return [] }
        var removed: [(EvictedObject, String)] = []
        try db.writeTransaction {
            let s = try db.prepare("DELETE FROM objects AS o WHERE sha256 = ? AND \(StoreSchema.unreferenced)")
            for c in chosen {
                try s.bind([.text(c.0.sha256)])
                while try s.step() {}
                if sqlite3Changes(db) > 0 { removed.append(c) }
            }
        }
        CrashPoint.reached(.evictedRows)
        for (_, path) in removed { files.remove(path) }
        return removed.map(\.0)
    }

    /// Every file no region or style uses, in eviction order.
    func evictAllUnused() throws -> [EvictedObject] {
        try evict(downTo: -1, protecting: [])
    }

    /// Files under the object directories that the index does not list (left by a crash between
    /// a rename and the index commit, or by a repair), plus anything in `tmp/`. Only meaningful
    /// under a lock (a writer's in-flight files would look like orphans).
    func orphanFiles() throws -> [String] {
        let known = Set(try db.rows("SELECT path FROM objects") { $0.text(0) })
        var out: [String] = []
        for kind in StoredObjectKind.allCases {
            out += files.files(under: kind.directory).filter { !known.contains($0) }
        }
        return out
    }

    /// Removes orphan and temporary files (exclusive lock held).
    func removeOrphans() throws -> [String] {
        let orphans = try orphanFiles() + files.files(under: StoreLayout.tmpDirectory)
        for f in orphans { files.remove(f) }
        return orphans
    }

    // MARK: - Commands

    /// `quota BYTES` / `quota none`: sets the quota, then evicts above the threshold. A quota of 0
    /// wipes the store: every region and style is removed and every file deleted, and installs are
    /// refused until the quota is raised. `overQuota` in the report says when the regions and
    /// styles alone use more than the quota (nothing can be evicted to fit it).
    public func setQuota(_ quota: Int64?) throws -> QuotaReport {
        guard quota == 0 else {
            try db.writeTransaction { try setQuotaRow(quota) }
            let evicted = try evictAboveThreshold()
            let bytes = try totals().bytes
            return QuotaReport(quota: quota, wiped: false, evicted: EvictionTotals(evicted), overQuota: quota.map { bytes > $0 } ?? false,
                               store: try summary())
        }
        let regions = Int(try db.int("SELECT COUNT(*) FROM regions"))
        let styles = Int(try db.int("SELECT COUNT(*) FROM styles"))
        let before = try totals()
        try db.writeTransaction {
            try journal(.storeWiped, ["regions": .int(regions), "styles": .int(styles)])
            try db.run("DELETE FROM region_packs")
            try db.run("DELETE FROM regions")
            try db.run("DELETE FROM style_resources")
            try db.run("DELETE FROM styles")
            try db.run("DELETE FROM objects")
            try setQuotaRow(0)
        }
        let removed = try removeOrphans()
        return QuotaReport(quota: quota, wiped: true, regionsRemoved: regions, stylesRemoved: styles, filesRemoved: removed.count,
                           bytesFreed: before.bytes, evicted: EvictionTotals(files: before.files, bytes: before.bytes),
                           store: try summary())
    }

    /// `quota` without an argument.
    public func quotaStatus() throws -> QuotaStatus {
        QuotaStatus(quota: try quota(), store: try summary())
    }

    /// `evict`: evicts above the threshold (or every unused file with `all`), and removes orphan
    /// and temporary files.
    public func evictUnused(all: Bool) throws -> EvictReport {
        let orphans = try removeOrphans()
        let evicted = all ? try evictAllUnused() : try evictAboveThreshold()
        let q = try quota()
        return EvictReport(evicted: evicted, evictedFiles: evicted.count, evictedBytes: evicted.reduce(Int64(0)) { $0 + $1.bytes },
                           orphansRemoved: orphans.count, quota: q, evictionThreshold: q.map { max(0, $0 - evictionMargin) },
                           store: try summary())
    }
}

import CSQLite

/// Rows changed by the last statement.
func sqlite3Changes(_ db: SQLiteDatabase) -> Int { Int(sqlite3_changes(db.handle)) }
