import Foundation
import StylePacks
import OffgridCore

extension TileStore {
    /// `install-style X.stylepack`: stores the style pack's resources, each once under its SHA-256
    /// (a glyph range two styles share is one file), and records the style under its URI.
    /// Installing a style whose URI is stored already updates it: only resources whose content hash
    /// changed (or that are new) are written; the others are not touched. Resources the style no
    /// longer uses become evictable.
    public func installStyle(pack path: String, progress: ProgressFactory = SilentProgress.factory) throws -> StyleInstallReport {
        let started = MonotonicClock.nanoseconds()
        let pack = try StylePack(path: path)   // checks every resource's CRC32 and SHA-256
        let uri = pack.uri
        let previous = Dictionary(try db.rows("SELECT path, sha256 FROM style_resources WHERE uri = ?", [.text(uri)]) { ($0.text(0), $0.text(1)) },
                                  uniquingKeysWith: { a, _ in a })
        let existed = try db.int("SELECT COUNT(*) FROM styles WHERE uri = ?", [.text(uri)]) > 0

        var firstResource: [String: StylePack.Resource] = [:]
        for r in pack.resources where firstResource[r.contentHash] == nil { firstResource[r.contentHash] = r }
        let items = firstResource.keys.sorted().map { sha in
            let r = firstResource[sha]!
            return InstallPlan.Item(sha256: sha, bytes: Int64(r.length)) { _ in
                let tmp = try self.files.writeTemporary(pack.bytes(of: r)[...])
                return (tmp, ObjectRow(sha256: sha, kind: .styleResource, bytes: Int64(r.length)))
            }
        }
        let info = StoredStyleInfo(
            createdBy: pack.createdBy, glyphs: pack.glyphsMode.rawValue, pixelRatios: pack.pixelRatios, fontStacks: pack.fontStacks,
            sprites: pack.sprites.map { .init(id: $0.id, url: $0.url) },
            sources: pack.sources.map { .init(id: $0.id, type: $0.type, url: $0.url, tiles: $0.tiles) },
            packBytes: pack.fileSize, pack: (path as NSString).lastPathComponent)
        let plan = InstallPlan(
            what: "installing style \"\(uri)\"", progressLabel: "install-style", progressUnit: .files(itemName: "resources"),
            items: items, acceptExpired: true,
            referencedElsewhere: try referencedHashes(exceptStyle: uri),
            writeIndex: {
                try self.journal(.stylePackLoaded, style: uri, ["resources": .int(pack.resources.count)])
                try self.db.run("""
                    INSERT INTO styles (uri, info, installed_at, updated_at) VALUES (?1, ?2, ?3, ?3)
                    ON CONFLICT (uri) DO UPDATE SET info = ?2, updated_at = ?3
                    """, [.text(uri), .text(jsonText(JSONEncoding.value(info))), .int(self.now)])
                try self.db.run("DELETE FROM style_resources WHERE uri = ?", [.text(uri)])
                let insert = try self.db.prepare("""
                    INSERT INTO style_resources (uri, path, kind, url, grp, pixel_ratio, range_start, sha256, bytes, crc32)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """)
                for r in pack.resources {
                    try insert.bind([.text(uri), .text(r.path), .text(r.kind.description), .text(r.url), .text(r.info.group),
                                     .int(r.info.pixelRatio), .int(r.info.rangeStart), .text(r.contentHash), .int(r.length),
                                     .int(Int64(r.crc32))])
                    while try insert.step() {}
                }
            })
        let outcome = try install(plan, progress: progress)
        let hashes = Set(firstResource.keys)
        let stillUsed = try referencedHashes()
        let newPaths = Set(pack.resources.map(\.path))
        return StyleInstallReport(
            uri: uri, pack: path, created: !existed, resources: pack.resources.count, uniqueResources: hashes.count,
            resourcesWritten: outcome.written.count, resourcesAlreadyStored: outcome.count(.present),
            resourcesUnchanged: pack.resources.filter { previous[$0.path] == $0.contentHash }.count,
            resourcesChanged: pack.resources.filter { previous[$0.path] != nil && previous[$0.path] != $0.contentHash }.count,
            resourcesAdded: pack.resources.filter { previous[$0.path] == nil }.count,
            resourcesDropped: Set(previous.keys).subtracting(newPaths).count,
            filesReleased: Set(previous.values).subtracting(hashes).subtracting(stillUsed).count,
            bytes: pack.resources.reduce(Int64(0)) { $0 + Int64($1.length) }, bytesWritten: outcome.bytesWritten,
            evicted: EvictionTotals(outcome.evicted), store: try summary(), seconds: MonotonicClock.seconds(since: started))
    }

    /// `style-packs`: every stored style with its resources' counts and bytes.
    public func styles() throws -> StyleList {
        let styles = try db.rows("""
            SELECT s.uri, s.info, s.installed_at, s.updated_at,
                   (SELECT COUNT(*) FROM style_resources sr WHERE sr.uri = s.uri),
                   (SELECT COALESCE(SUM(bytes), 0) FROM style_resources sr WHERE sr.uri = s.uri),
                   (SELECT COUNT(DISTINCT sha256) FROM style_resources sr WHERE sr.uri = s.uri),
                   \(StoreSchema.styleComplete)
            FROM styles s ORDER BY s.uri
            """) { s -> StyleListEntry in
            let info = jsonValue(s.text(1)).objectValue ?? [:]
            return StyleListEntry(
                uri: s.text(0), installedAt: ISO8601.string(s.int(2)), updatedAt: ISO8601.string(s.int(3)),
                resources: Int(s.int(4)), bytes: s.int(5), uniqueResources: Int(s.int(6)), complete: s.int(7) != 0,
                glyphs: info["glyphs"] ?? .null, pixelRatios: info["pixelRatios"] ?? .null, fontStacks: info["fontStacks"] ?? .null,
                sprites: info["sprites"] ?? .null, sources: info["sources"] ?? .null, createdBy: info["createdBy"] ?? .null,
                pack: info["pack"] ?? .null)
        }
        return StyleList(styles: styles, store: try summary())
    }

    /// `remove-style URI`: forgets the style; resources no other style uses become evictable.
    public func removeStyle(uri: String) throws -> StyleRemovalReport {
        let hashes = Set(try db.rows("SELECT sha256 FROM style_resources WHERE uri = ?", [.text(uri)]) { $0.text(0) })
        let removed = try db.writeTransaction { () -> Int in
            try db.run("DELETE FROM style_resources WHERE uri = ?", [.text(uri)])
            let n = try db.run("DELETE FROM styles WHERE uri = ?", [.text(uri)])
            if n > 0 { try journal(.stylePackRemoved, style: uri) }
            return n
        }
        guard removed > 0 else { throw InputError("no style \"\(uri)\" in the store (see tilestore style-packs)") }
        let released = hashes.subtracting(try referencedHashes())
        return StyleRemovalReport(removed: uri, filesReleased: released.count, store: try summary())
    }
}
