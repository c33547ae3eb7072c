import RouteQuery

/// Road distances from one matched position to the next fix's candidates: a Dijkstra on the
/// edge-based graph (turn restrictions and one-ways hold), by length, bounded to a few hundred
/// metres at most, so it settles tens of nodes per fix. Its state lives in a small hash table
/// and a heap reused from search to search: memory follows the largest search, never the
/// graph, and a search allocates nothing once they have grown.
final class TransitionSearch {
    let data: RoutingData
    /// The search's state, one value so that a search is one access to it: the hash table and
    /// heap inside are then checked statically, not per touched node.
    private var space = SearchSpace()

    init(data: RoutingData) { self.data = data }

    /// How many nodes the searches settled so far (for the benchmark's report).
    var settledCount: Int { space.settledCount }

    /// From `source` (rank `sourceRank` at `sourceShare` of its edge) to each target
    /// (edge direction, share of its edge in that direction): metres along the road, written
    /// into `out` (`.infinity` when farther than `limitMeters` or unreachable). A target on the
    /// source's own edge direction ahead of it is reached along the edge; one behind within
    /// `backwardMeters` counts as 0 m (the same position, noise); farther behind it is reached
    /// only around a loop.
    func distances(sourceRank: UInt32, sourceShare: Double, targets: UnsafeBufferPointer<(edgeDirection: UInt32, share: Double)>,
                   limitMeters: Double, backwardMeters: Double, into out: UnsafeMutableBufferPointer<Double>) {
        space.distances(data, sourceRank: sourceRank, sourceShare: sourceShare, targets: targets, limitMeters: limitMeters,
                        backwardMeters: backwardMeters, into: out)
    }

    /// The ranks from `sourceRank` to target k of the last `distances` call, by the turn that
    /// search reached it through (the target's rank last), or nil when it reached it by none.
    func path(from sourceRank: UInt32, toTarget k: Int) -> [UInt32]? { space.path(from: sourceRank, toTarget: k) }
}

/// Open-addressed table rank → (distance to the rank's end, cm; parent rank), stamped per
/// search, a binary heap and a cache of turns: what transition searches need, reused from
/// search to search.
struct SearchSpace {
    private var keys: [UInt32] = []
    private var stamps: [UInt32] = []
    private var distance: [UInt32] = []
    private var parent: [UInt32] = []
    private var settled: [Bool] = []
    private var stamp: UInt32 = 0
    private var used = 0
    private var shift: UInt32 = 0
    /// (distance cm) << 32 | rank, a binary min-heap with stale entries skipped on pop.
    private var heap: [UInt64] = []
    /// Per target of the last search: the settled rank it was entered from and the rank entered
    /// (its edge direction's), for `path`; UInt32.max when not reached by a turn.
    private var reachedFrom: [UInt32] = []
    private var reachedRank: [UInt32] = []
    private var turnCache = TurnCache()
    private(set) var settledCount = 0

    init() { resize(1 << 10) }

    private mutating func resize(_ capacity: Int) {
        keys = [UInt32](repeating: 0, count: capacity)
        stamps = [UInt32](repeating: 0, count: capacity)
        distance = [UInt32](repeating: 0, count: capacity)
        parent = [UInt32](repeating: 0, count: capacity)
        settled = [Bool](repeating: false, count: capacity)
        shift = UInt32(32 - capacity.trailingZeroBitCount)
        stamp = 1
        used = 0
    }

    /// The slot of rank r in this search (inserted with an infinite distance if new).
    @inline(__always) private mutating func slot(_ r: UInt32) -> Int {
        let mask = keys.count - 1
        var i = Int((r &* 0x9E37_79B9) >> shift)
        while stamps[i] == stamp {
            if keys[i] == r { return i }
            i = (i + 1) & mask
        }
        keys[i] = r
        stamps[i] = stamp
        distance[i] = UInt32.max
        parent[i] = UInt32.max
        settled[i] = false
        used += 1
        if used * 2 > keys.count {
            grow()
            return find(r)!
        }
        return i
    }

    /// Doubles the table in the middle of a search, keeping its entries.
    private mutating func grow() {
        let old = (keys: keys, stamps: stamps, distance: distance, parent: parent, settled: settled, stamp: stamp)
        resize(keys.count * 2)
        let mask = keys.count - 1
        for j in 0..<old.keys.count where old.stamps[j] == old.stamp {
            var i = Int((old.keys[j] &* 0x9E37_79B9) >> shift)
            while stamps[i] == stamp { i = (i + 1) & mask }
            keys[i] = old.keys[j]
            stamps[i] = stamp
            distance[i] = old.distance[j]
            parent[i] = old.parent[j]
            settled[i] = old.settled[j]
            used += 1
        }
    }

    /// Looks rank r up without inserting it.
    @inline(__always) private func find(_ r: UInt32) -> Int? {
        let mask = keys.count - 1
        var i = Int((r &* 0x9E37_79B9) >> shift)
        while stamps[i] == stamp {
            if keys[i] == r { return i }
            i = (i + 1) & mask
        }
        return nil
    }

    private mutating func startSearch() {
        // Keep the table under half full for the coming search; a grown table starts clean.
        if used * 4 > keys.count { resize(keys.count * 2) } else {
            if stamp == UInt32.max { stamps = [UInt32](repeating: 0, count: keys.count); stamp = 0 }
            stamp += 1
        }
        used = 0
        heap.removeAll(keepingCapacity: true)
    }

