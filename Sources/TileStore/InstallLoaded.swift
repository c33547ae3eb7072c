import Foundation
import OffgridCore

/// A region fetched from a repository, ready to install: its map packs as a region directory
/// (`region.json` + `packs/…`, files hard-linked from verified downloads or from the store), its
/// routing tiles (verified files), and what `update` needs to fetch it again.
public struct LoadedRegion {
    public struct RoutingTile {
        public var id: UInt32
        public var sha256: String
        public var bytes: Int64
        /// A complete, hash-checked file (a finished download), or nil when the store has the tile.
        public var file: String?
        public init(id: UInt32, sha256: String, bytes: Int64, file: String?) {
            self.id = id; self.sha256 = sha256; self.bytes = bytes; self.file = file
        }
    }

    public struct Routing {
        public var profile: String
        public var profileHash: String
        public var dataVersion: String
        public var gridDegrees: Double
        public var bbox: [Double]
        public var tiles: [RoutingTile]
        public init(profile: String, profileHash: String, dataVersion: String, gridDegrees: Double, bbox: [Double], tiles: [RoutingTile]) {
            self.profile = profile; self.profileHash = profileHash; self.dataVersion = dataVersion
            self.gridDegrees = gridDegrees; self.bbox = bbox; self.tiles = tiles
        }
    }

    public var id: String
    /// GeoJSON geometry and bbox of the region (what was asked for).
    public var geometry: JSONValue
    public var bbox: [Double]
    /// `tilepack-build maps`-style directory of the map packs, or nil for routing only.
    public var mapDirectory: String?
    public var routing: Routing?
    /// Replaces the region's metadata when given.
    public var metadata: JSONValue?
    /// Where the region came from (repository, tileset, versions, zooms…): kept for `update`.
    public var source: JSONValue
    public var acceptExpired = false
    public var progress: ProgressFactory = SilentProgress.factory

    public init(id: String, geometry: JSONValue, bbox: [Double], source: JSONValue) {
        self.id = id; self.geometry = geometry; self.bbox = bbox; self.source = source
    }
}

/// What installing a loaded region did.
public struct LoadInstallOutcome: Encodable {
    public var created: Bool
    public var objectsWritten: Int
    public var objectsAlreadyStored: Int
    public var bytesWritten: Int64
    public var mapPacks: Int
    public var routingTiles: Int
    @NullWhenNil public var routingDirectory: String?
    public var evicted: EvictionTotals
}

extension TileStore {
    /// Absolute path of the partial-download directory.
    public var partialDirectory: String { files.absolute(StoreLayout.partialDirectory) }

    /// Absolute path of the stored file with this hash when it is stored, intact-sized and not
    /// expired (or `acceptExpired`); nil when a load must fetch it.
    public func usableObjectFile(sha256: String, acceptExpired: Bool) throws -> String? {
        guard let stored = try storedObject(sha256), try ingestAction(sha: sha256, acceptExpired: acceptExpired) == .present else { return nil }
        return files.absolute(stored.path)
    }

    /// What `load` recorded for `update`: the region's load source, or nil (installed from files).
    public func loadSource(regionId id: String) throws -> JSONValue? {
        guard let text = try db.row("SELECT load_source FROM regions WHERE id = ?", [.text(id)], { $0.optionalText(0) }) ?? nil else { return nil }
        return jsonValue(text)
    }

    public func regionExists(_ id: String) throws -> Bool {
        try db.int("SELECT COUNT(*) FROM regions WHERE id = ?", [.text(id)]) > 0
    }

