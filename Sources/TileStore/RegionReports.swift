import OffgridCore

/// `install REGION_DIR`.
public struct RegionInstallReport: Encodable, Equatable {
    public var region: String
    public var directory: String
    /// The region id was new.
    public var created: Bool
    public var packs: Int
    /// Unique packs by what the install did with them.
    public var packsCopied: Int
    public var packsAlreadyStored: Int
    public var packsRewrittenExpired: Int
    public var packsRestored: Int
    /// Packs (by path) compared with the region's previous version.
    public var packsUnchanged: Int
    public var packsChanged: Int
    public var packsAdded: Int
    public var packsDropped: Int
    /// Packs the previous version used that no region or style uses now.
    public var packsReleased: Int
    public var bytesCopied: Int64
    public var bytes: Int64
    public var tiles: Int
    @NullWhenNil public var expires: String?
    public var evicted: EvictionTotals
    public var store: StoreSummary
    public var seconds: Double
}

/// `install-routing PACK --region-id ID`.
public struct RoutingInstallReport: Encodable, Equatable {
    public var region: String
    public var pack: String
    public var sha256: String
    public var created: Bool
    public var copied: Bool
    public var alreadyStored: Bool
    public var rewrittenExpired: Bool
    public var restored: Bool
    /// The region had this very pack already.
    public var unchanged: Bool
    public var packsReleased: Int
    public var bytes: Int64
    public var bytesCopied: Int64
    public var tiles: Int
    public var dataVersion: String
    public var evicted: EvictionTotals
    public var store: StoreSummary
    public var seconds: Double
}

/// `remove ID`.
public struct RegionRemovalReport: Encodable, Equatable {
    public var removed: String
    public var packs: Int
    public var packsReleased: Int
    public var bytesReleased: Int64
    public var packsStillShared: Int
    public var store: StoreSummary
}

/// Map and routing packs a region uses.
public struct RegionPackCounts: Encodable, Equatable {
    public var map: Int
    public var routing: Int
}

/// One region as `list` shows it.
public struct RegionListEntry: Encodable, Equatable {
    public var id: String
    /// minLon, minLat, maxLon, maxLat.
    @NullWhenNil public var bbox: [Double]?
    public var metadata: JSONValue
    @NullWhenNil public var expires: String?
    public var expired: Bool
    public var installedAt: String
    public var updatedAt: String
    public var packs: RegionPackCounts
    public var bytes: Int64
    public var tiles: Int
    /// Every pack it lists is stored.
    public var complete: Bool
    /// The tileset's name.
    @NullWhenNil public var tileset: String?
    /// The GeoJSON type of its geometry.
    @NullWhenNil public var geometryType: String?
}

/// `list`.
public struct RegionList: Encodable, Equatable {
    public var regions: [RegionListEntry]
    public var store: StoreSummary
}

/// `show ID`: one region in full.
public struct RegionDetails: Encodable, Equatable {
    /// One pack the region uses.
    public struct Pack: Encodable, Equatable {
        /// `map-pack` or `routing-pack`.
        public var kind: String
        public var name: String
        public var sha256: String
        public var bytes: Int64
        public var tiles: Int
        /// The file is indexed (an evicted or repaired-away pack is not).
        public var present: Bool
        /// Its path in the store.
        @NullWhenNil public var file: String?
        /// The other regions using it.
        public var sharedWith: [String]
    }

    public struct Limits: Encodable, Equatable {
        @NullWhenNil public var maxPacks: Int?
        @NullWhenNil public var maxTiles: Int?
    }

    public var id: String
    @NullWhenNil public var bbox: [Double]?
    public var metadata: JSONValue
    @NullWhenNil public var expires: String?
    public var expired: Bool
    public var installedAt: String
    public var updatedAt: String
    public var packs: RegionPackCounts
    public var bytes: Int64
    public var tiles: Int
    public var complete: Bool
    /// GeoJSON, as the region was installed with.
    public var geometry: JSONValue
    /// The tileset descriptor of region.json.
    public var tileset: JSONValue
    /// The routing pack's description (pack, dataVersion, profile, grid, tiles, bbox, createdBy).
    public var routing: JSONValue
    public var limits: Limits
    public var packList: [Pack]
}
