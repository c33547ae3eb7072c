/// One routing tile: the drivable road network inside one cell of the lon/lat grid.
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
    public var profileHash: String
    /// Sorted by OSM id.
    public var nodes: [Node] = []
    /// Sorted by start node, then in the order the ways appear in the source file.
    public var edges: [Edge] = []
    /// Shape points of all edges, each edge a run `shapeStart ..< shapeStart + shapeCount`
    /// that includes both end nodes.
    public var shapeLatE7: [Int32] = []
    public var shapeLonE7: [Int32] = []
    /// Names and refs; entry 0 is "".
    public var strings: [String] = [""]
    /// Turn restrictions whose (first) via node is in this tile, sorted by `Restriction.precedes`.
    public var restrictions: [Restriction] = []

    public init(tileId: UInt32, gridDegrees: Double, profileHash: String) {
        self.tileId = tileId
        self.gridDegrees = gridDegrees
        self.profileHash = profileHash
    }

    public struct Node: Equatable {
        public var osmId: Int64
        public var latE7: Int32
        public var lonE7: Int32
        /// `NodeControlFlags` bits: traffic signals, stop sign, give way.
        public var control: UInt8

        public init(osmId: Int64, latE7: Int32, lonE7: Int32, control: UInt8) {
            self.osmId = osmId; self.latE7 = latE7; self.lonE7 = lonE7; self.control = control
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
        /// km/h × 10 in the way's direction and against it.
        public var speedForwardDeciKmh: UInt16
        public var speedBackwardDeciKmh: UInt16
        /// `EdgeFlags` bits.
        public var flags: UInt8
        /// `RoadClass` raw value from the profile.
        public var roadClass: UInt8
        /// Indexes into `strings`.
        public var name: UInt32
        public var ref: UInt32
        /// Degrees × 10, 0 ..< 3600: heading leaving the start node and heading arriving at the end node.
        public var bearingStartDeci: UInt16
        public var bearingEndDeci: UInt16

        public init(fromNode: UInt32, toNodeOsmId: Int64, wayId: Int64, shapeStart: UInt32, shapeCount: UInt32,
                    lengthCm: UInt32, speedForwardDeciKmh: UInt16, speedBackwardDeciKmh: UInt16, flags: UInt8,
                    roadClass: UInt8, name: UInt32, ref: UInt32, bearingStartDeci: UInt16, bearingEndDeci: UInt16) {
            self.fromNode = fromNode; self.toNodeOsmId = toNodeOsmId; self.wayId = wayId
            self.shapeStart = shapeStart; self.shapeCount = shapeCount; self.lengthCm = lengthCm
            self.speedForwardDeciKmh = speedForwardDeciKmh; self.speedBackwardDeciKmh = speedBackwardDeciKmh
            self.flags = flags; self.roadClass = roadClass; self.name = name; self.ref = ref
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
        /// `RestrictionKind` raw value (no_left_turn … only_u_turn, any other no_* / only_*).
        public var code: UInt8
        /// The condition of a `restriction:conditional` relation (e.g. `Mo-Fr 07:00-10:30`), "" for
        /// one that always applies. Kept for a time-aware build; route-graph skips conditional ones.
        public var condition: String

        public init(nodeOsmIds: [Int64], fromWayId: Int64, viaWayIds: [Int64], toWayId: Int64, code: UInt8, condition: String = "") {
            self.nodeOsmIds = nodeOsmIds; self.fromWayId = fromWayId; self.viaWayIds = viaWayIds
            self.toWayId = toWayId; self.code = code; self.condition = condition
        }

        /// A via-node restriction.
        public init(viaNodeOsmId: Int64, fromWayId: Int64, toWayId: Int64, code: UInt8, condition: String = "") {
            self.init(nodeOsmIds: [viaNodeOsmId], fromWayId: fromWayId, viaWayIds: [], toWayId: toWayId, code: code, condition: condition)
        }

        /// The via node, or the first node of the via ways' path.
        public var viaNodeOsmId: Int64 { nodeOsmIds[0] }

        /// The tile's order: by first node, from way, to way, code, then via ways and condition.
        public static func precedes(_ a: Restriction, _ b: Restriction) -> Bool {
            if a.nodeOsmIds[0] != b.nodeOsmIds[0] { return a.nodeOsmIds[0] < b.nodeOsmIds[0] }
            if a.fromWayId != b.fromWayId { return a.fromWayId < b.fromWayId }
            if a.toWayId != b.toWayId { return a.toWayId < b.toWayId }
            if a.code != b.code { return a.code < b.code }
            if a.viaWayIds != b.viaWayIds { return a.viaWayIds.lexicographicallyPrecedes(b.viaWayIds) }
            if a.nodeOsmIds != b.nodeOsmIds { return a.nodeOsmIds.lexicographicallyPrecedes(b.nodeOsmIds) }
            return a.condition < b.condition
        }
    }
}

/// Bits of `RoutingTile.Edge.flags`.
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

/// Bits of `RoutingTile.Node.control`.
public enum NodeControlFlags {
    public static let trafficSignals: UInt8 = 1
    public static let stop: UInt8 = 2
    public static let giveWay: UInt8 = 4
    /// Cars cannot pass: routes turn back here.
    public static let barrier: UInt8 = 8
    /// Made for turning round (turning circle or loop, mini roundabout): U-turns allowed.
    public static let turningPlace: UInt8 = 16
}
