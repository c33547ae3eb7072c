/// The last phase of contraction: once few nodes remain (the dense core), independent sets are
/// tiny and rounds would be mostly overhead, so nodes are contracted one at a time from a
/// priority queue, as in Geisberger et al. 2008.
extension ContractionRun {
    /// Contracts the last nodes one at a time, smallest key first, with lazy updates: a popped
    /// node is re-evaluated by its real contraction and goes back if no longer the smallest.
    func contractSequentially(_ remaining: [UInt32]) {
        var queue = KeyQueue()
        for v in remaining { queue.push(key[Int(v)]) }
        let search = searches[0], list = lists[0]
        var sinceProgress = 0
        while let top = queue.pop() {
            let v = Int(UInt32(truncatingIfNeeded: top))
            if rankOfNode[v] != UInt32.max || key[v] != top { continue }  // stale entry
            list.removeAll()
            let estimate = search.contract(node: v, graph: graph, excluded: excluded,
                                           settleLimit: options.witnessSettleLimit, collectInto: list)
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
            contract(v, shortcuts: list, 0..<list.count)
            updatePriorities(of: touched)
            for x in touched { queue.push(key[Int(x)]) }
            sinceProgress += 1
            if sinceProgress == 256 {
                sinceProgress = 0
                progress?(nextRank, nodeCount)
            }
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
