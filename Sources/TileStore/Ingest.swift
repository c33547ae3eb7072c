import Foundation
import OffgridCore

/// What installs share: deciding per file whether it must be copied, checking quota and limits
/// before anything is copied, evicting to make room, and recording objects in the index.
extension TileStore {
    /// A row of `objects`.
    struct ObjectRow {
        var sha256: String
        var kind: StoredObjectKind
        var bytes: Int64
        var tiles: Int?
        var tileset: String?
        var band: (min: Int, max: Int)?
        var parent: (z: Int, x: Int, y: Int)?
        var expiresAt: Int64?
        var path: String { StoreLayout.relativePath(kind: kind, sha256: sha256) }
    }

    /// What an install does with one file it needs.
    enum IngestAction: String {
        /// Stored already, intact size: used as it is (the file is not touched).
        case present
        /// Not stored: copied in.
        case copy
        /// Stored but expired: copied again (unless `--accept-expired`).
        case rewriteExpired
        /// Indexed but its file is missing or has the wrong size: copied again.
        case restore

        var writes: Bool { self != .present }
    }

    /// The stored object with this hash: (path, bytes, expiry), or nil.
    func storedObject(_ sha: String) throws -> (path: String, bytes: Int64, expiresAt: Int64?)? {
        try db.row("SELECT path, bytes, expires_at FROM objects WHERE sha256 = ?", [.text(sha)]) {
            ($0.text(0), $0.int(1), $0.optionalInt(2))
        }
    }

    func ingestAction(sha: String, acceptExpired: Bool) throws -> IngestAction {
        guard let stored = try storedObject(sha) else { return .copy }
        if files.size(stored.path) != stored.bytes { return .restore }
        if let e = stored.expiresAt, e < now, !acceptExpired { return .rewriteExpired }
        return .present
    }

    /// Hashes referenced by regions and styles, leaving out one region's packs of one kind or one
    /// style's resources (the ones an install replaces).
    func referencedHashes(exceptRegion region: String? = nil, kind: StoredObjectKind? = nil,
                          exceptStyle style: String? = nil) throws -> Set<String> {
        var out = Set(try db.rows("SELECT sha256 FROM region_packs WHERE NOT (region_id IS ? AND kind = ?)",
                                  [.optionalText(region), .text(kind?.rawValue ?? "")]) { $0.text(0) })
        out.formUnion(try db.rows("SELECT sha256 FROM style_resources WHERE uri IS NOT ?", [.optionalText(style)]) { $0.text(0) })
        return out
    }

    /// Refuses an install the quota cannot hold even with every file no region or style would
    /// use afterwards evicted. `newBytes`: bytes of files not stored yet.
    func checkQuota(newBytes: Int64, referencedAfter: Set<String>, what: String) throws {
        guard let quota = try quota() else { return }
        let objects = try db.rows("SELECT sha256, bytes FROM objects") { ($0.text(0), $0.int(1)) }
        let total = objects.reduce(Int64(0)) { $0 + $1.1 }
        let kept = objects.filter { referencedAfter.contains($0.0) }.reduce(Int64(0)) { $0 + $1.1 }
        let needed = kept + newBytes
        if needed > quota {
            let room = quota == 0 ? "the quota is 0 (the store was wiped; set a quota or `quota none` to install again)"
                : "over the quota of \(quota) bytes"
            throw InputError("\(what) would exceed the store's quota: it needs \(newBytes) more bytes and the store would hold \(needed) bytes even with every unused file evicted (it holds \(total) now), \(room); remove a region or raise the quota")
        }
    }

    /// Before copying: evicts unused files (never `protecting`) until `newBytes` more fit under the
    /// eviction threshold, when a quota is set and they would not.
    func makeRoom(newBytes: Int64, protecting: Set<String>) throws -> [EvictedObject] {
        guard let quota = try quota() else { return [] }
        let threshold = max(0, quota - evictionMargin)
        let total = try totals().bytes
        guard total + newBytes > threshold else { return [] }
        return try evict(downTo: max(0, threshold - newBytes), protecting: protecting)
    }

    /// After an install or a quota change: evicts unused files, nearest expiry first, once the
    /// store holds more than quota − 50 MB, down to that threshold.
    func evictAboveThreshold() throws -> [EvictedObject] {
        guard let quota = try quota() else { return [] }
        return try evict(downTo: max(0, quota - evictionMargin), protecting: [])
    }

    /// Inserts or refreshes object rows (inside the caller's transaction).
    func recordObjects(_ rows: [ObjectRow]) throws {
        let s = try db.prepare("""
            INSERT OR REPLACE INTO objects (sha256, kind, path, bytes, tiles, tileset, band_min, band_max,
                                            parent_z, parent_x, parent_y, expires_at, installed_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        for r in rows {
            try s.bind([.text(r.sha256), .text(r.kind.rawValue), .text(r.path), .int(r.bytes),
                        .optionalInt(r.tiles.map(Int64.init)), .optionalText(r.tileset),
                        .optionalInt(r.band.map { Int64($0.min) }), .optionalInt(r.band.map { Int64($0.max) }),
                        .optionalInt(r.parent.map { Int64($0.z) }), .optionalInt(r.parent.map { Int64($0.x) }),
                        .optionalInt(r.parent.map { Int64($0.y) }), .optionalInt(r.expiresAt), .int(now)])
            while try s.step() {}
        }
    }

    /// Sets each referenced object's expiry to the latest expiry of the regions using it (never,
    /// when one of them never expires). Objects no region uses keep their last expiry.
    func refreshExpiries(ofRegion id: String) throws {
        try db.run("""
            UPDATE objects SET expires_at = (
                SELECT CASE WHEN COUNT(*) = COUNT(r.expires_at) THEN MAX(r.expires_at) ELSE NULL END
                FROM region_packs rp JOIN regions r ON r.id = rp.region_id WHERE rp.sha256 = objects.sha256)
            WHERE sha256 IN (SELECT sha256 FROM region_packs WHERE region_id = ?)
            """, [.text(id)])
    }

    /// After a failed install: removes files this run put in place that the index does not list.
    func removeUnindexed(_ paths: [String]) {
        for path in paths {
            let indexed = (try? db.int("SELECT COUNT(*) FROM objects WHERE path = ?", [.text(path)])) ?? 1
            if indexed == 0 { files.remove(path) }
        }
    }
}
