/// The drivable road network of a PBF file, as flat arrays (no object per way or node):
/// what pass 1 (ways, relations) and pass 2 (node coordinates) of `RoadNetworkReader` collect.
public struct RoadNetwork {
    // Ways, in file order.
    public var wayIds: [Int64] = []
    /// Way `i`'s nodes are `wayNodes[wayNodeStart[i] ..< wayNodeStart[i + 1]]`, indexes into `nodeIds`.
    public var wayNodeStart: [Int] = [0]
    public var wayNodes: [Int32] = []
    public var wayAttributes: [WayRecord] = []

    // Nodes referenced by those ways, sorted by id.
    public var nodeIds: [Int64] = []
    public var nodeLatE7: [Int32] = []
    public var nodeLonE7: [Int32] = []
    /// `NodeControlFlags` bits.
    public var nodeControl: [UInt8] = []

    /// Names and refs of ways; entry 0 is "".
    public var strings: [String] = [""]

    public var restrictions: [RestrictionRecord] = []
    /// Restriction relations that could not be kept (missing or contradictory members), for the summary.
    public var restrictionsSkipped = 0

    /// Newest object timestamp seen (seconds), for the data version when the header has none.
    public var newestTimestamp: Int64?

    /// Sentinel for a node the file references but does not contain (extract borders).
    public static let missingCoordinate = Int32.min

    public var wayCount: Int { wayIds.count }

    public func nodes(ofWay i: Int) -> ArraySlice<Int32> { wayNodes[wayNodeStart[i]..<wayNodeStart[i + 1]] }

    public func hasCoordinate(_ node: Int32) -> Bool { nodeLatE7[Int(node)] != Self.missingCoordinate }
}

/// What the profile made of a drivable way.
public struct WayRecord {
    public var roadClass: UInt8
    public var speedForwardDeciKmh: UInt16
    public var speedBackwardDeciKmh: UInt16
    /// `EdgeFlags` bits.
    public var flags: UInt8
    /// Indexes into `RoadNetwork.strings`.
    public var name: Int32
    public var ref: Int32
    /// Deciseconds to cross the whole way (`duration=*` of a ferry), 0 when not given: the tile
    /// builder turns it into a speed once the way's length is known.
    public var durationDeciseconds: UInt32 = 0
}

/// A turn restriction in OSM terms: from way, via node or via ways (in order), to way. A relation
/// with several `from` ways (`no_entry`) or `to` ways (`no_exit`) gives one record per way.
public struct RestrictionRecord: Equatable {
    public var relationId: Int64
    public var fromWayId: Int64
    /// The via node; 0 when the restriction goes through via ways.
    public var viaNodeId: Int64
    public var toWayId: Int64
    public var code: UInt8
    /// The via ways in driving order, empty for a via-node restriction.
    public var viaWayIds: [Int64] = []
    /// The condition of a `restriction:conditional` relation, "" when it always applies.
    public var condition: String = ""

    public init(relationId: Int64, fromWayId: Int64, viaNodeId: Int64, toWayId: Int64, code: UInt8,
                viaWayIds: [Int64] = [], condition: String = "") {
        self.relationId = relationId; self.fromWayId = fromWayId; self.viaNodeId = viaNodeId; self.toWayId = toWayId
        self.code = code; self.viaWayIds = viaWayIds; self.condition = condition
    }
}

/// Binary search over a sorted array: the first index whose value is not below `key`.
@inlinable public func lowerBound(_ a: UnsafeBufferPointer<Int64>, _ key: Int64) -> Int {
    var lo = 0, hi = a.count
    while lo < hi {
        let mid = (lo + hi) >> 1
        if a[mid] < key { lo = mid + 1 } else { hi = mid }
    }
    return lo
}
