import Foundation
import MapPacks
import OffgridCore
import PackRepository
import TileMath

/// Which objects a region needs from one tileset version and one routing version, computed
/// locally from the region's exact cover, and refused BEFORE anything is downloaded when it is
/// over the limits (the server-side "422: split it" of other SDKs, here with the split).
struct LoadPlan {
    struct Pack {
        var key: MapPackKey
        var entry: RepositoryEntry
    }
    var packs: [Pack] = []
    var zoomPlan: ZoomPlan?
    var routingTiles: [(id: UInt32, entry: RepositoryEntry)] = []

    static func maps(region: Region, tileset: TilesetVersionIndex, zooms: ClosedRange<Int>, maxPacks: Int, maxTiles: Int?,
                     source: String) throws -> LoadPlan {
        let bands: ZoomBands
        do {
            bands = try ZoomBands(tileset.bands.map { b -> ZoomBand in
                let p = b.split(separator: "-").compactMap { Int($0) }
                return ZoomBand(p[0], p[1])
            })
        } catch { throw InputError(file: source, "bands: \(error)") }
        let zoomPlan: ZoomPlan
        do {
            zoomPlan = try ZoomPlan(requested: zooms, source: tileset.minZoom...tileset.maxZoom, bands: bands)
        } catch let e as GeometryError {
            throw InputError(file: source, e.message)
        }
        let cover = TileCover(region)
        do {
            _ = try MapPackBuilder.checkPackLimit(cover: cover, zoomPlan: zoomPlan, maxPacks: maxPacks)
        } catch let e as InputError {
            throw InputError(e.message + suggestedSplit(region))
        }
        if let maxTiles {
            var tiles = 0
            for z in zoomPlan.effective { tiles += cover.count(zoom: z); if tiles > maxTiles { break } }
            if tiles > maxTiles {
                throw InputError("too many tiles: the region's cover holds more than \(maxTiles) tiles at zooms \(zoomPlan.effective.lowerBound)-\(zoomPlan.effective.upperBound); use a smaller region or zoom range, or raise --max-tiles" + suggestedSplit(region))
            }
        }
        var byKey: [String: RepositoryEntry] = [:]
        for e in tileset.entries { byKey[e.key] = e }
        var plan = LoadPlan()
        plan.zoomPlan = zoomPlan
        for band in zoomPlan.bands {
            for parent in cover.ancestors(atZoom: band.minZoom, ofCoverAt: zoomPlan.coverZoom(band)) {
                let key = MapPackKey(minZoom: band.minZoom, maxZoom: band.maxZoom, parent: parent)
                // Packs without data were never published: nothing to fetch for them.
                if let entry = byKey[key.description] { plan.packs.append(Pack(key: key, entry: entry)) }
            }
        }
        return plan
    }

    static func routing(region: Region, index: RoutingVersionIndex, maxTiles: Int) throws -> [(id: UInt32, entry: RepositoryEntry)] {
        let grid: RoutingGrid
        do { grid = try RoutingGrid(degrees: index.gridDegrees) } catch { throw InputError("routing grid \(index.gridDegrees): \(error)") }
        let ids = grid.tiles(intersecting: region.bbox)
        guard ids.count <= maxTiles else { throw InputError(grid.tooManyTilesMessage(tiles: ids, limit: maxTiles)) }
        let wanted = Set(ids)
        return index.tiles.filter { wanted.contains($0.id) }
    }

    /// " — split it, e.g. into the halves W,S,E,N and W,S,E,N" for a refused region.
    static func suggestedSplit(_ region: Region) -> String {
        let b = region.bbox
        let wide = (b.maxLon - b.minLon) >= (b.maxLat - b.minLat)
        let mid = wide ? (b.minLon + b.maxLon) / 2 : (b.minLat + b.maxLat) / 2
        func f(_ v: Double) -> String { String(format: "%.5f", v) }
        let first = wide ? [b.minLon, b.minLat, mid, b.maxLat] : [b.minLon, b.minLat, b.maxLon, mid]
        let second = wide ? [mid, b.minLat, b.maxLon, b.maxLat] : [b.minLon, mid, b.maxLon, b.maxLat]
        return "; split the region, e.g. --bbox \(first.map(f).joined(separator: ",")) and --bbox \(second.map(f).joined(separator: ","))"
    }
}
