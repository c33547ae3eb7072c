import CShims
/// Shortcuts found for the nodes one worker contracted, as parallel arrays (reused across rounds).
final class ShortcutList {
    var tail: [UInt32] = []
    var head: [UInt32] = []
    var weight: [UInt32] = []
    var hops: [UInt32] = []

    var count: Int { tail.count }

    func append(tail t: UInt32, head h: UInt32, weight w: UInt32, hops n: UInt32) {
        tail.append(t); head.append(h); weight.append(w); hops.append(n)
    }

    func append(contentsOf other: ShortcutList) {
        tail += other.tail; head += other.head; weight += other.weight; hops += other.hops
    }

    func removeAll() {
        tail.removeAll(keepingCapacity: true); head.removeAll(keepingCapacity: true)
        weight.removeAll(keepingCapacity: true); hops.removeAll(keepingCapacity: true)
    }
}

/// What contracting a node would do to the graph: the inputs of its priority.
struct ContractionEstimate {
    var shortcuts = 0
    var shortcutHops = 0
    var removedArcs = 0
    var removedHops = 0

    /// Adds the estimate of another part of the same node's contraction.
    static func += (a: inout ContractionEstimate, b: ContractionEstimate) {
        a.shortcuts += b.shortcuts; a.shortcutHops += b.shortcutHops
        a.removedArcs += b.removedArcs; a.removedHops += b.removedHops
    }
}

/// Decides which shortcuts contracting a node needs, with one bounded Dijkstra search per
/// in-neighbour (Geisberger et al. 2008, "local search").
///
/// Contracting `v` replaces each path `u → v → w` by a shortcut unless a witness path from `u`
/// to `w` avoiding `v` is at most as long. The search from `u` runs in the current graph minus
/// `v` and minus every node flagged in `excluded` (the others being contracted in the same
/// round: two simultaneously contracted nodes must not witness for each other, or a path through
/// both could vanish). It stops once every target is witnessed (reached no longer than via `v`)
/// or settled, once the distance exceeds the longest path via `v`, or after `settleLimit`
/// settled nodes. Stopping early only means missing
/// witnesses, i.e. adding shortcuts that are not needed: never losing a distance.
///
/// One instance per worker thread. Per node two words side by side (one cache line, one miss):
/// `stamp << 32 | distance` (valid iff the stamp is the current search's) and, for targets,
/// `stamp << 32 | via` (the length of its path via the contracted node, which a witness must not
/// exceed; cleared once the target is witnessed or settled). Reset lazily by the stamp.
final class WitnessSearch {
    private let nodeCount: Int
    private let state: UnsafeMutablePointer<UInt64>
    private var stamp: UInt32 = 0
    // Counters for the build log.
    var searchCount = 0
    var settledCount = 0
    var limitHits = 0
    var realSettled = 0
    /// 4-ary min-heap of `distance << 32 | node`: one integer compare orders by distance, then id.
    /// Entries are all distinct, so the pop order (and every witness found) is the same for any
    /// arity; four children per level halve the depth, and their minimum is found with
    /// conditional moves rather than a mispredicted branch per level.
    private var heap: UnsafeMutablePointer<UInt64>
    private var heapCapacity = 1024
    private var heapCount = 0

    init(nodeCount: Int) {
        self.nodeCount = nodeCount
        state = .allocate(capacity: 2 * max(1, nodeCount))
        state.initialize(repeating: 0, count: 2 * max(1, nodeCount))
        heap = .allocate(capacity: heapCapacity)
    }

    deinit {
        state.deallocate()
        heap.deallocate()
    }

    /// Finds the shortcuts that contracting `node` needs; appends them to `list` when given
    /// (the middle node is implicit: it is `node`).
    ///
    /// `part` of `parts` searches only that contiguous share of the in-neighbours (and counts the
    /// removed arcs only in part 0), so one node's searches can run on several workers: the parts'
    /// lists concatenated in part order and their estimates added equal one whole call.
    ///
    /// The node's arcs are read in place from the graph's pool (nothing mutates it meanwhile);
    /// copying them into per-search arrays cost a copy and a dynamic exclusivity check per array
    /// and call.
    func contract(node v: Int, graph g: DynamicGraph, excluded: UnsafePointer<UInt8>,
                  settleLimit: Int, collectInto list: ShortcutList?,
                  part: Int = 0, of parts: Int = 1) -> ContractionEstimate {
        var estimate = ContractionEstimate()
        let arc = g.arc, hops = g.hops
        let inSlots = g.slots(v, DynamicGraph.inSide), outSlots = g.slots(v, DynamicGraph.outSide)
        if part == 0 {
            for s in inSlots { estimate.removedHops += Int(hops[s]) }
            for s in outSlots { estimate.removedHops += Int(hops[s]) }
            estimate.removedArcs = inSlots.count + outSlots.count
        }
        if inSlots.isEmpty || outSlots.isEmpty { return estimate }

        let first = inSlots.lowerBound
        for si in first + inSlots.count * part / parts ..< first + inSlots.count * (part + 1) / parts {
            let u = UInt32(truncatingIfNeeded: arc[si])
            let viaWeight = arc[si] >> 32
            nextStamp()
            let stamp = self.stamp
            var targets = 0
            var limit: UInt32 = 0
            for so in outSlots where UInt32(truncatingIfNeeded: arc[so]) != u {
                let w = Int(UInt32(truncatingIfNeeded: arc[so]))
                let via = UInt32(min(viaWeight + (arc[so] >> 32), UInt64(UInt32.max)))
                state[2 &* w &+ 1] = UInt64(stamp) << 32 | UInt64(via)
                limit = max(limit, via)
                targets += 1
            }
            if targets == 0 { continue }
            let settled = search(from: u, avoiding: UInt32(v), limit: limit, targets: targets, targetSlots: outSlots,
                                 graph: g, excluded: excluded, settleLimit: settleLimit)
            if list != nil { realSettled += settled }
            for so in outSlots where UInt32(truncatingIfNeeded: arc[so]) != u {
                let w = Int(UInt32(truncatingIfNeeded: arc[so]))
                let via = viaWeight + (arc[so] >> 32)
                let label = state[2 &* w]
                if UInt32(truncatingIfNeeded: label >> 32) == stamp && label & 0xFFFF_FFFF <= via { continue }
                // A path longer than 2^32 - 1 cannot be stored; it can only matter for distances
                // at least that long, which the hierarchy does not promise (see docs/CH.md).
                if via > UInt64(UInt32.max) { continue }
                estimate.shortcuts += 1
                estimate.shortcutHops += Int(hops[si]) + Int(hops[so])
                list?.append(tail: u, head: UInt32(w), weight: UInt32(via), hops: hops[si] &+ hops[so])
            }
        }
        return estimate
    }

