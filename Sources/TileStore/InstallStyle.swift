import Foundation
import StylePacks
import OffgridCore

extension TileStore {
    /// `install-style X.stylepack`: stores the style pack's resources, each once under its SHA-256
    /// (a glyph range two styles share is one file), and records the style under its URI.
    /// Installing a style whose URI is stored already updates it: only resources whose content hash
    /// changed (or that are new) are written; the others are not touched. Resources the style no
    /// longer uses become evictable.
    public func installStyle(pack path: String) throws -> [String: Any] {
        let started = MonotonicClock.nanoseconds()
        let pack = try StylePack(path: path)   // checks every resource's CRC32 and SHA-256
        let uri = pack.uri
        let previous = Dictionary(try db.rows("SELECT path, sha256 FROM style_resources WHERE uri = ?", [.text(uri)]) { ($0.text(0), $0.text(1)) },
                                  uniquingKeysWith: { a, _ in a })
        let existed = try db.int("SELECT COUNT(*) FROM styles WHERE uri = ?", [.text(uri)]) > 0

        var actions: [String: IngestAction] = [:]
        var firstResource: [String: StylePack.Resource] = [:]
        for r in pack.resources where actions[r.contentHash] == nil {
            actions[r.contentHash] = try ingestAction(sha: r.contentHash, acceptExpired: true)
            firstResource[r.contentHash] = r
        }
        let hashes = Set(actions.keys)
        let referencedAfter = try referencedHashes(exceptStyle: uri).union(hashes)
        let newBytes = actions.filter { $0.value == .copy }.reduce(Int64(0)) { $0 + Int64(firstResource[$1.key]!.length) }
        try checkQuota(newBytes: newBytes, referencedAfter: referencedAfter, what: "installing style \"\(uri)\"")
        var evicted = try makeRoom(newBytes: newBytes, protecting: referencedAfter)

        var batch: [(file: TemporaryFile, relative: String)] = []
        var rows: [ObjectRow] = []
        var bytesWritten: Int64 = 0
        do {
            for sha in actions.keys.sorted() where actions[sha]!.writes {
                let r = firstResource[sha]!
                let tmp = try files.writeTemporary(pack.bytes(of: r)[...])
                let row = ObjectRow(sha256: sha, kind: .styleResource, bytes: Int64(r.length))
                batch.append((tmp, row.path))
                rows.append(row)
                bytesWritten += Int64(r.length)
            }
            try files.publish(batch)
            let info: [String: Any] = [
                "createdBy": pack.createdBy,
                "glyphs": pack.glyphsMode.rawValue,
                "pixelRatios": pack.pixelRatios,
                "fontStacks": pack.fontStacks,
                "sprites": pack.sprites.map { ["id": $0.id, "url": $0.url] },
                "sources": pack.sources.map { ["id": $0.id, "type": $0.type, "url": $0.url, "tiles": $0.tiles] as [String: Any] },
                "packBytes": pack.fileSize,
                "pack": (path as NSString).lastPathComponent,
            ]
            try db.writeTransaction {
                try recordObjects(rows)
                try db.run("""
                    INSERT INTO styles (uri, info, installed_at, updated_at) VALUES (?1, ?2, ?3, ?3)
                    ON CONFLICT (uri) DO UPDATE SET info = ?2, updated_at = ?3
                    """, [.text(uri), .text(jsonText(info)), .int(now)])
                try db.run("DELETE FROM style_resources WHERE uri = ?", [.text(uri)])
                let insert = try db.prepare("""
                    INSERT INTO style_resources (uri, path, kind, url, grp, pixel_ratio, range_start, sha256, bytes, crc32)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """)
                for r in pack.resources {
                    try insert.bind([.text(uri), .text(r.path), .text(r.kind.description), .text(r.url), .text(r.info.group),
                                     .int(r.info.pixelRatio), .int(r.info.rangeStart), .text(r.contentHash), .int(r.length),
                                     .int(Int64(r.crc32))])
                    while try insert.step() {}
                }
            }
        } catch {
            for (tmp, _) in batch { tmp.discard() }
            removeUnindexed(batch.map(\.relative))
            throw error
        }
        CrashPoint.reached(.committed)
        evicted += try evictAboveThreshold()
        let stillUsed = try referencedHashes()
        let newPaths = Set(pack.resources.map(\.path))
        return [
            "uri": uri,
            "pack": path,
            "created": !existed,
            "resources": pack.resources.count,
            "uniqueResources": hashes.count,
            "resourcesWritten": rows.count,
            "resourcesAlreadyStored": actions.values.filter { $0 == .present }.count,
            "resourcesUnchanged": pack.resources.filter { previous[$0.path] == $0.contentHash }.count,
            "resourcesChanged": pack.resources.filter { previous[$0.path] != nil && previous[$0.path] != $0.contentHash }.count,
            "resourcesAdded": pack.resources.filter { previous[$0.path] == nil }.count,
            "resourcesDropped": Set(previous.keys).subtracting(newPaths).count,
            "filesReleased": Set(previous.values).subtracting(hashes).subtracting(stillUsed).count,
            "bytes": pack.resources.reduce(Int64(0)) { $0 + Int64($1.length) },
            "bytesWritten": bytesWritten,
            "evicted": evictionJSON(evicted),
            "store": try summaryJSON(),
            "seconds": Double(MonotonicClock.nanoseconds() - started) / 1e9,
        ]
    }

    /// `style-packs`: every stored style with its resources' counts and bytes.
    public func stylesJSON() throws -> [String: Any] {
        let styles = try db.rows("""
            SELECT s.uri, s.info, s.installed_at, s.updated_at,
                   (SELECT COUNT(*) FROM style_resources sr WHERE sr.uri = s.uri),
                   (SELECT COALESCE(SUM(bytes), 0) FROM style_resources sr WHERE sr.uri = s.uri),
                   (SELECT COUNT(DISTINCT sha256) FROM style_resources sr WHERE sr.uri = s.uri),
                   \(StoreSchema.styleComplete)
            FROM styles s ORDER BY s.uri
            """) { s -> [String: Any] in
            let info = jsonValue(s.text(1)) as? [String: Any] ?? [:]
            var out: [String: Any] = [
                "uri": s.text(0),
                "installedAt": ISO8601.string(s.int(2)),
                "updatedAt": ISO8601.string(s.int(3)),
                "resources": Int(s.int(4)),
                "bytes": s.int(5),
                "uniqueResources": Int(s.int(6)),
                "complete": s.int(7) != 0,
            ]
            for key in ["glyphs", "pixelRatios", "fontStacks", "sprites", "sources", "createdBy", "pack"] {
                out[key] = info[key] ?? NSNull()
            }
            return out
        }
        return ["styles": styles, "store": try summaryJSON()]
    }

    /// `remove-style URI`: forgets the style; resources no other style uses become evictable.
    public func removeStyle(uri: String) throws -> [String: Any] {
        let hashes = Set(try db.rows("SELECT sha256 FROM style_resources WHERE uri = ?", [.text(uri)]) { $0.text(0) })
        let removed = try db.writeTransaction { () -> Int in
            try db.run("DELETE FROM style_resources WHERE uri = ?", [.text(uri)])
            return try db.run("DELETE FROM styles WHERE uri = ?", [.text(uri)])
        }
        guard removed > 0 else { throw InputError("no style \"\(uri)\" in the store (see tilestore style-packs)") }
        let released = hashes.subtracting(try referencedHashes())
        return ["removed": uri, "filesReleased": released.count, "store": try summaryJSON()]
    }
}
