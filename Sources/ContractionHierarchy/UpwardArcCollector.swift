import OffgridCore
/// Records, as each node is contracted, its arcs to the nodes still in the graph — all of them
/// contracted later, so these are exactly its upward arcs — and assembles the rank-numbered
/// `ContractedGraph` once every node has a rank.
///
/// Nodes arrive in rank order, so the arcs already sit in CSR order; only the ids (original
/// node ids until the end) need translating and each node's few arcs sorting.
struct UpwardArcCollector {
    private var firstArc: [UInt32] = [0]
    private var head: [UInt32] = []
    private var weight: [UInt32] = []
    private var middle: [UInt32] = []
    private var direction: [UInt8] = []

    var arcCount: Int { head.count }

    /// Appends the arcs of `nodes` (about to be removed from `graph`, in rank order) as the next
    /// ranks' arcs, copying them in parallel; returns the range of arcs appended.
    mutating func collect(nodes: [Int], graph g: DynamicGraph, threads: Int) -> Range<Int> {
        let start = head.count
        var end = start
        for v in nodes {
            end += g.degree(v, DynamicGraph.outSide) + g.degree(v, DynamicGraph.inSide)
            precondition(end < Int(UInt32.max), "too many upward arcs for 32-bit offsets")
            firstArc.append(UInt32(end))
        }
        let added = end - start
        head.append(contentsOf: repeatElement(0, count: added))
        weight.append(contentsOf: repeatElement(0, count: added))
        middle.append(contentsOf: repeatElement(0, count: added))
        direction.append(contentsOf: repeatElement(0, count: added))
        let firstOfNode = firstArc.count - nodes.count - 1
        firstArc.withUnsafeBufferPointer { firstArc in
        head.withUnsafeMutableBufferPointer { head in
        weight.withUnsafeMutableBufferPointer { weight in
        middle.withUnsafeMutableBufferPointer { middle in
        direction.withUnsafeMutableBufferPointer { direction in
            let chunk = min(1024, max(1, nodes.count / (4 * threads)))
            Parallel.forEachChunk(count: nodes.count, threads: threads, chunkSize: chunk) { _, range in
                for i in range {
                    var a = Int(firstArc[firstOfNode + i])
                    for side in 0..<2 {
                        let bit = side == DynamicGraph.outSide ? CHDirection.forward : CHDirection.backward
                        for s in g.slots(nodes[i], side) {
                            head[a] = g.neighbour(s); weight[a] = g.weight(s); middle[a] = g.middle[s]
                            direction[a] = bit
                            a += 1
                        }
                    }
                }
            }
        }}}}}
        return start..<end
    }

    /// Calls `body` with the head of each arc in `range` (original node ids, before `assemble`).
    func forEachHead(in range: Range<Int>, _ body: (UInt32) -> Void) {
        for a in range { body(head[a]) }
    }

    /// Renumbers heads and middles to ranks, sorts each node's arcs by (head, weight, middle,
    /// direction) and merges a forward and a backward arc that agree on all three into one
    /// entry usable both ways. Consumes the collected arcs: each node's arcs are rewritten in
    /// their own range on all cores, then the ranges are closed up in one sequential pass.
    mutating func assemble(rankOfNode: [UInt32], threads: Int) -> ContractedGraph {
        let nodeCount = rankOfNode.count
        precondition(firstArc.count == nodeCount + 1, "not every node was contracted")
        var kept = [UInt32](repeating: 0, count: nodeCount)
        firstArc.withUnsafeBufferPointer { firstArc in
        rankOfNode.withUnsafeBufferPointer { rankOfNode in
        kept.withUnsafeMutableBufferPointer { kept in
        head.withUnsafeMutableBufferPointer { head in
        weight.withUnsafeMutableBufferPointer { weight in
        middle.withUnsafeMutableBufferPointer { middle in
        direction.withUnsafeMutableBufferPointer { direction in
            Parallel.forEachChunk(count: nodeCount, threads: threads, chunkSize: 4096) { _, ranks in
                // (head << 32 | weight, middle << 8 | direction): tuple order is the output order.
                var entries: [(UInt64, UInt64)] = []
                for r in ranks {
                    entries.removeAll(keepingCapacity: true)
                    let begin = Int(firstArc[r])
                    for a in begin..<Int(firstArc[r + 1]) {
                        let h = UInt64(rankOfNode[Int(head[a])])
                        let m = middle[a] == UInt32.max ? UInt64(UInt32.max) : UInt64(rankOfNode[Int(middle[a])])
                        entries.append((h << 32 | UInt64(weight[a]), m << 8 | UInt64(direction[a])))
                    }
                    entries.sort { $0 < $1 }
                    var out = begin
                    var i = 0
                    while i < entries.count {
                        var (k1, k2) = entries[i]
                        i += 1
                        if i < entries.count && entries[i].0 == k1 && entries[i].1 >> 8 == k2 >> 8 {
                            k2 |= entries[i].1 & 0xFF  // forward + backward with the same weight and middle
                            i += 1
                        }
                        head[out] = UInt32(truncatingIfNeeded: k1 >> 32)
                        weight[out] = UInt32(truncatingIfNeeded: k1)
                        middle[out] = UInt32(truncatingIfNeeded: k2 >> 8)
                        direction[out] = UInt8(truncatingIfNeeded: k2)
                        out += 1
                    }
                    kept[r] = UInt32(out - begin)
                }
            }
        }}}}}}}
        var outFirst = [UInt32](repeating: 0, count: nodeCount + 1)
        var shortcutCount = 0
        var to = 0
        for r in 0..<nodeCount {
            let from = Int(firstArc[r])
            for k in 0..<Int(kept[r]) {
                head[to] = head[from + k]; weight[to] = weight[from + k]
                middle[to] = middle[from + k]; direction[to] = direction[from + k]
                if middle[to] != UInt32.max { shortcutCount += 1 }
                to += 1
            }
            outFirst[r + 1] = UInt32(to)
        }
        head.removeLast(head.count - to); weight.removeLast(weight.count - to)
        middle.removeLast(middle.count - to); direction.removeLast(direction.count - to)
        let graph = ContractedGraph(nodeCount: nodeCount, rankOfNode: rankOfNode, firstOut: outFirst, head: head,
                                    weight: weight, middle: middle, direction: direction,
                                    shortcutCount: shortcutCount)
        self = UpwardArcCollector()  // the arrays now belong to the graph alone
        return graph
    }
}