    private func nextStamp() {
        if stamp == UInt32.max {
            state.update(repeating: 0, count: 2 * max(1, nodeCount))
            stamp = 0
        }
        stamp += 1
    }

    /// Runs one witness search; returns the nodes it settled.
    private func search(from source: UInt32, avoiding avoided: UInt32, limit initialLimit: UInt32, targets: Int,
                        targetSlots: Range<Int>,
                        graph g: DynamicGraph, excluded: UnsafePointer<UInt8>, settleLimit: Int) -> Int {
        let arc = g.arc
        let blockBegin = g.blockBegin, blockCount = g.blockCount
        let state = self.state
        let stampBits = UInt64(stamp) << 32
        // The longest via path among the targets still open: no path longer than it can witness
        // anything, so relaxing or settling beyond it is wasted. It shrinks as targets close.
        var limit = initialLimit
        func openLimit() -> UInt32 {
            var m: UInt32 = 0
            for s in targetSlots {
                let mark = state[2 &* Int(UInt32(truncatingIfNeeded: arc[s])) &+ 1]
                if mark & 0xFFFF_FFFF_0000_0000 == stampBits { m = max(m, UInt32(truncatingIfNeeded: mark)) }
            }
            return m
        }
        heapCount = 0
        searchCount &+= 1
        state[2 &* Int(source)] = stampBits
        push(UInt64(source))
        var settled = 0
        var targetsLeft = targets
        defer { settledCount &+= settled }
        while heapCount > 0 {
            let top = pop()
            // As in CHQuery: the next node settled is most likely the new minimum, so its arcs
            // are asked for now and their miss overlaps this node's relaxation.
            if heapCount > 0 {
                let nextOutBlock = 2 &* Int(UInt32(truncatingIfNeeded: heap[0]))
                offgrid_prefetch(arc + Int(blockBegin[nextOutBlock]))
            }
            let d = top >> 32
            if d > UInt64(limit) { return settled }
            let x = Int(UInt32(truncatingIfNeeded: top))
            if state[2 &* x] != stampBits | d { continue }  // a stale entry: x was reached again, shorter
            if state[2 &* x &+ 1] >> 32 == stampBits >> 32 {
                // Settled without a witness: its distance is final, the shortcut is needed.
                state[2 &* x &+ 1] = 0
                targetsLeft -= 1
                if targetsLeft == 0 { return settled }
                limit = openLimit()
            }
            settled += 1
            if settled > settleLimit { limitHits &+= 1; return settled }
            let begin = Int(blockBegin[2 &* x])
            let end = begin &+ Int(blockCount[2 &* x])
            var s = begin
            while s < end {
                let a = arc[s]
                s &+= 1
                let y = UInt32(truncatingIfNeeded: a)
                let nd = d &+ (a >> 32)
                if nd > UInt64(limit) || y == avoided || excluded[Int(y)] != 0 { continue }
                let yi = 2 &* Int(y)
                let label = state[yi]
                if label & 0xFFFF_FFFF_0000_0000 != stampBits || nd < label & 0xFFFF_FFFF {
                    state[yi] = stampBits | nd
                    let target = state[yi &+ 1]
                    if target & 0xFFFF_FFFF_0000_0000 == stampBits && nd <= target & 0xFFFF_FFFF {
                        // Witnessed: some path avoiding the node is no longer than the one via it.
                        state[yi &+ 1] = 0
                        targetsLeft -= 1
                        if targetsLeft == 0 { return settled }
                        limit = openLimit()
                    }
                    push(nd << 32 | UInt64(y))
                }
            }
        }
        return settled
    }

    @inline(__always) private func push(_ entry: UInt64) {
        if heapCount == heapCapacity {
            let bigger = UnsafeMutablePointer<UInt64>.allocate(capacity: heapCapacity * 2)
            bigger.initialize(from: heap, count: heapCount)
            heap.deallocate()
            heap = bigger
            heapCapacity *= 2
        }
        var i = heapCount
        heapCount &+= 1
        while i > 0 {
            let parent = (i &- 1) >> 2
            if heap[parent] <= entry { break }
            heap[i] = heap[parent]
            i = parent
        }
        heap[i] = entry
    }

    @inline(__always) private func pop() -> UInt64 {
        let top = heap[0]
        heapCount &-= 1
        let last = heap[heapCount]
        var i = 0
        while true {
            let first = 4 &* i &+ 1
            if first >= heapCount { break }
            let (child, smallest) = smallestChild(heap, first: first, count: heapCount)
            if last <= smallest { break }
            heap[i] = smallest
            i = child
        }
        heap[i] = last
        return top
    }
}
