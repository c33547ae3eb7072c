/// A static directed graph in compressed sparse row form: the arcs leaving node `v` are
/// `firstOut[v] ..< firstOut[v + 1]` in `head`/`weight`.
///
/// Arcs are ordered by tail, then head, then weight, so the same arc list (in any order) always
/// gives the same arrays. Parallel arcs and loops are kept: this is the plain graph that
/// `DijkstraQuery` searches as the exactness oracle.
public struct CSRGraph: Sendable, Equatable {
    public var nodeCount: Int
    public var firstOut: [UInt32]
    public var head: [UInt32]
    public var weight: [UInt32]

    public var arcCount: Int { head.count }

    public init(nodeCount: Int, firstOut: [UInt32], head: [UInt32], weight: [UInt32]) {
        precondition(firstOut.count == nodeCount + 1 && head.count == weight.count && Int(firstOut[nodeCount]) == head.count,
                     "CSRGraph: inconsistent array lengths")
        self.nodeCount = nodeCount
        self.firstOut = firstOut
        self.head = head
        self.weight = weight
    }

    public init(nodeCount: Int, arcs: ArcList) {
        arcs.validate(nodeCount: nodeCount)
        self.nodeCount = nodeCount
        let arcCount = arcs.count
        // Counting sort by tail (stable), then sort each node's slice by the packed (head, weight).
        var firstOut = [UInt32](repeating: 0, count: nodeCount + 1)
        for tail in arcs.tails { firstOut[Int(tail) + 1] &+= 1 }
        for v in 0..<nodeCount { firstOut[v + 1] &+= firstOut[v] }
        var next = firstOut
        var keys = [UInt64](repeating: 0, count: arcCount)
        for i in 0..<arcCount {
            let tail = Int(arcs.tails[i])
            keys[Int(next[tail])] = UInt64(arcs.heads[i]) << 32 | UInt64(arcs.weights[i])
            next[tail] &+= 1
        }
        for v in 0..<nodeCount {
            let range = Int(firstOut[v])..<Int(firstOut[v + 1])
            if range.count > 1 { keys[range].sort() }
        }
        self.firstOut = firstOut
        self.head = keys.map { UInt32(truncatingIfNeeded: $0 >> 32) }
        self.weight = keys.map { UInt32(truncatingIfNeeded: $0) }
    }

    /// The same graph with every arc turned around (for backward searches and in-arc scans).
    public func reversed() -> CSRGraph {
        var arcs = ArcList()
        arcs.reserveCapacity(arcCount)
        for v in 0..<nodeCount {
            for a in Int(firstOut[v])..<Int(firstOut[v + 1]) {
                arcs.append(tail: head[a], head: UInt32(v), weight: weight[a])
            }
        }
        return CSRGraph(nodeCount: nodeCount, arcs: arcs)
    }
}
