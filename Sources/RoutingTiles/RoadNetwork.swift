/// The routable ways of a PBF file (every mode's, `RoutingTagSchema`), as flat arrays (no object per way or node):
/// what pass 1 (ways, relations) and pass 2 (node coordinates) of `RoadNetworkReader` collect.
public struct RoadNetwork {
    // Ways, in file order.
    public var wayIds: [Int64] = []
    /// Way `i`'s nodes are `wayNodes[wayNodeStart[i] ..< wayNodeStart[i + 1]]`, indexes into `nodeIds`.
    public var wayNodeStart: [Int] = [0]
    public var wayNodes: [Int32] = []
    /// Each way's tag set.
    public var wayTags: [UInt32] = []

    // Nodes referenced by those ways, sorted by id.
    public var nodeIds: [Int64] = []
    public var nodeLatE7: [Int32] = []
    public var nodeLonE7: [Int32] = []
    /// Each node's tag set (0 for none; kept only where `RoutingTagSchema.endsEdges`).
    public var nodeTags: [UInt32] = []

    /// Tag keys and values; entry 0 is "".
    public var strings: [String] = [""]
    /// Tag sets as `RoutingTile` holds them (pairs sorted by key text); set 0 is empty.
    public var tagSetFirst: [UInt32] = [0, 0]
    public var tagKeys: [UInt32] = []
    public var tagValues: [UInt32] = []

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

/// A turn restriction in OSM terms: from way, via node or via ways (in order), to way. A relation
/// with several `from` ways (`no_entry`) or `to` ways (`no_exit`) gives one record per way.
public struct RestrictionRecord: Equatable {
    public var relationId: Int64
    public var fromWayId: Int64
    /// The via node; 0 when the restriction goes through via ways.
    public var viaNodeId: Int64
    public var toWayId: Int64
    /// The via ways in driving order, empty for a via-node restriction.
    public var viaWayIds: [Int64] = []
    /// The relation's tag set.
    public var tags: UInt32
    /// `RestrictionMembers` bits.
    public var members: UInt8

    public init(relationId: Int64, fromWayId: Int64, viaNodeId: Int64, toWayId: Int64, viaWayIds: [Int64] = [],
                tags: UInt32, members: UInt8 = 0) {
        self.relationId = relationId; self.fromWayId = fromWayId; self.viaNodeId = viaNodeId; self.toWayId = toWayId
        self.viaWayIds = viaWayIds; self.tags = tags; self.members = members
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
