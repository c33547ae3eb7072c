import Foundation
import MapPacks
import OffgridCore
import PackRepository
import RepositoryClient
import TileMath
import TileStore

/// Turns fetched objects into one store install: the map packs as a region directory in the
/// store's `tmp/` (hard links to the finished downloads or to the store's own files, and a
/// `region.json` made from the tileset index), the routing tiles, the region record and what
/// `update` needs; then the style pack.
struct RegionInstaller {
    let store: TileStore
    let request: LoadRequest
    let plan: LoadPlan
    let tileset: TilesetVersionIndex?
    let routing: RoutingVersionIndex?
    let partialDirectory: String

    /// A complete file with this object's bytes: the store's, or the verified download.
    /// Only a partial file of the index's size: this run completed and hash-checked it (or found
    /// it complete and checked it); an incomplete one is never used.
    func file(for sha: String, size: Int) throws -> String? {
        if let stored = try store.usableObjectFile(sha256: sha, acceptExpired: request.acceptExpired) { return stored }
        let partial = (partialDirectory as NSString).appendingPathComponent(sha + ".part")
        return FileTools.regularFileSize(partial) == size ? partial : nil
    }

    func install(style: RepositoryIndex.Style?) throws -> LoadInstallOutcome {
        let b = request.region.bbox
        let bbox = [b.minLon, b.minLat, b.maxLon, b.maxLat]
        var loaded = LoadedRegion(id: request.regionId, geometry: request.region.geoJSON, bbox: bbox, source: source)
        loaded.metadata = request.metadata
        loaded.acceptExpired = request.acceptExpired
        loaded.progress = request.progress
        let work = (store.root as NSString).appendingPathComponent("tmp/load-\(getpid())")
        FileTools.removeTree(work)
        defer { FileTools.removeTree(work) }
        if let tileset {
            try FileTools.makeDirectory(work)
            loaded.mapDirectory = work
            try writeRegionDirectory(work, tileset: tileset, bbox: bbox)
        }
        if let routing {
            loaded.routing = LoadedRegion.Routing(
                profile: routing.profile, profileHash: routing.profileHash, dataVersion: routing.dataVersion,
                gridDegrees: routing.gridDegrees, bbox: routing.bbox,
                tiles: try plan.routingTiles.map { t in
                    LoadedRegion.RoutingTile(id: t.id, sha256: t.entry.sha256, bytes: Int64(t.entry.size), file: try file(for: t.entry.sha256, size: t.entry.size))
                })
        }
        let outcome = try store.installLoaded(loaded)
        if let style {
            let partial = (partialDirectory as NSString).appendingPathComponent(style.sha256 + ".part")
            _ = try store.installStyle(pack: partial)
        }
        return outcome
    }

    /// What `update` reads back to load the region again.
    var source: JSONValue {
        [
            "repository": .string(request.repository.description),
            "geometry": request.region.geoJSON,
            "tileset": request.tileset.map(JSONValue.string) ?? .null,
            "tilesetVersion": tileset.map { .string($0.version) } ?? .null,
            "zooms": [.int(request.zooms.lowerBound), .int(request.zooms.upperBound)],
            "routing": request.routingProfile.map(JSONValue.string) ?? .null,
            "routingVersion": routing.map { .string($0.dataVersion) } ?? .null,
            "style": request.style.map(JSONValue.string) ?? .null,
            "maxPacks": .int(request.maxPacks),
            "maxTiles": request.maxTiles.map(JSONValue.int) ?? .null,
            "maxRoutingTiles": .int(request.maxRoutingTiles),
        ]
    }

    /// `region.json` + `packs/<band>/<z>-<x>-<y>.pack` links, as `tilepack-build maps` writes them.
    private func writeRegionDirectory(_ dir: String, tileset: TilesetVersionIndex, bbox: [Double]) throws {
        var packs: [JSONValue] = []
        for p in plan.packs {
            guard let source = try file(for: p.entry.sha256, size: p.entry.size) else {
                throw InputError(file: store.root, "map pack \(p.key) (\(p.entry.sha256)) left the store during the load; run the load again")
            }
            let relative = "packs/\(p.key.band)/\(p.key.parent.z)-\(p.key.parent.x)-\(p.key.parent.y).pack"
            let target = (dir as NSString).appendingPathComponent(relative)
            let bandDir = (target as NSString).deletingLastPathComponent
            if FileTools.kind(bandDir) == .missing {
                try FileManager.default.createDirectory(atPath: bandDir, withIntermediateDirectories: true)
            }
            try FileTools.linkOrCopy(source, to: target, maxBytes: p.entry.size)
            let tiles = try MapPackReader(path: target).entries.count
            packs.append(["path": .string(relative), "band": .string(p.key.band),
                          "parent": [.int(p.key.parent.z), .int(p.key.parent.x), .int(p.key.parent.y)],
                          "tiles": .int(tiles), "bytes": .int(p.entry.size), "sha256": .string(p.entry.sha256)])
        }
        let zooms = plan.zoomPlan.map { z -> JSONValue in
            ["requested": [.int(z.requested.lowerBound), .int(z.requested.upperBound)],
             "effective": [.int(z.effective.lowerBound), .int(z.effective.upperBound)]]
        } ?? .null
        var descriptor: [String: JSONValue] = [
            // The pack headers' tileset id: the store checks every pack against it.
            "name": .string(tileset.tilesetId), "repositoryTileset": .string(tileset.name), "version": .string(tileset.version),
            "tileType": .string(tileset.tileType.name), "tileCompression": .string(tileset.tileCompression.name),
            "zooms": zooms, "bands": .array(tileset.bands.map { .string($0) }),
            "attribution": tileset.attribution.map(JSONValue.string) ?? .null,
        ]
        if let layers = tileset.vectorLayers { descriptor["vectorLayers"] = .array(layers.map { .string($0) }) }
        let manifest: JSONValue = [
            "format": .string(MapPackBuilder.manifestFormat), "version": 1, "id": .string(request.regionId),
            "geometry": request.region.geoJSON, "bbox": .array(bbox.map { .double($0) }),
            "tileset": .object(descriptor), "metadata": try request.metadata ?? store.regionMetadata(id: request.regionId) ?? .null,
            "expires": tileset.expires.map(JSONValue.string) ?? .null,
            "limits": ["maxPacks": .int(request.maxPacks), "maxTiles": request.maxTiles.map(JSONValue.int) ?? .null],
            "packs": .array(packs),
        ]
        try FileTools.writeNewFile((dir as NSString).appendingPathComponent("region.json"),
                                   Array(JSONWriter.string(manifest, pretty: false).utf8))
    }
}
