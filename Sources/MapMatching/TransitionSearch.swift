import RouteQuery

/// Road distances from one matched position to the next fix's candidates: a Dijkstra on the
/// edge-based graph (turn restrictions and one-ways hold), by length, bounded to a few hundred
/// metres at most, so it settles tens of nodes per fix. Its state lives in a small hash table
/// and a heap reused from search to search: memory follows the largest search, never the
/// graph, and a search allocates nothing once they have grown.
final class TransitionSearch {
    let data: RoutingData
    /// Open-addressed table rank → (distance to the rank's end, cm; parent rank), stamped per search.
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
    /// How many nodes the last searches settled (for the benchmark's report).
    private(set) var settledCount = 0

    init(data: RoutingData) {
        self.data = data
        resize(1 << 10)
    }

    private func resize(_ capacity: Int) {
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
    @inline(__always) private func slot(_ r: UInt32) -> Int {
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
    private func grow() {
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

    private func startSearch() {
        // Keep the table under half full for the coming search; a grown table starts clean.
        if used * 4 > keys.count { resize(keys.count * 2) } else {
            if stamp == UInt32.max { stamps = [UInt32](repeating: 0, count: keys.count); stamp = 0 }
            stamp += 1
        }
        used = 0
        heap.removeAll(keepingCapacity: true)
    }

    @inline(__always) private func push(_ key: UInt64) {
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

    @inline(__always) private func pop() -> UInt64 {
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

    /// From `source` (rank `sourceRank` at `sourceShare` of its edge) to each target
    /// (edge direction, share of its edge in that direction): metres along the road, written
    /// into `out` (`.infinity` when farther than `limitMeters` or unreachable). A target on the
    /// source's own edge direction ahead of it is reached along the edge; one behind within
    /// `backwardMeters` counts as 0 m (the same position, noise); farther behind it is reached
    /// only around a loop.
    func distances(sourceRank: UInt32, sourceShare: Double, targets: UnsafeBufferPointer<(edgeDirection: UInt32, share: Double)>,
                   limitMeters: Double, backwardMeters: Double, into out: UnsafeMutableBufferPointer<Double>) {
        let sourceED = data.rankEdgeDirection[Int(sourceRank)]
        let sourceLength = Double(data.rankLengthCm(sourceRank)) / 100
        var open = 0
        for k in 0..<targets.count {
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
            data.forEachTurn(from: u) { v in
                // Entering v: its start lies d cm away; a target on v's edge direction is then d + its share.
                let ed = data.rankEdgeDirection[Int(v)]
                let length = data.rankLengthCm(v)
                for k in 0..<targets.count where targets[k].edgeDirection == ed {
                    let m = (Double(d) + targets[k].share * Double(length)) / 100
                    if m < out[k] && m * 100 <= limitCm {
                        if out[k] == .infinity { open -= 1 }
                        out[k] = m
                        reached = max(reached, m * 100)
                    }
                }
                let nd = UInt64(d) + UInt64(length)
                guard Double(nd) <= limitCm else { return }
                let j = slot(v)
                if !settled[j] && UInt32(nd) < distance[j] {
                    distance[j] = UInt32(nd)
                    parent[j] = u
                    push(nd << 32 | UInt64(v))
                }
            }
        }
    }

    /// The ranks from `sourceRank` to the rank of `targetEdgeDirection` that the last
    /// `distances` call reached it by (the target's rank last), or nil when it did not.
    func path(from sourceRank: UInt32, toEdgeDirection targetED: UInt32, targetShare: Double) -> [UInt32]? {
        // The target's rank is entered from the settled predecessor that gives the least total:
        // scan the settled ranks' turns into it (few: the target's junction).
        var best: (total: Double, from: UInt32, rank: UInt32)?
        for i in 0..<keys.count where stamps[i] == stamp && settled[i] {
            let u = keys[i]
            data.forEachTurn(from: u) { v in
                guard data.rankEdgeDirection[Int(v)] == targetED else { return }
                let total = Double(distance[i]) + targetShare * Double(data.rankLengthCm(v))
                if best.map({ (total, u, v) < ($0.total, $0.from, $0.rank) }) ?? true { best = (total, u, v) }
            }
        }
        guard let best else { return nil }
        var ranks = [best.rank]
        var u = best.from
        while true {
            ranks.append(u)
            if u == sourceRank { break }
            guard let i = find(u), parent[i] != UInt32.max else { return nil }
            u = parent[i]
        }
        return ranks.reversed()
    }
}