    @inline(__always) private mutating func push(_ key: UInt64) {
        heap.append(key)
        var i = heap.count - 1
        while i > 0 {
            let p = (i - 1) / 2
            if heap[p] <= key { break }
            heap[i] = heap[p]
            i = p
        }
        heap[i] = key
    }

    @inline(__always) private mutating func pop() -> UInt64 {
        let top = heap[0]
        let last = heap.removeLast()
        if !heap.isEmpty {
            var i = 0
            let n = heap.count
            while true {
                let l = 2 * i + 1
                if l >= n { break }
                var c = l
                if l + 1 < n && heap[l + 1] < heap[l] { c = l + 1 }
                if heap[c] >= last { break }
                heap[i] = heap[c]
                i = c
            }
            heap[i] = last
        }
        return top
    }

    mutating func distances(_ data: RoutingData, sourceRank: UInt32, sourceShare: Double,
                            targets: UnsafeBufferPointer<(edgeDirection: UInt32, share: Double)>,
                            limitMeters: Double, backwardMeters: Double, into out: UnsafeMutableBufferPointer<Double>) {
        let sourceED = data.rankEdgeDirection[Int(sourceRank)]
        let sourceLength = Double(data.rankLengthCm(sourceRank)) / 100
        var open = 0
        var targetFilter = EdgeDirectionFilter()
        for t in targets { targetFilter.insert(t.edgeDirection) }
        if reachedFrom.count < targets.count {
            reachedFrom = [UInt32](repeating: .max, count: targets.count)
            reachedRank = [UInt32](repeating: .max, count: targets.count)
        }
        for k in 0..<targets.count {
            reachedFrom[k] = .max
            reachedRank[k] = .max
            out[k] = .infinity
            if targets[k].edgeDirection == sourceED {
                let ahead = (targets[k].share - sourceShare) * sourceLength
                if ahead >= 0 { out[k] = ahead } else if -ahead <= backwardMeters { out[k] = 0 }
            }
            if out[k] == .infinity { open += 1 }
        }
        guard open > 0 else { return }
        let limitCm = min(4e9, limitMeters * 100)
        startSearch()
        let first = (1 - sourceShare) * sourceLength * 100
        guard first <= limitCm else { return }
        let s = slot(sourceRank)
        distance[s] = UInt32(first.rounded())
        push(UInt64(distance[s]) << 32 | UInt64(sourceRank))
        // Once every target has a distance, a settled node farther than the largest of them
        // cannot shorten any: stop there (`reached` the largest distance found, cm).
        var reached = 0.0
        for k in 0..<targets.count where out[k] < .infinity { reached = max(reached, out[k] * 100) }
        while !heap.isEmpty {
            let key = pop()
            let d = UInt32(key >> 32), u = UInt32(truncatingIfNeeded: key)
            if open == 0 && Double(d) >= reached { break }
            let i = slot(u)
            if settled[i] || distance[i] != d { continue }
            settled[i] = true
            settledCount += 1
            let range = turnCache.turns(from: u, in: data)
            for t in range {
                let turn = turnCache.turns[t]
                let v = turn.rank, ed = turn.edgeDirection, length = turn.lengthCm
                // Entering v: its start lies d cm away; a target on v's edge direction is then d + its share.
                if targetFilter.mayHold(ed) {
                    for k in 0..<targets.count where targets[k].edgeDirection == ed {
                        let m = (Double(d) + targets[k].share * Double(length)) / 100
                        guard m * 100 <= limitCm else { continue }
                        if m < out[k] {
                            if out[k] == .infinity { open -= 1 }
                            out[k] = m
                            reached = max(reached, m * 100)
                            reachedFrom[k] = u
                            reachedRank[k] = v
                        } else if m == out[k] && reachedFrom[k] != .max && (u, v) < (reachedFrom[k], reachedRank[k]) {
                            // Equal roads: the least (from, rank) pair, so the path never depends on the heap's order.
                            reachedFrom[k] = u
                            reachedRank[k] = v
                        }
                    }
                }
                let nd = UInt64(d) + UInt64(length)
                guard Double(nd) <= limitCm else { continue }
                let j = slot(v)
                if !settled[j] && UInt32(nd) < distance[j] {
                    distance[j] = UInt32(nd)
                    parent[j] = u
                    push(nd << 32 | UInt64(v))
                }
            }
        }
    }

    func path(from sourceRank: UInt32, toTarget k: Int) -> [UInt32]? {
        guard k < reachedFrom.count, reachedFrom[k] != .max else { return nil }
        var ranks = [reachedRank[k]]
        var u = reachedFrom[k]
        while true {
            ranks.append(u)
            if u == sourceRank { break }
            guard let i = find(u), parent[i] != UInt32.max else { return nil }
            u = parent[i]
        }
        return ranks.reversed()
    }
}

/// A 128-bit set of hashed edge directions: most roads a search turns into are no target, and
/// this says so without scanning the targets.
struct EdgeDirectionFilter {
    private var low: UInt64 = 0
    private var high: UInt64 = 0

    @inline(__always) mutating func insert(_ ed: UInt32) {
        let h = (ed &* 0x9E37_79B9) >> 25
        if h < 64 { low |= 1 << UInt64(h) } else { high |= 1 << UInt64(h - 64) }
    }

    @inline(__always) func mayHold(_ ed: UInt32) -> Bool {
        let h = (ed &* 0x9E37_79B9) >> 25
        return h < 64 ? low & (1 << UInt64(h)) != 0 : high & (1 << UInt64(h - 64)) != 0
    }
}
