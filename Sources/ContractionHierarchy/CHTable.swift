/// Many-to-many distances on a contraction hierarchy with buckets (Knopp, Sanders, Schultes,
/// Schulz, Wagner 2007): one backward upward search per target leaves `(target, distance)` in a
/// bucket at every node it settles; one forward upward search per source then scans the buckets
/// of the nodes it settles. Cost: |sources| + |targets| searches instead of their product.
extension CHQuery {
    /// `distances[s][t]` = the distance from `sources[s]` to `targets[t]` as in
    /// `distance(sources:targets:)` (each entry a set of endpoints with offsets), nil if unreachable.
    public func table(sources: [[CHEndpoint]], targets: [[CHEndpoint]]) -> [[UInt64?]] {
        let scratch: BucketScratch
        if let existing = bucketScratch { scratch = existing } else {
            scratch = BucketScratch(nodeCount: graph.nodeCount)
            bucketScratch = scratch
        }
        // Backward searches: bucket entries (node, target, distance), node order after sorting.
        var entries: [(node: UInt32, target: UInt32, distance: UInt64)] = []
        for (t, ends) in targets.enumerated() {
            exhaustUpward(from: ends, state: backwardState, bit: CHDirection.backward, stallBit: CHDirection.forward) { v, d in
                entries.append((v, UInt32(t), d))
            }
        }
        entries.sort { ($0.node, $0.target) < ($1.node, $1.target) }
        let bucketStamp = scratch.nextStamp()
        var i = 0
        while i < entries.count {
            let v = Int(entries[i].node)
            scratch.bucketStamp[v] = bucketStamp
            scratch.bucketBegin[v] = UInt32(i)
            while i < entries.count && Int(entries[i].node) == v { i += 1 }
            scratch.bucketEnd[v] = UInt32(i)
        }
        // Forward searches: each settled node's bucket offers a distance to some targets.
        var result: [[UInt64?]] = []
        result.reserveCapacity(sources.count)
        var row = [UInt64](repeating: UInt64.max, count: targets.count)
        for ends in sources {
            for t in row.indices { row[t] = UInt64.max }
            exhaustUpward(from: ends, state: forwardState, bit: CHDirection.forward, stallBit: CHDirection.backward) { v, d in
                let vi = Int(v)
                guard scratch.bucketStamp[vi] == bucketStamp else { return }
                for e in Int(scratch.bucketBegin[vi])..<Int(scratch.bucketEnd[vi]) {
                    let total = d + entries[e].distance
                    let t = Int(entries[e].target)
                    if total < row[t] { row[t] = total }
                }
            }
            result.append(row.map { $0 == UInt64.max ? nil : $0 })
        }
        return result
    }

    /// A full upward search (no stopping criterion) with stall-on-demand; calls `visit` for every
    /// settled node that is not stalled, with its distance.
    func exhaustUpward(from ends: [CHEndpoint], state: UpwardSearchState, bit: UInt8, stallBit: UInt8,
                       _ visit: (UInt32, UInt64) -> Void) {
        let q = nextStamp()
        var search = state.buffers
        let g = graph
        ends.withUnsafeBufferPointer { search.start($0, stamp: q, nodeCount: g.nodeCount) }
        while !search.heap.isEmpty {
            let (v, d) = search.heap.popMin()
            let vi = Int(v)
            let begin = Int(g.firstOut[vi]), end = Int(g.firstOut[vi + 1])
            if search.isStalled(d: d, arcs: begin..<end, graph: g, stamp: q, stallBit: stallBit) { continue }
            visit(v, d)
            search.relax(v, d: d, arcs: begin..<end, graph: g, stamp: q, bit: bit, bound: UInt64.max)
        }
    }
}

/// Per-node bucket ranges of `CHQuery.table`, valid for the table whose stamp they carry.
final class BucketScratch {
    let nodeCount: Int
    var bucketStamp: [UInt32]
    var bucketBegin: [UInt32]
    var bucketEnd: [UInt32]
    private var stamp: UInt32 = 0

    init(nodeCount: Int) {
        self.nodeCount = nodeCount
        bucketStamp = [UInt32](repeating: 0, count: nodeCount)
        bucketBegin = [UInt32](repeating: 0, count: nodeCount)
        bucketEnd = [UInt32](repeating: 0, count: nodeCount)
    }

    func nextStamp() -> UInt32 {
        if stamp == UInt32.max {
            for i in bucketStamp.indices { bucketStamp[i] = 0 }
            stamp = 0
        }
        stamp += 1
        return stamp
    }
}
