import OffgridCore
import TileMath
import TileSources

/// `region.json`: everything a store needs to install the region, and nothing that depends on
/// the source's container or file name. Written with `JSONEncoding` (sorted keys, exact numbers).
public struct MapRegionManifest: Encodable, Sendable {
    public struct Limits: Encodable, Sendable {
        public var maxPacks: Int
        /// The tile ceiling, or null when none was set.
        public var maxTiles: JSONValue
    }

    /// One written pack.
    public struct Pack: Encodable, Sendable {
        public var path: String
        public var band: String
        /// [z, x, y] of the pack's parent tile.
        public var parent: [Int]
        public var tiles: Int
        public var uniqueTiles: Int
        public var tileBytes: Int
        public var bytes: Int
        public var sha256: String
    }

    public struct Totals: Encodable, Sendable {
        public var packs: Int
        public var tiles: Int
        public var uniqueTiles: Int
        public var tileBytes: Int
        public var bytes: Int
    }

    public var format: String
    public var version: Int
    public var id: String
    /// The region as a canonical GeoJSON FeatureCollection.
    public var geometry: JSONValue
    /// [minLon, minLat, maxLon, maxLat].
    public var bbox: [Double]
    public var tileset: TilesetDescriptor
    /// The user's JSON value, or null.
    public var metadata: JSONValue
    /// ISO 8601 expiry, or null.
    public var expires: JSONValue
    public var limits: Limits
    public var packs: [Pack]
    public var totals: Totals

    init(plan: MapBuildPlan, built: [MapPackBuilder.BuiltPack], source: TileSource, region: Region, options: MapBuildOptions) {
        let b = region.bbox
        format = MapPackBuilder.manifestFormat
        version = 1
        id = options.regionId
        geometry = region.geoJSON
        bbox = [b.minLon, b.minLat, b.maxLon, b.maxLat]
        tileset = TilesetDescriptor(plan: plan, source: source, options: options)
        metadata = options.userMetadata ?? .null
        expires = MapPackBuilder.expiry(source: source, options: options).map(JSONValue.string) ?? .null
        limits = Limits(maxPacks: options.maxPacks, maxTiles: options.maxTiles.map(JSONValue.int) ?? .null)
        packs = built.map { p in
            Pack(path: p.header.relativePath, band: p.header.band.description,
                 parent: [p.header.parent.z, p.header.parent.x, p.header.parent.y],
                 tiles: p.stats.tiles, uniqueTiles: p.stats.uniqueTiles, tileBytes: p.stats.tileBytes,
                 bytes: p.stats.fileBytes, sha256: p.sha256)
        }
        totals = Totals(packs: built.count,
                        tiles: built.reduce(0) { $0 + $1.stats.tiles },
                        uniqueTiles: built.reduce(0) { $0 + $1.stats.uniqueTiles },
                        tileBytes: built.reduce(0) { $0 + $1.stats.tileBytes },
                        bytes: built.reduce(0) { $0 + $1.stats.fileBytes })
    }
}

/// The tileset descriptor: which tileset, what its tiles are, the zooms, pixel ratio, style.
public struct TilesetDescriptor: Encodable, Sendable {
    public struct Zooms: Encodable, Sendable {
        /// Each [min, max].
        public var requested: [Int]
        public var source: [Int]
        public var effective: [Int]
        public var widened: [Int]
    }

    public var name: String
    public var tileType: String
    public var tileCompression: String
    public var zoom: Zooms
    public var bands: [String]
    public var pixelRatio: Double
    public var styleURI: String?
    public var attribution: String?
    public var vectorLayers: [String]?

    public init(plan: MapBuildPlan, source: TileSource, options: MapBuildOptions) {
        let info = source.info
        func pair(_ r: ClosedRange<Int>) -> [Int] { [r.lowerBound, r.upperBound] }
        let zp = plan.zoomPlan
        name = info.name
        tileType = info.tileType.name
        tileCompression = info.tileCompression.name
        zoom = Zooms(requested: pair(zp.requested), source: pair(zp.source), effective: pair(zp.effective), widened: pair(zp.widened))
        bands = zp.bands.map(\.description)
        pixelRatio = options.pixelRatio
        styleURI = options.styleURI
        attribution = info.metadata["attribution"]?.stringValue
        vectorLayers = info.metadata["vector_layers"]?.arrayValue?.compactMap { $0["id"]?.stringValue }
    }
}

/// Per-band counts shared by the estimate and the build summary (`uniqueTiles` and `bytes`
/// only once built).
public struct BandSummary: Encodable, Sendable {
    public var band: String
    public var candidatePacks: Int
    public var packs: Int
    public var tiles: Int
    public var tileBytes: Int
    public var uniqueTiles: Int?
    public var bytes: Int?

    /// One row per band, from one pass over the packs (a continent's plan holds tens of
    /// thousands: a filter per band copied them all each time).
    public static func rows(plan: MapBuildPlan, built: [MapPackBuilder.BuiltPack]?) -> [BandSummary] {
        let bands = plan.zoomPlan.bands
        var rows = bands.map { band in
            BandSummary(band: band.description, candidatePacks: plan.candidatePacks.first { $0.band == band }?.count ?? 0,
                        packs: 0, tiles: 0, tileBytes: 0, uniqueTiles: built == nil ? nil : 0, bytes: built == nil ? nil : 0)
        }
        for pack in plan.packs {
            guard let i = bands.firstIndex(of: pack.header.band) else { continue }
            rows[i].packs += 1
            rows[i].tiles += pack.tiles.count
            rows[i].tileBytes += pack.tileBytes
        }
        for pack in built ?? [] {
            guard let i = bands.firstIndex(of: pack.header.band) else { continue }
            rows[i].uniqueTiles! += pack.stats.uniqueTiles
            rows[i].bytes! += pack.stats.fileBytes
        }
        return rows
    }
}
