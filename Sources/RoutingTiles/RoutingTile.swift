/// One routing tile: the roads of every mode inside one cell of the lon/lat grid, with the OSM
/// tags any routing profile reads (`RoutingTagSchema`): no profile's verdicts, so one tile serves
/// car, bicycle and foot, and `route-graph --profile` decides speeds and access.
///
/// A tile holds every routing node inside its cell and every edge that starts at one of
/// them. Edges name their far node by OSM id, so tiles from separately built packs of the
/// same data version join up when unpacked side by side. Coordinates are OSM's fixed point
/// (1e-7 degrees), so they round-trip exactly.
///
/// A tile does not carry the data version (the pack header and the unpacked manifest do), so a
/// tile whose roads did not change is byte-identical across data versions.
public struct RoutingTile: Equatable {
    public var tileId: UInt32
    public var gridDegrees: Double
    /// `RoutingTagSchema.hash` of the build: which tags the tile kept.
    public var schemaHash: String
    /// Sorted by OSM id.
    public var nodes: [Node] = []
    /// Sorted by start node, then in the order the ways appear in the source file.
    public var edges: [Edge] = []
    /// Shape points of all edges, each edge a run `shapeStart ..< shapeStart + shapeCount`
    /// that includes both end nodes.
    public var shapeLatE7: [Int32] = []
    public var shapeLonE7: [Int32] = []
    /// Tag keys and values; entry 0 is "".
    public var strings: [String] = [""]
    /// Tag sets of ways, nodes and restriction relations: set `i` is the (key, value) string
    /// pairs `tagKeys/tagValues[tagSetFirst[i] ..< tagSetFirst[i + 1]]`, sorted by key. Set 0 is empty.
    public var tagSetFirst: [UInt32] = [0, 0]
    public var tagKeys: [UInt32] = []
    public var tagValues: [UInt32] = []
    /// Turn restrictions whose (first) via node is in this tile, sorted by `Restriction.precedes`.
    public var restrictions: [Restriction] = []

    public init(tileId: UInt32, gridDegrees: Double, schemaHash: String) {
        self.tileId = tileId
        self.gridDegrees = gridDegrees
        self.schemaHash = schemaHash
    }

    public var tagSetCount: Int { tagSetFirst.count - 1 }

    /// Tag set `i` as a dictionary (the form profiles read).
    public func tags(_ i: UInt32) -> [String: String] {
        let r = Int(tagSetFirst[Int(i)])..<Int(tagSetFirst[Int(i) + 1])
        var d = [String: String](minimumCapacity: r.count)
        for k in r { d[strings[Int(tagKeys[k])]] = strings[Int(tagValues[k])] }
        return d
    }

    public struct Node: Equatable {
        public var osmId: Int64
        public var latE7: Int32
        public var lonE7: Int32
        /// The node's tag set (0: none kept).
        public var tags: UInt32

        public init(osmId: Int64, latE7: Int32, lonE7: Int32, tags: UInt32) {
            self.osmId = osmId; self.latE7 = latE7; self.lonE7 = lonE7; self.tags = tags
        }
    }

    public struct Edge: Equatable {
        /// Index into `nodes`.
        public var fromNode: UInt32
        /// The far end, by OSM id: it may lie in another tile.
        public var toNodeOsmId: Int64
        public var wayId: Int64
        public var shapeStart: UInt32
        public var shapeCount: UInt32
        /// Along the shape, centimetres.
        public var lengthCm: UInt32
        /// The way's tag set.
        public var tags: UInt32
        /// Degrees × 10, 0 ..< 3600: heading leaving the start node and heading arriving at the end node.
        public var bearingStartDeci: UInt16
        public var bearingEndDeci: UInt16

        public init(fromNode: UInt32, toNodeOsmId: Int64, wayId: Int64, shapeStart: UInt32, shapeCount: UInt32,
                    lengthCm: UInt32, tags: UInt32, bearingStartDeci: UInt16, bearingEndDeci: UInt16) {
            self.fromNode = fromNode; self.toNodeOsmId = toNodeOsmId; self.wayId = wayId
            self.shapeStart = shapeStart; self.shapeCount = shapeCount; self.lengthCm = lengthCm
            self.tags = tags
            self.bearingStartDeci = bearingStartDeci; self.bearingEndDeci = bearingEndDeci
        }
    }