    /// Installs a loaded region in ONE install (one transaction for maps, routing and the
    /// region's record: it appears whole or not at all), through the same plan as `install`
    /// (limits, quota, eviction, staging and checks), then rebuilds its unpacked routing directory.
    public func installLoaded(_ region: LoadedRegion) throws -> LoadInstallOutcome {
        let id = region.id
        let existed = try regionExists(id)
        var options = InstallOptions()
        options.acceptExpired = region.acceptExpired
        options.regionId = id
        options.linkSources = true
        var plan: InstallPlan
        var mapPacks = 0
        if let dir = region.mapDirectory {
            let manifest = try RegionManifest(directory: dir)
            mapPacks = manifest.packs.count
            plan = try mapRegionPlan(directory: dir, manifest: manifest, id: id, options: options)
        } else {
            plan = InstallPlan(what: "loading region \"\(id)\"", progressLabel: "install", progressUnit: .files(itemName: "objects"),
                               items: [], acceptExpired: region.acceptExpired,
                               referencedElsewhere: try referencedHashes(exceptRegion: id, kind: .routingTile), writeIndex: {})
        }
        let mapWrite = plan.writeIndex
        if let routing = region.routing {
            plan.referencedElsewhere.formIntersection(try referencedHashes(exceptRegion: id, kind: .routingTile))
            var seen = Set<String>()
            for t in routing.tiles where seen.insert(t.sha256).inserted {
                plan.items.append(InstallPlan.Item(sha256: t.sha256, bytes: t.bytes) { _ in
                    guard let file = t.file else {
                        throw InputError(file: self.root, "routing tile \(t.id) (\(t.sha256)) left the store during the load; run the load again")
                    }
                    let tmp = self.files.temporaryFile()
                    try FileTools.linkOrCopy(file, to: tmp.path, maxBytes: Int(t.bytes))
                    return (tmp, ObjectRow(sha256: t.sha256, kind: .routingTile, bytes: t.bytes, tiles: 1))
                })
            }
        }
        plan.what = "loading region \"\(id)\""
        plan.writeIndex = {
            if region.mapDirectory != nil {
                try mapWrite()
            } else if !existed {
                try self.insertBareRegion(id: id, geometry: region.geometry, bbox: region.bbox)
            } else {
                try self.journalRegionChanges(id: id, geometry: region.geometry, metadata: nil)
                try self.db.run("UPDATE regions SET geometry = ?, min_lon = ?, min_lat = ?, max_lon = ?, max_lat = ? WHERE id = ?",
                                [.text(jsonText(region.geometry)), .double(region.bbox[0]), .double(region.bbox[1]),
                                 .double(region.bbox[2]), .double(region.bbox[3]), .text(id)])
            }
            if let metadata = region.metadata {
                try self.journalRegionChanges(id: id, geometry: nil, metadata: metadata)
                try self.db.run("UPDATE regions SET metadata = ? WHERE id = ?", [.text(jsonText(metadata)), .text(id)])
            }
            try self.db.run("DELETE FROM region_packs WHERE region_id = ? AND kind = 'routing-tile'", [.text(id)])
            if let routing = region.routing {
                let insert = try self.db.prepare("INSERT INTO region_packs (region_id, kind, name, sha256, bytes, tiles) VALUES (?, 'routing-tile', ?, ?, ?, 1)")
                for t in routing.tiles {
                    try insert.bind([.text(id), .text(String(t.id)), .text(t.sha256), .int(t.bytes)])
                    while try insert.step() {}
                }
                let info: JSONValue = [
                    "source": "repository", "dataVersion": .string(routing.dataVersion),
                    "profile": ["name": .string(routing.profile), "hash": .string(routing.profileHash)],
                    "grid": .double(routing.gridDegrees), "tiles": .int(routing.tiles.count),
                    "directory": .string(self.routingDirectoryRelative(id)),
                ]
                try self.db.run("UPDATE regions SET routing = ? WHERE id = ?", [.text(jsonText(info)), .text(id)])
                try self.refreshExpiries(ofRegion: id)
            }
            try self.db.run("UPDATE regions SET load_source = ?, updated_at = ? WHERE id = ?",
                            [.text(jsonText(region.source)), .int(self.now), .text(id)])
        }
        plan.progressLabel = "install"
        plan.progressUnit = .files(itemName: "objects")
        let outcome = try install(plan, progress: region.progress)
        var directory: String?
        if let routing = region.routing {
            directory = try writeRoutingDirectory(regionId: id, routing: routing)
        }
        return LoadInstallOutcome(
            created: !existed, objectsWritten: outcome.written.count, objectsAlreadyStored: outcome.count(.present),
            bytesWritten: outcome.bytesWritten, mapPacks: mapPacks, routingTiles: region.routing?.tiles.count ?? 0,
            routingDirectory: directory, evicted: EvictionTotals(outcome.evicted))
    }

    private func insertBareRegion(id: String, geometry: JSONValue, bbox: [Double]) throws {
        try db.run("""
            INSERT INTO regions (id, geometry, min_lon, min_lat, max_lon, max_lat, metadata, installed_at, updated_at)
            VALUES (?, ?, ?, ?, ?, ?, 'null', ?, ?)
            """, [.text(id), .text(jsonText(geometry)), .double(bbox[0]), .double(bbox[1]), .double(bbox[2]), .double(bbox[3]),
                  .int(now), .int(now)])
    }
}

extension TileStore {
    /// A region's metadata, or nil when there is no such region.
    public func regionMetadata(id: String) throws -> JSONValue? {
        try db.row("SELECT metadata FROM regions WHERE id = ?", [.text(id)]) { jsonValue($0.text(0)) }
    }
}

extension TileStore {
    /// Whether style `uri` is installed from the pack file named `packFileName` (a load names the
    /// downloaded pack `<sha256>.part`, so the same style pack is not fetched again).
    public func styleIsInstalled(uri: String, packFileName: String) throws -> Bool {
        guard let info = try db.row("SELECT info FROM styles WHERE uri = ?", [.text(uri)], { jsonValue($0.text(0)) }) else { return false }
        return info["pack"]?.stringValue == packFileName
    }
}
