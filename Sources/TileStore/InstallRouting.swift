import OffgridCore
import Foundation
import RoutingPacks

/// Options of `install-routing` besides `InstallOptions`.
public struct RoutingInstallOptions {
    public var acceptExpired = false
    /// The region's expiry (ISO 8601), when given.
    public var expires: String?
    /// The region's metadata (any JSON), when given.
    public var metadata: JSONValue?
    /// How the install reports progress; silent unless the caller says otherwise.
    public var progress: ProgressFactory = SilentProgress.factory

    public init() {}
}

/// A routing pack as a region records it (the `regions.routing` column, shown by `show`).
struct RoutingInfo: Encodable {
    struct Profile: Encodable { var name: String; var hash: String }
    var pack: String
    var dataVersion: String
    var profile: Profile
    var grid: Double
    var tiles: Int
    var bbox: [Double]
    var createdBy: String
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
    public func installRouting(pack: String, regionId id: String, options: RoutingInstallOptions = RoutingInstallOptions()) throws -> RoutingInstallReport {
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
        let previous = try db.rows("SELECT sha256 FROM region_packs WHERE region_id = ? AND kind = 'routing-pack'", [.text(id)]) { $0.text(0) }
        let regionRow = try db.row("SELECT expires_at FROM regions WHERE id = ?", [.text(id)]) { $0.optionalInt(0) }
        let regionExisted = regionRow != nil
        let regionExpiry = expiresAt ?? (regionRow ?? nil)

        let item = InstallPlan.Item(sha256: sha, bytes: bytes) { progress in
            try self.copyRoutingPack(pack, sha256: sha, bytes: bytes, expiresAt: regionExpiry, progress: progress)
        }
        let h = header.header
        let routing = RoutingInfo(pack: name, dataVersion: h.dataVersion, profile: .init(name: h.profileName, hash: h.profileHash),
                                  grid: h.gridDegrees, tiles: header.tileCount, bbox: h.bboxArray, createdBy: h.createdBy)
        let plan = InstallPlan(
            what: "installing routing pack \(name) for region \"\(id)\"", progressLabel: "install-routing",
            progressUnit: .parts(itemName: "tiles", perFile: header.tileCount),
            items: [item], acceptExpired: options.acceptExpired,
            referencedElsewhere: try referencedHashes(exceptRegion: id, kind: .routingPack),
            writeIndex: {
                let routingText = try jsonText(JSONEncoding.value(routing))
                try self.journal(.regionInstalled, region: id, ["routingPack": .string(name), "dataVersion": .string(h.dataVersion)])
                if regionExisted {
                    if let metadata = options.metadata { try self.journalRegionChanges(id: id, geometry: nil, metadata: metadata) }
                    try self.updateRegion(id: id, routing: routingText, expiresAt: expiresAt, metadata: options.metadata)
                } else {
                    let geometry = h.regionGeoJSON.isEmpty ? Self.bboxPolygon(h.bboxArray) : jsonValue(h.regionGeoJSON)
                    let b = h.bboxArray
                    try self.db.run("""
                        INSERT INTO regions (id, geometry, min_lon, min_lat, max_lon, max_lat, tileset, metadata, expires, expires_at,
                                             routing, installed_at, updated_at)
                        VALUES (?, ?, ?, ?, ?, ?, NULL, ?, ?, ?, ?, ?, ?)
                        """, [.text(id), .text(jsonText(geometry)), .double(b[0]), .double(b[1]), .double(b[2]), .double(b[3]),
                              .text(jsonText(options.metadata ?? .null)),
                              .optionalText(expiresAt.map { ISO8601.string($0) }), .optionalInt(expiresAt),
                              .text(routingText), .int(self.now), .int(self.now)])
                }
                try self.db.run("DELETE FROM region_packs WHERE region_id = ? AND kind = 'routing-pack'", [.text(id)])
                try self.db.run("INSERT INTO region_packs (region_id, kind, name, sha256, bytes, tiles) VALUES (?, 'routing-pack', ?, ?, ?, ?)",
                                [.text(id), .text(name), .text(sha), .int(bytes), .int(header.tileCount)])
                try self.refreshExpiries(ofRegion: id)
            })
        let outcome = try install(plan, progress: options.progress)
        let action = outcome.actions[sha]!
        let stillUsed = try referencedHashes()
        return RoutingInstallReport(
            region: id, pack: pack, sha256: sha, created: !regionExisted,
            copied: action == .copy, alreadyStored: action == .present, rewrittenExpired: action == .rewriteExpired,
            restored: action == .restore, unchanged: previous == [sha],
            packsReleased: Set(previous).subtracting([sha]).subtracting(stillUsed).count,
            bytes: bytes, bytesCopied: outcome.bytesWritten, tiles: header.tileCount, dataVersion: h.dataVersion,
            evicted: EvictionTotals(outcome.evicted), store: try summary(), seconds: MonotonicClock.seconds(since: started))
    }

    /// Copies the pack to `tmp/` (hashing it again: it must not have changed since it was hashed)
    /// and reads every tile of the copy back, checking its CRC32s.
    private func copyRoutingPack(_ pack: String, sha256 sha: String, bytes: Int64, expiresAt: Int64?,
                                 progress: ProgressSink) throws -> (file: TemporaryFile, row: ObjectRow) {
        let (tmp, copySHA, copyBytes) = try files.copyToTemporary(pack)
        do {
            guard copySHA == sha, copyBytes == bytes else {
                throw InputError(file: pack, "changed while it was being installed")
            }
            let reader: RoutingPackReader
            do {
                reader = try RoutingPackReader(path: tmp.path)
                var done: Int64 = 0
                for i in 0..<reader.tileCount {
                    _ = try reader.tileBytes(at: i)
                    done += Int64(reader.entries[i].compressedSize)
                    progress.update(bytesDone: done, itemsDone: i + 1)
                }
            } catch let e as InputError {
                throw InputError(file: pack, offset: e.offset, e.message)
            }
            return (tmp, ObjectRow(sha256: sha, kind: .routingPack, bytes: bytes, tiles: reader.tileCount, expiresAt: expiresAt))
        } catch {
            tmp.discard()
            throw error
        }
    }

    /// An existing region's routing record, and its expiry and metadata when given.
    private func updateRegion(id: String, routing: String, expiresAt: Int64?, metadata: JSONValue?) throws {
        try db.run("UPDATE regions SET routing = ?, updated_at = ? WHERE id = ?", [.text(routing), .int(now), .text(id)])
        if let expiresAt {
            try db.run("UPDATE regions SET expires = ?, expires_at = ? WHERE id = ?",
                       [.text(ISO8601.string(expiresAt)), .int(expiresAt), .text(id)])
        }
        if let metadata {
            try db.run("UPDATE regions SET metadata = ? WHERE id = ?", [.text(jsonText(metadata)), .text(id)])
        }
    }

    static func bboxPolygon(_ b: [Double]) -> JSONValue {
        let ring: [JSONValue] = [[.double(b[0]), .double(b[1])], [.double(b[2]), .double(b[1])], [.double(b[2]), .double(b[3])],
                                 [.double(b[0]), .double(b[3])], [.double(b[0]), .double(b[1])]]
        return ["type": "Polygon", "coordinates": [.array(ring)]]
    }
}
