import Foundation
import OffgridCore

extension TileStore {
    /// `verify [--repair]`: checks SQLite's own consistency, then every file the index lists (present,
    /// its size, its SHA-256), and lists files the index does not know (orphans, left by a crash
    /// between a copy and its index commit, and `tmp/` leftovers: harmless, removed by repair and
    /// evict). With `repair`: drops the index rows of missing and corrupt files and deletes those
    /// files and the orphans; regions and styles that used them are then incomplete (re-install
    /// them to complete them).
    public func verify(repair: Bool) throws -> VerifyReport {
        let started = MonotonicClock.nanoseconds()
        let check = try db.rows("PRAGMA quick_check") { $0.text(0) }
        let indexOK = check == ["ok"]
        let objects = try db.rows("SELECT sha256, kind, path, bytes FROM objects ORDER BY path") {
            (sha: $0.text(0), kind: $0.text(1), path: $0.text(2), bytes: $0.int(3))
        }
        var corrupt: [VerifyReport.BadFile] = []
        var missing: [VerifyReport.BadFile] = []
        var bad: [(sha: String, path: String)] = []
        var bytesChecked: Int64 = 0
        for o in objects {
            let entry = VerifyReport.BadFile(path: o.path, sha256: o.sha, kind: o.kind)
            guard let size = files.size(o.path) else {
                missing.append(entry)
                bad.append((o.sha, o.path))
                continue
            }
            var problem: String?
            if size != o.bytes {
                problem = "has \(size) bytes, the index says \(o.bytes)"
            } else {
                let (sha, n) = try files.sha256(o.path)
                bytesChecked += n
                if sha != o.sha { problem = "SHA-256 is \(sha)" }
            }
            if let problem {
                var e = entry
                e.problem = problem
                corrupt.append(e)
                bad.append((o.sha, o.path))
            }
        }
        let orphans = try orphanFiles()
        let temporary = files.files(under: StoreLayout.tmpDirectory)
        let consistent = indexOK && bad.isEmpty

        var removed: VerifyReport.Removed?
        if repair {
            try db.writeTransaction {
                for b in bad { try db.run("DELETE FROM objects WHERE sha256 = ?", [.text(b.sha)]) }
            }
            for b in bad { files.remove(b.path) }
            let orphansRemoved = try removeOrphans()
            removed = .init(indexRows: bad.count, files: bad.count + orphansRemoved.count)
        }
        return VerifyReport(
            store: root, consistent: consistent, indexCheck: check.joined(separator: "; "), files: objects.count,
            bytesChecked: bytesChecked, ok: objects.count - bad.count, corrupt: corrupt, missing: missing,
            orphans: orphans, temporaryFiles: temporary, repaired: repair, removed: removed,
            regionsIncomplete: try db.rows("SELECT r.id FROM regions r WHERE NOT (\(StoreSchema.regionComplete)) ORDER BY r.id") { $0.text(0) },
            stylesIncomplete: try db.rows("SELECT s.uri FROM styles s WHERE NOT (\(StoreSchema.styleComplete)) ORDER BY s.uri") { $0.text(0) },
            seconds: MonotonicClock.seconds(since: started))
    }
}
