import OffgridCore
import Foundation
import RoutingPacks

/// Options of `install-routing` besides `InstallOptions`.
public struct RoutingInstallOptions {
    public var acceptExpired = false
    /// The region's expiry (ISO 8601), when given.
    public var expires: String?
    /// The region's metadata (any JSON), when given.
    public var metadata: Any?
    /// How the install reports progress; silent unless the caller says otherwise.
    public var progress: ProgressFactory = SilentProgress.factory

    public init() {}
}

extension TileStore {
    /// `install-routing X.routing.pack --region-id ID`: stores a routing pack and makes it region
    /// ID's routing pack (replacing the one it had; its map packs are kept). A region that does not
    /// exist is created with the pack's geometry (its GeoJSON, else its bbox).
    ///
    /// The pack is read once to hash it (a pack stored already is not copied), then copied to
    /// `tmp/` while hashing again (the hashes must agree), and the copy is opened with
    /// `RoutingPackReader` and every tile decompressed and checked against its CRC32s before it
    /// is renamed into place.
    public func installRouting(pack: String, regionId id: String, options: RoutingInstallOptions = RoutingInstallOptions()) throws -> [String: Any] {
        let started = MonotonicClock.nanoseconds()
        guard !id.isEmpty else { throw InputError("--region-id must not be empty") }
        let header = try RoutingPackReader(path: pack)   // a foreign or truncated file fails here, before any work
        var expiresAt: Int64?
        if let e = options.expires {
            guard let s = Expiry.parse(e) else { throw InputError("--expires \"\(e)\" is not a date (ISO 8601, e.g. 2025-06-01T00:00:00Z)") }
            expiresAt = s
            if s < now && !options.acceptExpired {
                throw InputError("region \"\(id)\" would expire on \(ISO8601.string(s)), in the past; pass --accept-expired to install it anyway")
            }
        }
        let sha = try StoreFiles.hashFile(atPath: pack).sha256
        let bytes = Int64(header.fileSize)
        let name = (pack as NSString).lastPathComponent
        let action = try ingestAction(sha: sha, acceptExpired: options.acceptExpired)
        let previous = try db.rows("SELECT sha256 FROM region_packs WHERE region_id = ? AND kind = 'routing-pack'", [.text(id)]) { $0.text(0) }
        let regionRow = try db.row("SELECT expires_at FROM regions WHERE id = ?", [.text(id)]) { $0.optionalInt(0) }
        let regionExisted = regionRow != nil
        let regionExpiry = expiresAt ?? (regionRow ?? nil)

        let referencedAfter = try referencedHashes(exceptRegion: id, kind: .routingPack).union([sha])
        let newBytes: Int64 = action == .copy ? bytes : 0
        try checkQuota(newBytes: newBytes, referencedAfter: referencedAfter, what: "installing routing pack \(name) for region \"\(id)\"")
        var evicted = try makeRoom(newBytes: newBytes, protecting: referencedAfter)

        let reporter = options.progress("install-routing", action.writes ? bytes : 0, action.writes ? header.tileCount : 0, "tiles")
        var published: [String] = []
        do {
            var rows: [ObjectRow] = []
            if action.writes {
                let (tmp, copySHA, copyBytes) = try files.copyToTemporary(pack)
                do {
                    guard copySHA == sha, copyBytes == bytes else {
                        throw InputError(file: pack, "changed while it was being installed")
                    }
                    do {
                        let reader = try RoutingPackReader(path: tmp.path)
                        var done: Int64 = 0
                        for i in 0..<reader.tileCount {
                            _ = try reader.tileBytes(at: i)
                            done += Int64(reader.entries[i].compressedSize)
                            reporter.update(bytesDone: done, itemsDone: i + 1)
                        }
                    } catch let e as InputError {
                        throw InputError(file: pack, offset: e.offset, e.message)
                    }
                    let row = ObjectRow(sha256: sha, kind: .routingPack, bytes: bytes, tiles: header.tileCount, expiresAt: regionExpiry)
                    published.append(row.path)
                    try files.publish([(tmp, row.path)])
                    rows.append(row)
                } catch {
                    tmp.discard()
                    throw error
                }
            }
            let h = header.header
            let routing: [String: Any] = [
                "pack": name,
                "dataVersion": h.dataVersion,
                "profile": ["name": h.profileName, "hash": h.profileHash],
                "grid": h.gridDegrees,
                "tiles": header.tileCount,
                "bbox": h.bboxArray,
                "createdBy": h.createdBy,
            ]
            let geometry: Any = h.regionGeoJSON.isEmpty ? Self.bboxPolygon(h.bboxArray) : jsonValue(h.regionGeoJSON)
            try db.writeTransaction {
                try recordObjects(rows)
                if regionExisted {
                    try db.run("UPDATE regions SET routing = ?, updated_at = ? WHERE id = ?", [.text(jsonText(routing)), .int(now), .text(id)])
                    if let expiresAt {
                        try db.run("UPDATE regions SET expires = ?, expires_at = ? WHERE id = ?",
                                   [.text(ISO8601.string(expiresAt)), .int(expiresAt), .text(id)])
                    }
                    if let metadata = options.metadata {
                        try db.run("UPDATE regions SET metadata = ? WHERE id = ?", [.text(jsonText(metadata)), .text(id)])
                    }
                } else {
                    let b = h.bboxArray
                    try db.run("""
                        INSERT INTO regions (id, geometry, min_lon, min_lat, max_lon, max_lat, tileset, metadata, expires, expires_at,
                                             routing, installed_at, updated_at)
                        VALUES (?, ?, ?, ?, ?, ?, NULL, ?, ?, ?, ?, ?, ?)
                        """, [.text(id), .text(jsonText(geometry)), .double(b[0]), .double(b[1]), .double(b[2]), .double(b[3]),
                              .text(jsonText(options.metadata ?? NSNull())),
                              .optionalText(expiresAt.map { ISO8601.string($0) }), .optionalInt(expiresAt),
                              .text(jsonText(routing)), .int(now), .int(now)])
                }
                try db.run("DELETE FROM region_packs WHERE region_id = ? AND kind = 'routing-pack'", [.text(id)])
                try db.run("INSERT INTO region_packs (region_id, kind, name, sha256, bytes, tiles) VALUES (?, 'routing-pack', ?, ?, ?, ?)",
                           [.text(id), .text(name), .text(sha), .int(bytes), .int(header.tileCount)])
                try refreshExpiries(ofRegion: id)
            }
        } catch {
            reporter.cancel()
            removeUnindexed(published)
            throw error
        }
        CrashPoint.reached(.committed)
        reporter.finish()
        evicted += try evictAboveThreshold()
        let stillUsed = try referencedHashes()
        return [
            "region": id,
            "pack": pack,
            "sha256": sha,
            "created": !regionExisted,
            "copied": action == .copy,
            "alreadyStored": action == .present,
            "rewrittenExpired": action == .rewriteExpired,
            "restored": action == .restore,
            "unchanged": previous == [sha],
            "packsReleased": Set(previous).subtracting([sha]).subtracting(stillUsed).count,
            "bytes": bytes,
            "bytesCopied": action.writes ? bytes : Int64(0),
            "tiles": header.tileCount,
            "dataVersion": header.header.dataVersion,
            "evicted": evictionJSON(evicted),
            "store": try summaryJSON(),
            "seconds": Double(MonotonicClock.nanoseconds() - started) / 1e9,
        ]
    }

    static func bboxPolygon(_ b: [Double]) -> [String: Any] {
        ["type": "Polygon", "coordinates": [[[b[0], b[1]], [b[2], b[1]], [b[2], b[3]], [b[0], b[3]], [b[0], b[1]]]]]
    }
}
