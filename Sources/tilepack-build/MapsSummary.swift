import MapPacks
import OffgridCore
import TileMath
import TileSources

/// What `tilepack-build maps` (and `predict`) print: the plan's counts, and once built the
/// written bytes. Field names are the tool's JSON schema.
struct MapsSummary: Encodable {
    struct RegionInfo: Encodable {
        var id: String
        var bbox: [Double]
        var shapes: Int
    }

    struct SourceInfo: Encodable {
        var path: String
        var container: String
        var name: String
        var tileType: String
        var tileCompression: String
        var zoom: [Int]
    }

    struct Zoom: Encodable {
        var requested: [Int]
        var effective: [Int]
        var widened: [Int]
        var wasWidened: Bool
    }

    var estimate: Bool
    /// The output directory, or null for an estimate.
    var output: JSONValue
    var region: RegionInfo
    var source: SourceInfo
    var zoom: Zoom
    var bands: [BandSummary]
    var candidatePacks: Int
    var packs: Int
    var emptyPacks: Int
    var tiles: Int
    var tileBytes: Int
    var uniqueTiles: Int?
    var bytes: Int?
    var seconds: Double

    init(estimate: Bool, output: String?, sourcePath: String, source info: TileSourceInfo, region: Region, regionId: String,
         plan: MapBuildPlan, built: [MapPackBuilder.BuiltPack]?, seconds: Double) {
        func pair(_ r: ClosedRange<Int>) -> [Int] { [r.lowerBound, r.upperBound] }
        let b = region.bbox
        let zp = plan.zoomPlan
        self.estimate = estimate
        self.output = output.map(JSONValue.string) ?? .null
        self.region = RegionInfo(id: regionId, bbox: [b.minLon, b.minLat, b.maxLon, b.maxLat], shapes: region.shapes.count)
        self.source = SourceInfo(path: sourcePath, container: info.container.rawValue, name: info.name,
                                 tileType: info.tileType.name, tileCompression: info.tileCompression.name,
                                 zoom: [info.minZoom, info.maxZoom])
        zoom = Zoom(requested: pair(zp.requested), effective: pair(zp.effective), widened: pair(zp.widened),
                    wasWidened: zp.widened != zp.effective)
        bands = BandSummary.rows(plan: plan, built: built)
        candidatePacks = plan.candidatePacks.reduce(0) { $0 + $1.count }
        packs = plan.packs.count
        emptyPacks = plan.emptyPacks
        tiles = plan.tiles
        tileBytes = plan.tileBytes
        uniqueTiles = built.map { $0.reduce(0) { $0 + $1.stats.uniqueTiles } }
        bytes = built.map { $0.reduce(0) { $0 + $1.stats.fileBytes } }
        self.seconds = seconds
    }
}
