/// What `osmium fileinfo -e` reports about the data: counts, extent, id and time ranges.
public struct FileStatistics: Equatable {
    public var blocks = 0
    public var nodes = 0
    public var ways = 0
    public var relations = 0
    public var minNodeId = Int64.max, maxNodeId = Int64.min
    public var minWayId = Int64.max, maxWayId = Int64.min
    public var minRelationId = Int64.max, maxRelationId = Int64.min
    /// Node extent in nanodegrees.
    public var minLonNano = Int64.max, minLatNano = Int64.max
    public var maxLonNano = Int64.min, maxLatNano = Int64.min
    /// Object timestamps, seconds since the epoch.
    public var firstTimestamp = Int64.max, lastTimestamp = Int64.min

    public init() {}

    /// Statistics of one block (runs on a decoding thread).
    public init(block: PrimitiveBlock) {
        blocks = 1
        block.forEachNode { n in
            nodes += 1
            minNodeId = min(minNodeId, n.id); maxNodeId = max(maxNodeId, n.id)
            minLonNano = min(minLonNano, n.lonNano); maxLonNano = max(maxLonNano, n.lonNano)
            minLatNano = min(minLatNano, n.latNano); maxLatNano = max(maxLatNano, n.latNano)
        }
        block.forEachWay { w in
            ways += 1
            minWayId = min(minWayId, w.id); maxWayId = max(maxWayId, w.id)
        }
        block.forEachRelation { r in
            relations += 1
            minRelationId = min(minRelationId, r.id); maxRelationId = max(maxRelationId, r.id)
        }
        if let t = block.timestampRange() {
            firstTimestamp = t.min
            lastTimestamp = t.max
        }
    }

    public mutating func add(_ o: FileStatistics) {
        blocks += o.blocks; nodes += o.nodes; ways += o.ways; relations += o.relations
        minNodeId = min(minNodeId, o.minNodeId); maxNodeId = max(maxNodeId, o.maxNodeId)
        minWayId = min(minWayId, o.minWayId); maxWayId = max(maxWayId, o.maxWayId)
        minRelationId = min(minRelationId, o.minRelationId); maxRelationId = max(maxRelationId, o.maxRelationId)
        minLonNano = min(minLonNano, o.minLonNano); maxLonNano = max(maxLonNano, o.maxLonNano)
        minLatNano = min(minLatNano, o.minLatNano); maxLatNano = max(maxLatNano, o.maxLatNano)
        firstTimestamp = min(firstTimestamp, o.firstTimestamp); lastTimestamp = max(lastTimestamp, o.lastTimestamp)
    }
}

extension PBFReader {
    /// Reads every block and gathers statistics, decoding on all worker threads.
    public func statistics(progress: ((Int64) -> Void)? = nil) throws -> FileStatistics {
        var total = FileStatistics()
        try forEachBlock(progress: progress, map: { FileStatistics(block: $0) }, reduce: { _, s in total.add(s) })
        return total
    }
}
