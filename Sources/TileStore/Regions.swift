import Foundation
import OffgridCore

extension TileStore {
    private static let regionColumns = """
        r.id, r.geometry, r.min_lon, r.min_lat, r.max_lon, r.max_lat, r.tileset, r.metadata, r.expires, r.expires_at,
        r.routing, r.installed_at, r.updated_at, r.max_packs, r.max_tiles,
        (SELECT COUNT(*) FROM region_packs rp WHERE rp.region_id = r.id AND rp.kind = 'map-pack'),
        (SELECT COUNT(*) FROM region_packs rp WHERE rp.region_id = r.id AND rp.kind = 'routing-pack'),
        (SELECT COALESCE(SUM(bytes), 0) FROM region_packs rp WHERE rp.region_id = r.id),
        (SELECT COALESCE(SUM(tiles), 0) FROM region_packs rp WHERE rp.region_id = r.id AND rp.kind = 'map-pack'),
        \(StoreSchema.regionComplete)
        """

    /// The columns both `list` and `show` give, from a row of `regionColumns`.
    private struct RegionRow {
        var bbox: [Double]?
        var expiresAt: Int64?
        var geometry: JSONValue
        var tileset: JSONValue

        init(_ s: SQLiteStatement) {
            bbox = s.isNull(2) ? nil : [s.double(2), s.double(3), s.double(4), s.double(5)]
            expiresAt = s.optionalInt(9)
            geometry = jsonValue(s.optionalText(1))
            tileset = jsonValue(s.optionalText(6))
        }
    }

    private func listEntry(_ s: SQLiteStatement) -> RegionListEntry {
        let r = RegionRow(s)
        return RegionListEntry(
            id: s.text(0), bbox: r.bbox, metadata: jsonValue(s.text(7)), expires: r.expiresAt.map { ISO8601.string($0) },
            expired: r.expiresAt.map { $0 < now } ?? false, installedAt: ISO8601.string(s.int(11)), updatedAt: ISO8601.string(s.int(12)),
            packs: RegionPackCounts(map: Int(s.int(15)), routing: Int(s.int(16))), bytes: s.int(17), tiles: Int(s.int(18)),
            complete: s.int(19) != 0, tileset: r.tileset["name"]?.stringValue, geometryType: r.geometry["type"]?.stringValue)
    }

    private func details(_ s: SQLiteStatement) -> RegionDetails {
        let r = RegionRow(s)
        return RegionDetails(
            id: s.text(0), bbox: r.bbox, metadata: jsonValue(s.text(7)), expires: r.expiresAt.map { ISO8601.string($0) },
            expired: r.expiresAt.map { $0 < now } ?? false, installedAt: ISO8601.string(s.int(11)), updatedAt: ISO8601.string(s.int(12)),
            packs: RegionPackCounts(map: Int(s.int(15)), routing: Int(s.int(16))), bytes: s.int(17), tiles: Int(s.int(18)),
            complete: s.int(19) != 0, geometry: r.geometry, tileset: r.tileset, routing: jsonValue(s.optionalText(10)),
            limits: .init(maxPacks: s.optionalInt(13).map(Int.init), maxTiles: s.optionalInt(14).map(Int.init)), packList: [])
    }

    /// `list`: every region (id, metadata, bbox, pack counts, bytes, expiry, completeness).
    public func regions() throws -> RegionList {
        try db.readTransaction {
            let regions = try db.rows("SELECT \(Self.regionColumns) FROM regions r ORDER BY r.id") { listEntry($0) }
            return RegionList(regions: regions, store: try summary())
        }
    }

    /// `show ID`: one region in full, with every pack (present or missing, and which other
    /// regions share it).
    public func region(id: String) throws -> RegionDetails {
        try db.readTransaction {
            guard var region = try db.row("SELECT \(Self.regionColumns) FROM regions r WHERE r.id = ?", [.text(id)], { details($0) }) else {
                throw InputError("no region \"\(id)\" in the store (see tilestore list)")
            }
            region.packList = try db.rows("""
                SELECT rp.kind, rp.name, rp.sha256, rp.bytes, rp.tiles, o.path,
                       (SELECT group_concat(other.region_id, char(10)) FROM (SELECT DISTINCT region_id FROM region_packs x
                         WHERE x.sha256 = rp.sha256 AND x.region_id != rp.region_id ORDER BY region_id) other)
                FROM region_packs rp LEFT JOIN objects o ON o.sha256 = rp.sha256
                WHERE rp.region_id = ? ORDER BY rp.kind, rp.name
                """, [.text(id)]) { s in
                RegionDetails.Pack(
                    kind: s.text(0), name: s.text(1), sha256: s.text(2), bytes: s.int(3), tiles: Int(s.int(4)),
                    present: !s.isNull(5), file: s.optionalText(5),
                    sharedWith: s.optionalText(6).map { $0.split(separator: "\n").map(String.init) } ?? [])
            }
            return region
        }
    }

    /// `remove ID`: forgets the region; its packs no other region uses become evictable (their
    /// files stay until evicted).
    public func removeRegion(id: String) throws -> RegionRemovalReport {
        let hashes = Set(try db.rows("SELECT sha256 FROM region_packs WHERE region_id = ?", [.text(id)]) { $0.text(0) })
        let removed = try db.writeTransaction { () -> Int in
            try db.run("DELETE FROM region_packs WHERE region_id = ?", [.text(id)])
            let n = try db.run("DELETE FROM regions WHERE id = ?", [.text(id)])
            if n > 0 { try journal(.regionRemoved, region: id, ["packs": .int(hashes.count)]) }
            return n
        }
        guard removed > 0 else { throw InputError("no region \"\(id)\" in the store (see tilestore list)") }
        removeRoutingDirectory(regionId: id)
        let released = hashes.subtracting(try referencedHashes())
        let releasedBytes = try released.reduce(Int64(0)) { $0 + (try storedObject($1)?.bytes ?? 0) }
        return RegionRemovalReport(removed: id, packs: hashes.count, packsReleased: released.count, bytesReleased: releasedBytes,
                                   packsStillShared: hashes.count - released.count, store: try summary())
    }
}
