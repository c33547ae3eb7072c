import OffgridCore
import Foundation
import MapPacks

/// Options of `install` (`install-routing` has `RoutingInstallOptions`).
public struct InstallOptions {
    /// Install (and keep) expired data: an expired region is refused, and stored packs past their
    /// expiry are copied again, unless this is set.
    public var acceptExpired = false
    /// Region id instead of the manifest's.
    public var regionId: String?
    /// Limits instead of the manifest's (`limits.maxPacks`, `limits.maxTiles`).
    public var maxPacks: Int?
    public var maxTiles: Int?
    /// How the install reports progress; silent unless the caller says otherwise.
    public var progress: ProgressFactory = SilentProgress.factory
    /// Hard-link the region directory's pack files instead of copying them (only for files the
    /// store owns: a load's finished downloads).
    var linkSources = false

    public init() {}
}

extension TileStore {
    /// `install REGION_DIR`: installs or updates a map region from a `tilepack-build maps` output.
    ///
    /// Every pack is checked before anything is copied: its file exists with the manifest's size,
    /// the store's pack limits (counting packs shared with other regions once) and its quota hold.
    /// Packs are then copied to `tmp/`, hashed (SHA-256 equal to the manifest's), read back with
    /// `MapPackReader` (structure and every tile's CRC32, parent and band equal to the manifest's)
    /// and renamed to their content-addressed name; a pack already stored is not copied (its file
    /// is not touched). The region's record and pack list are then replaced in one transaction.
    public func installRegion(directory: String, options: InstallOptions = InstallOptions()) throws -> RegionInstallReport {
        let started = MonotonicClock.nanoseconds()
        let manifest = try RegionManifest(directory: directory)
        let id = options.regionId ?? manifest.id
        let previous = Dictionary(try db.rows("SELECT name, sha256 FROM region_packs WHERE region_id = ? AND kind = 'map-pack'",
                                              [.text(id)]) { ($0.text(0), $0.text(1)) }, uniquingKeysWith: { a, _ in a })
        let regionExisted = try db.int("SELECT COUNT(*) FROM regions WHERE id = ?", [.text(id)]) > 0
        let plan = try mapRegionPlan(directory: directory, manifest: manifest, id: id, options: options)
        let outcome = try install(plan, progress: options.progress)

        // What changed.
        let newShas = Set(manifest.packs.map(\.sha256))
        let releasedShas = Set(previous.values).subtracting(newShas)
        let stillUsed = try referencedHashes()
        return RegionInstallReport(
            region: id, directory: directory, created: !regionExisted, packs: manifest.packs.count,
            packsCopied: outcome.count(.copy), packsAlreadyStored: outcome.count(.present),
            packsRewrittenExpired: outcome.count(.rewriteExpired), packsRestored: outcome.count(.restore),
            packsUnchanged: manifest.packs.filter { previous[$0.path] == $0.sha256 }.count,
            packsChanged: manifest.packs.filter { previous[$0.path] != nil && previous[$0.path] != $0.sha256 }.count,
            packsAdded: manifest.packs.filter { previous[$0.path] == nil }.count,
            packsDropped: Set(previous.keys).subtracting(manifest.packs.map(\.path)).count,
            packsReleased: releasedShas.subtracting(stillUsed).count,
            bytesCopied: outcome.bytesWritten,
            bytes: manifest.packs.reduce(Int64(0)) { $0 + $1.bytes },
            tiles: manifest.packs.reduce(0) { $0 + $1.tiles },
            expires: manifest.expiresAt.map { ISO8601.string($0) },
            evicted: EvictionTotals(outcome.evicted), store: try summary(),
            seconds: MonotonicClock.seconds(since: started))
    }