    /// A turn restriction: from a way, through a via node or one or more via ways, onto a way.
    public struct Restriction: Equatable {
        /// The nodes where the restriction turns, in driving order: the via node alone; or, for
        /// via ways, the node where the from way meets the first via way, then where each via way
        /// meets the next, and last where the last via way meets the to way (`viaWayIds.count + 1`
        /// nodes). Each is an end of the ways it joins. The restriction is stored in the tile of the first.
        public var nodeOsmIds: [Int64]
        public var fromWayId: Int64
        /// The via ways in driving order; empty for a via-node restriction.
        public var viaWayIds: [Int64]
        public var toWayId: Int64
        /// The relation's tag set (its `restriction*`, `except` and `type` tags): each profile
        /// reads its own kind from them.
        public var tags: UInt32
        /// `RestrictionMembers` bits: the relation had several from ways (one record each), or
        /// several to ways; a profile keeps such records only for `no_entry` / `no_exit`.
        public var members: UInt8

        public init(nodeOsmIds: [Int64], fromWayId: Int64, viaWayIds: [Int64], toWayId: Int64, tags: UInt32, members: UInt8 = 0) {
            self.nodeOsmIds = nodeOsmIds; self.fromWayId = fromWayId; self.viaWayIds = viaWayIds
            self.toWayId = toWayId; self.tags = tags; self.members = members
        }

        /// The via node, or the first node of the via ways' path.
        public var viaNodeOsmId: Int64 { nodeOsmIds[0] }

        /// The tile's order: by first node, from way, to way, via ways, members (records equal in
        /// all of these are ordered by their tags' content: `TileAssembly.finish`).
        public static func precedes(_ a: Restriction, _ b: Restriction) -> Bool {
            if a.nodeOsmIds[0] != b.nodeOsmIds[0] { return a.nodeOsmIds[0] < b.nodeOsmIds[0] }
            if a.fromWayId != b.fromWayId { return a.fromWayId < b.fromWayId }
            if a.toWayId != b.toWayId { return a.toWayId < b.toWayId }
            if a.viaWayIds != b.viaWayIds { return a.viaWayIds.lexicographicallyPrecedes(b.viaWayIds) }
            if a.nodeOsmIds != b.nodeOsmIds { return a.nodeOsmIds.lexicographicallyPrecedes(b.nodeOsmIds) }
            return a.members < b.members
        }
    }
}

/// Bits of `RoutingTile.Restriction.members`.
public enum RestrictionMembers {
    public static let severalFrom: UInt8 = 1
    public static let severalTo: UInt8 = 2
}

/// Bits of the edge flags a profile gives a way (`RoadGraph.edgeFlags`, the graph file).
public enum EdgeFlags {
    /// Drivable from the start node to the end node.
    public static let forward: UInt8 = 1
    /// Drivable from the end node to the start node.
    public static let backward: UInt8 = 2
    public static let roundabout: UInt8 = 4
    /// Only to reach a place on it (access=destination, private…), in that direction: entering it
    /// from a road without the flag costs the profile's restricted-access penalty.
    public static let restrictedForward: UInt8 = 8
    public static let restrictedBackward: UInt8 = 16
    /// Routes do not start or end on it (ferries, private service roads).
    public static let notStartpoint: UInt8 = 32
}

/// Bits of the control a profile gives a node (`RoadGraph.nodeControl`, the graph file).
public enum NodeControlFlags {
    public static let trafficSignals: UInt8 = 1
    public static let stop: UInt8 = 2
    public static let giveWay: UInt8 = 4
    /// Cars cannot pass: routes turn back here.
    public static let barrier: UInt8 = 8
    /// Made for turning round (turning circle or loop, mini roundabout): U-turns allowed.
    public static let turningPlace: UInt8 = 16
}
