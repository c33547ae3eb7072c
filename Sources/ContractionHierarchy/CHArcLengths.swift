#if canImport(Glibc)
import Glibc
#endif
import CShims

/// A second quantity per node of the original graph, summed along paths: for a road network, an
/// edge-based node's length in centimetres, where the hierarchy's weight is its time. The same
/// instance must always give the same value for a node, since sums are cached per instance.
public final class CHNodeMetric: @unchecked Sendable {
    public let value: (UInt32) -> UInt32

    public init(_ value: @escaping (UInt32) -> UInt32) { self.value = value }
}

/// Sums of a `CHNodeMetric` along the original paths that arcs of the hierarchy stand for: a
/// shortcut's sum is its two halves' sums, so with the sums of the arcs a path's search uses
/// at hand, a path's sum costs one lookup per arc of its up-down path instead of an unpacking.
///
/// An arc's sum covers the nodes of its path after the one it is left from, up to and including
/// the one it arrives at: for the forward arc `r → h`, `h` and what the shortcut bypasses; for
/// the backward arc `h → r`, the same with `r` last. So the sums of consecutive arcs add up to a
/// path's sum without its first node.
///
/// Sums are kept in a direct-mapped cache of at most 2^19 entries (4 MiB), not one slot per arc
/// and direction: the arcs near the top, which every path uses, stay in it, and memory does not
/// grow with the graph (a slot per arc was 80 MB per thread at ~5 M nodes). A sum that was
/// evicted is found again from its halves. One per thread: the cache is written without locks.
final class CHArcLengths {
    let graph: CHGraphView
    let metric: CHNodeMetric
    /// `key << 32 | sum`, key = 2 × arc + backward + 1 (0: empty).
    private let cache: UnsafeMutablePointer<UInt64>
    private let slotShift: UInt32
    /// Keys fit in 32 bits (below 2^31 arcs); otherwise nothing is cached.
    private let caching: Bool
    /// Scratch of `sum`: the arcs of the tree being summed.
    @exclusivity(unchecked) private var items = ScratchBuffer<SumItem>(capacity: 256)
    /// Scratch of `sum`: the shortcuts of one level whose sums are not cached.
    @exclusivity(unchecked) private var expanding: [Int32] = []

    init(graph: CHGraphView, metric: CHNodeMetric, maxSlots: Int = 1 << 19) {
        self.graph = graph
        self.metric = metric
        var slots = 1
        var bits: UInt32 = 0
        while slots < min(maxSlots, 2 * graph.arcs.count) { slots <<= 1; bits += 1 }
        slotShift = 32 - bits
        caching = 2 * graph.arcs.count + 2 < Int(UInt32.max)
        // calloc: zeroed pages are empty slots, and cost nothing until used.
        cache = calloc(slots, MemoryLayout<UInt64>.stride)!.bindMemory(to: UInt64.self, capacity: slots)
    }

    deinit { free(cache) }

    @inline(__always) private func key(_ arc: Int, _ backward: Int) -> UInt32 {
        UInt32(truncatingIfNeeded: 2 &* arc &+ backward &+ 1)
    }

    @inline(__always) private func slot(_ key: UInt32) -> Int {
        // Fibonacci hashing: the top bits of key × 2^32/φ.
        slotShift == 32 ? 0 : Int((key &* 0x9E37_79B1) >> slotShift)
    }

    @inline(__always) private func cached(_ arc: Int, _ backward: Int) -> UInt64? {
        guard caching else { return nil }
        let key = key(arc, backward)
        let entry = cache[slot(key)]
        return UInt32(truncatingIfNeeded: entry >> 32) == key ? entry & 0xFFFF_FFFF : nil
    }

    @inline(__always) private func remember(_ arc: Int, _ backward: Int, _ sum: UInt64) {
        guard caching, sum <= 0xFFFF_FFFF else { return }
        let key = key(arc, backward)
        cache[slot(key)] = UInt64(key) << 32 | sum
    }

    /// The sum for arc `arc` (stored at rank `tail`) in direction `bit`, or nil if the hierarchy
    /// does not unpack (a missing half, a middle not below its arc's lower end, or far more arcs
    /// than a shortest path can have, as zero-weight shortcuts nested on purpose could make).
    @inline(__always)
    func length(arc: Int, tail: UInt32, bit: UInt8) -> UInt64? {
        let backward = bit == CHDirection.backward ? 1 : 0
        if let known = cached(arc, backward) { return known }
        return sum(arc: arc, backward: backward, tail: tail)
    }

