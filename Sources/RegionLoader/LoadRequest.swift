import OffgridCore
import RepositoryClient
import TileMath
import TileStore

/// What `tilestore load` asks for.
public struct LoadRequest {
    public var regionId: String
    public var repository: RepositoryLocation
    public var region: Region
    /// The tileset whose packs cover the region; nil for no map packs.
    public var tileset: String?
    /// The tileset version (nil: the newest).
    public var tilesetVersion: String?
    public var zooms: ClosedRange<Int> = 0...16
    /// Load routing tiles of this profile (nil: none). `routingVersion` nil = newest.
    public var routingProfile: String?
    public var routingVersion: String?
    public var style: String?
    public var metadata: JSONValue?
    public var acceptExpired = false
    public var maxPacks = 750
    /// Tile ceiling on the cover (nil: none).
    public var maxTiles: Int?
    /// Routing grid tiles refused above this (the "422" case).
    public var maxRoutingTiles = 4096
    public var fetch = FetchOptions()
    /// Progress of the download (the tool's bar or NDJSON), silent by default.
    public var progress: ProgressFactory = SilentProgress.factory

    public init(regionId: String, repository: RepositoryLocation, region: Region) {
        self.regionId = regionId
        self.repository = repository
        self.region = region
    }
}

/// What a load or update did (printed as JSON).
public struct LoadReport: Encodable {
    public struct Versions: Encodable {
        public var tileset: String?
        public var tilesetVersion: String?
        public var routingProfile: String?
        public var routingVersion: String?
        public var style: String?
    }
    public var region: String
    public var repository: String
    public var versions: Versions
    /// Objects the region needs (map packs + routing tiles + style pack), and of those, how many
    /// the store already held, how many were fetched (completely or continuing a partial file).
    public var objectsRequired: Int
    public var objectsAlreadyStored: Int
    public var objectsFetched: Int
    public var objectsResumed: Int
    public var bytesRequired: Int64
    /// Bytes received over the network (indexes not counted).
    public var bytesFetched: Int64
    /// Bytes of partial downloads an earlier run left, not fetched again.
    public var bytesResumed: Int64
    public var requests: Int
    public var indexNotModified: Bool
    public var install: LoadInstallOutcome
    public var seconds: Double
}
