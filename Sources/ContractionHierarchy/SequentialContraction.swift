import OffgridCore

/// The last phase of contraction: once few nodes remain (the dense core), independent sets are
/// tiny and rounds would be mostly overhead, so nodes are contracted one at a time from a
/// priority queue, as in Geisberger et al. 2008.
extension ContractionRun {
    /// Contracts the last nodes one at a time, smallest key first, with lazy updates: a popped
    /// node is re-evaluated by its real contraction and goes back if no longer the smallest.
    ///
    /// Touched neighbours are not re-simulated (only their level rises): in the dense core each
    /// contraction touches dozens of nodes of high degree, and re-simulating them was 96 % of the
    /// tail's searches and 44 % of all contraction time on the ~5 M extract. The re-evaluation
    /// on pop keeps the order honest, and its priorities, from the real witness searches, order
    /// the top better than the simulations did (with the 6,000-node tail on the ~1 M / ~5 M
    /// extracts: settled nodes 368 → 345 / 958 → 969, distance p50 −20 % / −24 %, contraction
    /// at 5 M 97.5 → ~65 s; docs/CH.md). One node's witness searches are spread over the workers
    /// one in-neighbour at a time, each worker taking the next when it is free: searches from
    /// different in-neighbours differ widely in cost, and a fixed half each left one core
    /// waiting (the tail ran 1.48× faster on two threads than on one).
    ///
    /// Stops when `core` nodes are left (`ContractionOptions.uncontractedCore`).
    func contractSequentially(_ remaining: [UInt32], leaving core: Int = 0) {
        var queue = KeyQueue()
        for v in remaining { queue.push(key[Int(v)]) }
        var estimates: [ContractionEstimate] = []
        var sinceProgress = 0
        var left = remaining.count
        while left > core, let top = queue.pop() {
            let v = Int(UInt32(truncatingIfNeeded: top))
            if rankOfNode[v] != UInt32.max || key[v] != top { continue }  // stale entry
            let inDegree = graph.degree(v, DynamicGraph.inSide)
            let split = inDegree >= 4 && options.threads > 1 ? inDegree : 1
            while tailLists.count < split { tailLists.append(ShortcutList()) }
            if estimates.count < split { estimates = [ContractionEstimate](repeating: .init(), count: split) }
            for list in tailLists[0..<split] { list.removeAll() }
            estimates.withUnsafeMutableBufferPointer { estimates in
                // Part k's shortcuts go to tailLists[k], whichever worker runs it, so the
                // concatenation below is the same for any thread count and timing.
                Parallel.forEachChunk(count: split, threads: options.threads) { worker, range in
                    for k in range {
                        estimates[k] = searches[worker].contract(
                            node: v, graph: graph, excluded: excluded, settleLimit: options.witnessSettleLimit,
                            collectInto: tailLists[k], part: k, of: split)
                    }
                }
            }
            var estimate = ContractionEstimate()
            for e in estimates[0..<split] { estimate += e }
            if options.lazyReevaluation {
                let fresh = NodeOrdering.key(priority: NodeOrdering.priority(estimate, level: level[v], options.weights), node: v)
                if fresh > top, let next = queue.peek(), fresh > next {
                    key[v] = fresh
                    queue.push(fresh)
                    deferrals += 1
                    continue
                }
            }
            beginTouching()
            let all = tailLists[0]
            for list in tailLists[1..<split] { all.append(contentsOf: list) }
            apply([DecidedContraction(node: v, list: all, shortcuts: 0..<all.count)])
            left -= 1
            sinceProgress += 1
            if sinceProgress == 256 {
                sinceProgress = 0
                progress?(nextRank, nodeCount)
            }
        }
    }
}

extension ContractionRun {
    /// Gives the nodes left uncontracted the top ranks, smallest key first, each with its arcs to
    /// those ranked after it and no shortcut: the core's arcs stay the graph that remained.
    func rankUncontracted(_ core: [UInt32]) {
        let none = ShortcutList()
        for v in core.sorted(by: { key[Int($0)] < key[Int($1)] }) {
            beginTouching()
            apply([DecidedContraction(node: Int(v), list: none, shortcuts: 0..<0)])
        }
    }
}

/// A binary min-heap of node keys (lazy deletion: stale entries are skipped by the caller).
struct KeyQueue {
    private var items: [UInt64] = []

    mutating func push(_ item: UInt64) {
        items.append(item)
        var i = items.count - 1
        while i > 0 {
            let parent = (i - 1) / 2
            if items[parent] <= item { break }
            items[i] = items[parent]
            i = parent
        }
        items[i] = item
    }

    func peek() -> UInt64? { items.first }

    mutating func pop() -> UInt64? {
        guard let top = items.first else { return nil }
        let last = items.removeLast()
        if items.isEmpty { return top }
        var i = 0
        while true {
            var child = 2 * i + 1
            if child >= items.count { break }
            if child + 1 < items.count && items[child + 1] < items[child] { child += 1 }
            if last <= items[child] { break }
            items[i] = items[child]
            i = child
        }
        items[i] = last
        return top
    }
}