    /// `length` of an arc not in the cache: the tree of halves below it, down to real arcs or
    /// arcs whose sums are cached, then the sums added up from the leaves.
    ///
    /// Level by level, as `CHQuery.unpack` does: finding a shortcut's halves is four misses in a
    /// row, and a level's shortcuts ask for theirs together (`CHGraphView.prefetchHalves`), so
    /// their misses overlap. Depth first, one shortcut at a time, each miss was waited for
    /// alone: a third of a ~5 M table's time with distances. Every sum found is remembered.
    @inline(never)
    private func sum(arc: Int, backward: Int, tail: UInt32) -> UInt64? {
        let g = graph
        guard arc < g.arcs.count else { return nil }
        // A tree of more arcs than this has a node twice on a path, which no shortest path has
        // (zero-weight shortcuts nested on purpose could make one): the hierarchy does not unpack.
        let limit = 2 * g.nodeCount + 2
        items.removeAll()
        items.append(SumItem(arc: arc, tail: tail, head: g.arcs[arc].head, middle: g.middle[arc], backward: backward != 0, parent: -1))
        var levelStart = 0
        while levelStart < items.count {
            let levelEnd = items.count
            // The level's shortcuts: cached sums taken; the others are replaced by their halves.
            for i in levelStart..<levelEnd where items[i].middle != UInt32.max { prefetchSlot(items[i].arc, items[i].backward ? 1 : 0) }
            expanding.removeAll(keepingCapacity: true)
            for i in levelStart..<levelEnd where items[i].middle != UInt32.max {
                if let known = cached(items[i].arc, items[i].backward ? 1 : 0) {
                    items[i].sum = known
                    items[i].isCached = true
                } else {
                    // Below the arc's lower end, so each level descends.
                    guard items[i].middle < items[i].tail else { return nil }
                    expanding.append(Int32(i))
                }
            }
            if items.count + 2 * expanding.count > limit { return nil }
            items.reserve(items.count + 2 * expanding.count)
            let tree = items.elements
            expanding.withUnsafeBufferPointer { expanding in
                g.prefetchHalves(count: expanding.count) { Int(tree[Int(expanding[$0])].middle) }
            }
            for i in expanding {
                let item = items[Int(i)]
                // Forward tail → head, backward head → tail; the first half is m's backward arc.
                let (from, to) = item.backward ? (item.head, item.tail) : (item.tail, item.head)
                let m = item.middle
                guard let (first, second) = g.halves(from: from, to: to, via: m) else { return nil }
                items.append(SumItem(arc: first, tail: m, head: from, middle: g.middle[first], backward: true, parent: i))
                items.append(SumItem(arc: second, tail: m, head: to, middle: g.middle[second], backward: false, parent: i))
            }
            levelStart = levelEnd
        }
        // A tree's arcs come after their parent: summed from the last, each is complete when
        // reached. A real arc's sum is the metric of the node it arrives at.
        for i in stride(from: items.count - 1, through: 0, by: -1) {
            var item = items[i]
            if item.middle == UInt32.max {
                item.sum = UInt64(metric.value(item.backward ? item.tail : item.head))
                items[i].sum = item.sum
            }
            if !item.isCached { remember(item.arc, item.backward ? 1 : 0, item.sum) }
            if item.parent >= 0 { items[Int(item.parent)].sum &+= item.sum }
        }
        return items[0].sum
    }

    @inline(__always) private func prefetchSlot(_ arc: Int, _ backward: Int) {
        guard caching else { return }
        offgrid_prefetch(cache + slot(key(arc, backward)))
    }
}

/// An arc of the tree `CHArcLengths.sum` adds up: summed `backward` (head → tail) or forward,
/// its middle (`UInt32.max` for a real arc), the arc it is a half of (-1 for the root), and its
/// sum, known once its halves are added in.
private struct SumItem {
    var arc: Int
    var tail: UInt32
    var head: UInt32
    var middle: UInt32
    var backward: Bool
    var parent: Int32
    var isCached = false
    var sum: UInt64 = 0
}
