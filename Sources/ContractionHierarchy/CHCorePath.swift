/// Shortest paths within the core, from its distance table and its arcs alone: the core may be
/// left uncontracted (`ContractionOptions.uncontractedCore`), so no upward search may go
/// through it, nor stand in when the table's walk gets stuck.
extension CoreInArcs {
    /// A shortest path from core rank `entry` to core rank `exit` as arcs in travel order (none
    /// when they are one rank, or one node below the core where two searches met); nil only
    /// when the table has no distance between them.
    ///
    /// Rebuilt backwards from `exit` (`greedyPath`), or, where zero-weight arcs lead that walk
    /// only back onto ranks it has passed, by a Dijkstra search over the core's arcs.
    func path(from entry: UInt32, to exit: UInt32, core: CHCoreTable, graph: CHGraphView) -> [CHQuery.CoreHop]? {
        if entry == exit { return [] }
        guard core.distance(Int(entry) - core.first, Int(exit) - core.first) != CHCoreTable.unreachable else { return nil }
        return greedyPath(from: entry, to: exit, core: core, graph: graph) ?? searchedPath(from: entry, to: exit, core: core, graph: graph)
    }

    /// The path rebuilt backwards from `exit`: the arc into each rank from a predecessor whose
    /// table distance from `entry` plus the arc's weight is the rank's, so every lookup reads
    /// `entry`'s row. Nil where no predecessor fits but ranks already on the path.
    func greedyPath(from entry: UInt32, to exit: UInt32, core: CHCoreTable, graph: CHGraphView) -> [CHQuery.CoreHop]? {
        let first = core.first, row = Int(entry) - first
        var hops: [CHQuery.CoreHop] = []
        var y = exit
        while y != entry {
            let onPath = { (x: Int) in x + first == Int(exit) || hops.contains(where: { $0.from == UInt32(x + first) }) }
            guard let k = predecessor(of: Int(y) - first, row: row, core: core, graph: graph, skip: onPath) else { return nil }
            hops.append((arcs[k], tails[k], y))
            y = tails[k]
        }
        return hops.reversed()
    }

    /// The in-arc list entry into core index `y` from the first core index `x` not skipped whose
    /// table distance from core index `row` plus the arc's weight is `y`'s: the arc by which a
    /// shortest path from `row` can reach `y`. Nil when none fits.
    @inline(__always)
    func predecessor(of y: Int, row: Int, core: CHCoreTable, graph: CHGraphView, skip: (Int) -> Bool) -> Int? {
        let dy = UInt64(core.distance(row, y))
        for k in Int(first[y])..<Int(first[y + 1]) {
            let x = Int(tails[k]) - core.first
            if skip(x) { continue }
            let dx = core.distance(row, x)
            if dx != CHCoreTable.unreachable && UInt64(dx) + UInt64(graph.arcs[Int(arcs[k])].weight) == dy { return k }
        }
        return nil
    }

    /// The same by a Dijkstra search backwards from `exit` over the incoming arcs, until
    /// `entry` is settled; each rank keeps the arc it was reached by.
    func searchedPath(from entry: UInt32, to exit: UInt32, core: CHCoreTable, graph: CHGraphView) -> [CHQuery.CoreHop]? {
        let first = core.first
        var distance = [UInt64](repeating: UInt64.max, count: core.size)
        // Per core index: the in-arc list entry it was reached by, and that arc's head.
        var via = [Int](repeating: -1, count: core.size), viaHead = [Int](repeating: -1, count: core.size)
        let storage = IndexedHeap.Storage(capacity: core.size)
        var heap = storage.heap
        distance[Int(exit) - first] = 0
        heap.push(UInt32(Int(exit) - first), key: 0)
        while !heap.isEmpty {
            let (y, d) = heap.popMin()
            if Int(y) + first == Int(entry) { break }
            for k in Int(self.first[Int(y)])..<Int(self.first[Int(y) + 1]) {
                let x = Int(tails[k]) - first
                let nd = d + UInt64(graph.arcs[Int(arcs[k])].weight)
                guard nd < distance[x] else { continue }
                if distance[x] == UInt64.max { heap.push(UInt32(x), key: nd) } else { heap.decrease(UInt32(x), to: nd) }
                distance[x] = nd
                via[x] = k
                viaHead[x] = Int(y)
            }
        }
        guard distance[Int(entry) - first] != UInt64.max else { return nil }
        // From entry forwards: each rank's arc leads to the rank it was reached from, nearer exit.
        var hops: [CHQuery.CoreHop] = []
        var x = Int(entry) - first
        while x != Int(exit) - first {
            let k = via[x], y = viaHead[x]
            hops.append((arcs[k], UInt32(x + first), UInt32(y + first)))
            x = y
        }
        return hops
    }
}