    /// The install plan of a map region directory (files checked, items, limits, index rows).
    func mapRegionPlan(directory: String, manifest: RegionManifest, id: String, options: InstallOptions) throws -> InstallPlan {
        if let e = manifest.expiresAt, e < now, !options.acceptExpired {
            throw InputError(file: manifest.file, "region \"\(id)\" expired on \(ISO8601.string(e)); pass --accept-expired to install it anyway")
        }
        // The files, before any work.
        for p in manifest.packs {
            let source = (directory as NSString).appendingPathComponent(p.path)
            var st = stat()
            guard stat(source, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else {
                throw InputError(file: source, "missing: region.json lists it but the region directory has no such file")
            }
            guard Int64(st.st_size) == p.bytes else {
                throw InputError(file: source, "has \(st.st_size) bytes, region.json says \(p.bytes)")
            }
        }

        var seen: Set<String> = []
        let items = manifest.packs.filter { seen.insert($0.sha256).inserted }.map { p in
            InstallPlan.Item(sha256: p.sha256, bytes: p.bytes) { _ in
                try self.copyMapPack(p, directory: directory, manifest: manifest, linkSources: options.linkSources)
            }
        }
        return InstallPlan(
            what: "installing region \"\(id)\"", progressLabel: "install", progressUnit: .files(itemName: "packs"),
            items: items, acceptExpired: options.acceptExpired,
            referencedElsewhere: try referencedHashes(exceptRegion: id, kind: .mapPack),
            // Limits across regions, shared packs counted once.
            checkLimits: { try self.checkPackLimits(regionId: id, manifest: manifest, options: options) },
            writeIndex: {
                try self.journalRegionChanges(id: id, geometry: manifest.geometry, metadata: manifest.metadata)
                try self.upsertRegion(id: id, manifest: manifest, options: options)
                try self.journal(.regionInstalled, region: id, ["packs": .int(manifest.packs.count), "directory": .string(directory)])
                try self.db.run("DELETE FROM region_packs WHERE region_id = ? AND kind = 'map-pack'", [.text(id)])
                let insert = try self.db.prepare("INSERT INTO region_packs (region_id, kind, name, sha256, bytes, tiles) VALUES (?, 'map-pack', ?, ?, ?, ?)")
                for p in manifest.packs {
                    try insert.bind([.text(id), .text(p.path), .text(p.sha256), .int(p.bytes), .int(p.tiles)])
                    while try insert.step() {}
                }
                try self.refreshExpiries(ofRegion: id)
            })
    }

    /// Copies one pack to `tmp/` and checks the copy.
    func copyMapPack(_ p: RegionManifest.Pack, directory: String, manifest: RegionManifest, linkSources: Bool = false) throws -> (file: TemporaryFile, row: ObjectRow) {
        let source = (directory as NSString).appendingPathComponent(p.path)
        // A load's packs are the store's own downloads: linked, not copied again.
        let (tmp, sha, bytes) = linkSources ? try files.linkToTemporary(source, trusting: p.sha256) : try files.copyToTemporary(source)
        do {
            guard sha == p.sha256 else {
                throw InputError(file: source, "SHA-256 \(sha) does not match region.json (\(p.sha256)): the pack is corrupt or was changed")
            }
            guard bytes == p.bytes else { throw InputError(file: source, "has \(bytes) bytes, region.json says \(p.bytes)") }
            let row = try checkedMapPack(tmp.path, source: source, sha256: sha, bytes: bytes, expectedPath: p.path,
                                         tileset: manifest.tilesetName, expiresAt: manifest.expiresAt)
            return (tmp, row)
        } catch {
            tmp.discard()
            throw error
        }
    }

    /// Checks a staged map pack's content (every tile's CRC32, the header's band, parent and
    /// tileset against what the caller expects) and makes its object row. Errors name `source`.
    func checkedMapPack(_ staged: String, source: String, sha256 sha: String, bytes: Int64, expectedPath: String,
                        tileset: String?, expiresAt: Int64?) throws -> ObjectRow {
        let reader: MapPackReader
        do {
            reader = try MapPackReader(path: staged)
            try reader.verify()
        } catch let e as InputError {
            throw InputError(file: source, offset: e.offset, e.message)
        } catch let e as BinaryFormatError {
            throw InputError(file: source, offset: e.offset, e.message)
        }
        let h = reader.header
        guard h.relativePath == expectedPath else {
            throw InputError(file: source, "holds pack \(h.relativePath) (band \(h.band), parent \(h.parent)), not \(expectedPath)")
        }
        if let name = tileset, h.tilesetId != name {
            throw InputError(file: source, "is a pack of tileset \"\(h.tilesetId)\", expected \"\(name)\"")
        }
        return ObjectRow(sha256: sha, kind: .mapPack, bytes: bytes, tiles: reader.entries.count, tileset: h.tilesetId,
                         band: (h.band.minZoom, h.band.maxZoom), parent: (h.parent.z, h.parent.x, h.parent.y), expiresAt: expiresAt)
    }

    func upsertRegion(id: String, manifest: RegionManifest, options: InstallOptions) throws {
        let b = manifest.bbox
        let maxPacks = options.maxPacks ?? manifest.maxPacks
        let maxTiles = options.maxTiles ?? manifest.maxTiles
        try db.run("""
            INSERT INTO regions (id, geometry, min_lon, min_lat, max_lon, max_lat, tileset, metadata, expires, expires_at,
                                 max_packs, max_tiles, installed_at, updated_at)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?13)
            ON CONFLICT (id) DO UPDATE SET geometry = ?2, min_lon = ?3, min_lat = ?4, max_lon = ?5, max_lat = ?6,
                tileset = ?7, metadata = ?8, expires = ?9, expires_at = ?10, max_packs = ?11, max_tiles = ?12, updated_at = ?13
            """, [.text(id), .text(jsonText(manifest.geometry)),
                  b.map { .double($0[0]) } ?? .null, b.map { .double($0[1]) } ?? .null,
                  b.map { .double($0[2]) } ?? .null, b.map { .double($0[3]) } ?? .null,
                  .text(jsonText(.object(manifest.tileset))), .text(jsonText(manifest.metadata)),
                  .optionalText(manifest.expires), .optionalInt(manifest.expiresAt),
                  .optionalInt(maxPacks.map(Int64.init)), .optionalInt(maxTiles.map(Int64.init)), .int(now)])
    }

    /// The unique map packs (and, when a limit is set, their tiles) the store's regions would use
    /// with this region installed, against the smallest limit any of those regions' manifests set
    /// (750 packs when a manifest sets none). Checked before anything is copied.
    func checkPackLimits(regionId id: String, manifest: RegionManifest, options: InstallOptions) throws {
        let others = try db.rows("SELECT max_packs, max_tiles FROM regions WHERE id != ? AND EXISTS (SELECT 1 FROM region_packs rp WHERE rp.region_id = regions.id AND rp.kind = 'map-pack')",
                                 [.text(id)]) { ($0.optionalInt(0).map(Int.init), $0.optionalInt(1).map(Int.init)) }
        let ownPacks = options.maxPacks ?? manifest.maxPacks ?? defaultMaxPacks
        let packLimit = others.reduce(ownPacks) { min($0, $1.0 ?? defaultMaxPacks) }
        let tileLimits = ([options.maxTiles ?? manifest.maxTiles] + others.map(\.1)).compactMap { $0 }
        let otherPacks = Dictionary(try db.rows("SELECT sha256, tiles FROM region_packs WHERE region_id != ? AND kind = 'map-pack'",
                                                [.text(id)]) { ($0.text(0), Int($0.int(1))) }, uniquingKeysWith: { a, _ in a })
        var all = otherPacks
        for p in manifest.packs { all[p.sha256] = p.tiles }
        let shared = manifest.packs.filter { otherPacks[$0.sha256] != nil }.count
        if all.count > packLimit {
            throw InputError(file: manifest.file, "too many map packs: with region \"\(id)\" (\(manifest.packs.count) packs, \(shared) shared with other regions) the store's regions would use \(all.count) unique packs, over the limit of \(packLimit); remove a region first or raise --max-packs")
        }
        if let tileLimit = tileLimits.min() {
            let tiles = all.values.reduce(0, +)
            if tiles > tileLimit {
                throw InputError(file: manifest.file, "too many tiles: with region \"\(id)\" the store's regions would hold \(tiles) tiles in \(all.count) unique packs, over the limit of \(tileLimit); remove a region first or raise --max-tiles")
            }
        }
    }
}

