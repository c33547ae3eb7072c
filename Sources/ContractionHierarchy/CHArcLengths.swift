#if canImport(Glibc)
import Glibc
#endif

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
    @exclusivity(unchecked) private var frames: [Frame] = []

    /// A shortcut being summed: its second half (at `middle`), and the first half's sum once known.
    private struct Frame {
        var arc: Int
        var backward: Int
        var tail: UInt32
        var secondHalf: Int = -1
        var middle: UInt32 = 0
        var firstSum: UInt64 = 0
        var phase: UInt8 = 0
    }

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

    @inline(__always) private func slot(_ key: UInt32) -> Int {
        // Fibonacci hashing: the top bits of key × 2^32/φ.
        slotShift == 32 ? 0 : Int((key &* 0x9E37_79B1) >> slotShift)
    }

    @inline(__always) private func cached(_ arc: Int, _ backward: Int) -> UInt64? {
        guard caching else { return nil }
        let key = UInt32(truncatingIfNeeded: 2 &* arc &+ backward &+ 1)
        let entry = cache[slot(key)]
        return UInt32(truncatingIfNeeded: entry >> 32) == key ? entry & 0xFFFF_FFFF : nil
    }

    @inline(__always) private func remember(_ arc: Int, _ backward: Int, _ sum: UInt64) {
        guard caching, sum <= 0xFFFF_FFFF else { return }
        let key = UInt32(truncatingIfNeeded: 2 &* arc &+ backward &+ 1)
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

    /// `length` of an arc not in the cache.
    @inline(never)
    private func sum(arc: Int, backward: Int, tail: UInt32) -> UInt64? {
        // Depth first with an explicit stack (a deep hierarchy must not overflow a thread's
        // stack): each frame waits for its first half's sum, then its second's. `result` is the
        // sum of the frame popped last.
        frames.removeAll(keepingCapacity: true)
        frames.append(Frame(arc: arc, backward: backward, tail: tail))
        var result: UInt64 = 0
        var budget = 4 * graph.nodeCount + 64   // frames; a path visits each node about once
        while !frames.isEmpty {
            budget -= 1
            if budget < 0 { return nil }
            let top = frames.count - 1
            let f = frames[top]
            switch f.phase {
            case 0:
                if let known = cached(f.arc, f.backward) {
                    result = known
                    frames.removeLast()
                    continue
                }
                let record = graph.arcs[f.arc], m = graph.middle[f.arc]
                if m == UInt32.max {
                    result = UInt64(metric.value(f.backward == 0 ? record.head : f.tail))
                    remember(f.arc, f.backward, result)
                    frames.removeLast()
                    continue
                }
                // Forward t → h, backward h → t; each half is stored at m, the first one backward.
                let (from, to) = f.backward == 0 ? (f.tail, record.head) : (record.head, f.tail)
                guard m < f.tail, let (a1, a2) = graph.halves(from: from, to: to, via: m) else { return nil }
                frames[top].secondHalf = a2
                frames[top].middle = m
                frames[top].phase = 1
                frames.append(Frame(arc: a1, backward: 1, tail: m))
            case 1:
                frames[top].firstSum = result
                frames[top].phase = 2
                frames.append(Frame(arc: f.secondHalf, backward: 0, tail: f.middle))
            default:
                result = f.firstSum &+ result
                remember(f.arc, f.backward, result)
                frames.removeLast()
            }
        }
        return result
    }
}
