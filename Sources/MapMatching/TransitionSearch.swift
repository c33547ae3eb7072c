import Foundation
import RouteQuery
import RoutingGraph

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

    deinit { space.release() }

    /// How many nodes the searches settled so far (for the benchmark's report).
    var settledCount: Int { space.settledCount }

    /// From `source` (rank `sourceRank` at `sourceShare` of its edge) to each target
    /// (edge direction, share of its edge in that direction): metres along the road, written
    /// into `out` (`.infinity` when farther than `limitMeters` or unreachable). A target on the
    /// source's own edge direction ahead of it is reached along the edge; one behind within
    /// `backwardMeters` counts as 0 m (the same position, noise); farther behind it is reached
    /// only around a loop.
    /// `disc`: a circle every target lies in; a road piece whose end is farther from it than the
    /// limit left is not searched on (the road to a target is never shorter than the straight
    /// line), so the search covers an ellipse around the two fixes, not a disc around the source.
    func distances(sourceRank: UInt32, sourceShare: Double, targets: UnsafeBufferPointer<(edgeDirection: UInt32, share: Double)>,
                   within disc: TargetDisc, limitMeters: Double, backwardMeters: Double, into out: UnsafeMutableBufferPointer<Double>) {
        space.distances(data, sourceRank: sourceRank, sourceShare: sourceShare, targets: targets, within: disc, limitMeters: limitMeters,
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
    /// One table slot: a rank's search state (one cache line holds three slots).
    private struct Entry {
        var key: UInt32
        var stamp: UInt32
        var distance: UInt32
        var parent: UInt32
        var settled: Bool
    }

    // Raw storage, freed by `release()`: a settle touches the table and heap a dozen times, and
    // arrays would check uniqueness and bounds on each of them.
    private var table: UnsafeMutablePointer<Entry>
    private var capacity: Int
    private var stamp: UInt32 = 1
    private var used = 0
    private var shift: UInt32
    /// (distance cm) << 32 | rank, a binary min-heap with stale entries skipped on pop.
    private var heap: UnsafeMutablePointer<UInt64>
    private var heapCount = 0
    private var heapCapacity: Int
    /// Per target of the last search: the settled rank it was entered from and the rank entered
    /// (its edge direction's), for `path`; UInt32.max when not reached by a turn.
    private var reachedFrom: [UInt32] = []
    private var reachedRank: [UInt32] = []
    private var turnCache = TurnCache()
    /// The targets of the current search by edge direction: an open-addressed table of
    /// (edge direction, first target) and a chain of the targets sharing one.
    private var targetSlots: UnsafeMutablePointer<(edgeDirection: UInt32, first: Int32)>
    private var targetSlotCount = 0
    private var targetNext: UnsafeMutablePointer<Int32>
    private var targetNextCapacity = 0
    private(set) var settledCount = 0

    init() {
        targetSlots = .allocate(capacity: 0)
        targetNext = .allocate(capacity: 0)
        capacity = 1 << 10
        table = Self.emptyTable(capacity)
        shift = UInt32(32 - capacity.trailingZeroBitCount)
        heapCapacity = 1 << 10
        heap = .allocate(capacity: heapCapacity)
    }

    mutating func release() {
        table.deallocate()
        heap.deallocate()
        targetSlots.deallocate()
        targetNext.deallocate()
    }

    /// Indexes the targets by edge direction for `firstTarget`/`targetNext`.
    private mutating func indexTargets(_ targets: UnsafeBufferPointer<(edgeDirection: UInt32, share: Double)>) {
        var size = 16
        while size < 2 * targets.count { size *= 2 }
        if size > targetSlotCount {
            targetSlots.deallocate()
            targetSlots = .allocate(capacity: size)
            targetSlotCount = size
        }
        if targets.count > targetNextCapacity {
            targetNext.deallocate()
            targetNext = .allocate(capacity: targets.count)
            targetNextCapacity = targets.count
        }
        targetSlots.initialize(repeating: (UInt32.max, -1), count: targetSlotCount)
        let mask = targetSlotCount - 1
        // Backwards, so each chain lists its targets in increasing order.
        for k in stride(from: targets.count - 1, through: 0, by: -1) {
            let ed = targets[k].edgeDirection
            var i = Int((ed &* 0x9E37_79B9) >> 16) & mask
            while targetSlots[i].first >= 0 && targetSlots[i].edgeDirection != ed { i = (i + 1) & mask }
            targetNext[k] = targetSlots[i].first
            targetSlots[i] = (ed, Int32(k))
        }
    }

    /// The first target on edge direction ed (then `targetNext`), or -1.
    @inline(__always) private func firstTarget(_ ed: UInt32) -> Int32 {
        let mask = targetSlotCount - 1
        var i = Int((ed &* 0x9E37_79B9) >> 16) & mask
        while targetSlots[i].first >= 0 {
            if targetSlots[i].edgeDirection == ed { return targetSlots[i].first }
            i = (i + 1) & mask
        }
        return -1
    }

    private static func emptyTable(_ capacity: Int) -> UnsafeMutablePointer<Entry> {
        let t = UnsafeMutablePointer<Entry>.allocate(capacity: capacity)
        t.initialize(repeating: Entry(key: 0, stamp: 0, distance: 0, parent: 0, settled: false), count: capacity)
        return t
    }

    /// A fresh table of `newCapacity` slots (stamp 1, nothing in it); the old one is returned.
    private mutating func replaceTable(_ newCapacity: Int) -> (table: UnsafeMutablePointer<Entry>, capacity: Int, stamp: UInt32) {
        let old = (table: table, capacity: capacity, stamp: stamp)
        table = Self.emptyTable(newCapacity)
        capacity = newCapacity
        shift = UInt32(32 - newCapacity.trailingZeroBitCount)
        stamp = 1
        used = 0
        return old
    }

    /// The slot of rank r in this search (inserted with an infinite distance if new).
    @inline(__always) private mutating func slot(_ r: UInt32) -> Int {
        let mask = capacity - 1
        var i = Int((r &* 0x9E37_79B9) >> shift)
        while table[i].stamp == stamp {
            if table[i].key == r { return i }
            i = (i + 1) & mask
        }
        table[i] = Entry(key: r, stamp: stamp, distance: .max, parent: .max, settled: false)
        used += 1
        if used * 2 > capacity {
            grow()
            return find(r)!
        }
        return i
    }

    /// Doubles the table in the middle of a search, keeping its entries.
    private mutating func grow() {
        let old = replaceTable(capacity * 2)
        let mask = capacity - 1
        for j in 0..<old.capacity where old.table[j].stamp == old.stamp {
            var e = old.table[j]
            var i = Int((e.key &* 0x9E37_79B9) >> shift)
            while table[i].stamp == stamp { i = (i + 1) & mask }
            e.stamp = stamp
            table[i] = e
            used += 1
        }
        old.table.deallocate()
    }

    /// Looks rank r up without inserting it.
    @inline(__always) private func find(_ r: UInt32) -> Int? {
        let mask = capacity - 1
        var i = Int((r &* 0x9E37_79B9) >> shift)
        while table[i].stamp == stamp {
            if table[i].key == r { return i }
            i = (i + 1) & mask
        }
        return nil
    }

    private mutating func startSearch() {
        // Keep the table under half full for the coming search; a grown table starts clean.
        if used * 4 > capacity { replaceTable(capacity * 2).table.deallocate() } else {
            if stamp == UInt32.max {
                for i in 0..<capacity { table[i].stamp = 0 }
                stamp = 0
            }
            stamp += 1
        }
        used = 0
        heapCount = 0
    }

    @inline(__always) private mutating func push(_ key: UInt64) {
        if heapCount == heapCapacity {
            let bigger = UnsafeMutablePointer<UInt64>.allocate(capacity: heapCapacity * 2)
            bigger.moveInitialize(from: heap, count: heapCount)
            heap.deallocate()
            heap = bigger
            heapCapacity *= 2
        }
        var i = heapCount
        heapCount += 1
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
        heapCount -= 1
        let last = heap[heapCount]
        if heapCount > 0 {
            var i = 0
            let n = heapCount
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
                            targets: UnsafeBufferPointer<(edgeDirection: UInt32, share: Double)>, within disc: TargetDisc,
                            limitMeters: Double, backwardMeters: Double, into out: UnsafeMutableBufferPointer<Double>) {
        let sourceED = data.rankEdgeDirection[Int(sourceRank)]
        let sourceLength = Double(data.rankLengthCm(sourceRank)) / 100
        var open = 0
        var targetFilter = EdgeDirectionFilter()
        for t in targets { targetFilter.insert(t.edgeDirection) }
        indexTargets(targets)
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
        table[s].distance = UInt32(first.rounded())
        push(UInt64(table[s].distance) << 32 | UInt64(sourceRank))
        // Once every target has a distance, a settled node farther than the largest of them
        // cannot shorten any: stop there (`reached` the largest distance found, cm).
        var reached = 0.0
        for k in 0..<targets.count where out[k] < .infinity { reached = max(reached, out[k] * 100) }
        while heapCount > 0 {
            let key = pop()
            let d = UInt32(key >> 32), u = UInt32(truncatingIfNeeded: key)
            if open == 0 && Double(d) >= reached { break }
            let i = slot(u)
            if table[i].settled || table[i].distance != d { continue }
            table[i].settled = true
            settledCount += 1
            let range = turnCache.turns(from: u, in: data)
            for t in range {
                let turn = turnCache.turns[t]
                let v = turn.rank, ed = turn.edgeDirection, length = turn.lengthCm
                // Entering v: its start lies d cm away; a target on v's edge direction is then d + its share.
                if targetFilter.mayHold(ed) {
                    var next = firstTarget(ed)
                    while next >= 0 {
                        let k = Int(next)
                        next = targetNext[k]
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
                guard Double(nd) + disc.lowerBoundCm(turn.end) <= limitCm else { continue }
                let j = slot(v)
                if !table[j].settled && UInt32(nd) < table[j].distance {
                    table[j].distance = UInt32(nd)
                    table[j].parent = u
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
            guard let i = find(u), table[i].parent != UInt32.max else { return nil }
            u = table[i].parent
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

/// A circle (centre, radius) holding every target of a search, and a lower bound on the road
/// distance from a point to any of them: the straight line to the circle, a little shortened
/// (the flat-earth distance at this scale errs by far less than the 1 % and 1 m given away).
struct TargetDisc {
    let centerLatE7: Double
    let centerLonE7: Double
    let radiusMeters: Double
    private let metersPerE7Lat = 6_371_008.8 * Double.pi / 180 / 1e7
    private let metersPerE7Lon: Double

    init(lat: Double, lon: Double, radiusMeters: Double) {
        centerLatE7 = lat * 1e7
        centerLonE7 = lon * 1e7
        self.radiusMeters = radiusMeters
        metersPerE7Lon = metersPerE7Lat * cos(lat * .pi / 180)
    }

    @inline(__always) func lowerBoundCm(_ p: E7Point) -> Double {
        let dy = (Double(p.latE7) - centerLatE7) * metersPerE7Lat
        let dx = (Double(p.lonE7) - centerLonE7) * metersPerE7Lon
        let straight = (dx * dx + dy * dy).squareRoot() * 0.99 - radiusMeters - 1
        return straight > 0 ? straight * 100 : 0
    }
}
