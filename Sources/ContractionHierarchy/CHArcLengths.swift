#if canImport(Glibc)
import Glibc
#endif

/// A second quantity per node of the original graph, summed along paths: for a road network, an
/// edge-based node's length in centimetres, where the hierarchy's weight is its time. The same
/// instance must always give the same value for a node, since sums are memoized per instance.
public final class CHNodeMetric: @unchecked Sendable {
    public let value: (UInt32) -> UInt32

    public init(_ value: @escaping (UInt32) -> UInt32) { self.value = value }
}

/// Sums of a `CHNodeMetric` along the original paths that arcs of the hierarchy stand for,
/// memoized per arc and direction: the sum for a shortcut is the sums of its two halves, so a
/// path's sum costs one lookup per arc of its up-down path instead of an unpacking.
///
/// An arc's sum covers the nodes of its path after the one it is left from, up to and including
/// the one it arrives at: for the forward arc `r → h`, `h` and what the shortcut bypasses; for
/// the backward arc `h → r`, the same with `r` last. So the sums of consecutive arcs add up to a
/// path's sum without its first node.
///
/// One per thread: the memo is written without locks.
final class CHArcLengths {
    let graph: CHGraphView
    let metric: CHNodeMetric
    /// Two entries per arc (forward, backward): 0 = not known yet, `tooLong` = over 2^32 − 3,
    /// else the sum + 1.
    private let memo: UnsafeMutablePointer<UInt32>
    private var stack: [(arc: Int, backward: Int, tail: UInt32)] = []
    private static let tooLong = UInt32.max

    init(graph: CHGraphView, metric: CHNodeMetric) {
        self.graph = graph
        self.metric = metric
        // calloc: zeroed pages are "not known", and a table touches only the arcs it reaches.
        let n = max(1, 2 * graph.arcs.count)
        memo = calloc(n, MemoryLayout<UInt32>.stride)!.bindMemory(to: UInt32.self, capacity: n)
    }

    deinit { free(memo) }

    /// The sum for arc `arc` (stored at rank `tail`) in direction `bit`, or nil when it exceeds
    /// 2^32 − 3 or the hierarchy does not unpack (a missing half).
    func length(arc: Int, tail: UInt32, bit: UInt8) -> UInt64? {
        let backward = bit == CHDirection.backward ? 1 : 0
        let known = memo[2 &* arc &+ backward]
        if known != 0 { return known == Self.tooLong ? nil : UInt64(known &- 1) }
        stack.removeAll(keepingCapacity: true)
        stack.append((arc, backward, tail))
        // Depth-first over the halves still unknown; an entry is filled once both of its are.
        while let (a, b, t) = stack.last {
            if memo[2 &* a &+ b] != 0 { stack.removeLast(); continue }
            let record = graph.arcs[a], m = graph.middle[a]
            if m == UInt32.max {
                memo[2 &* a &+ b] = Self.entry(UInt64(metric.value(b == 0 ? record.head : t)))
                stack.removeLast()
                continue
            }
            // Forward t → h via m: t → m (m's backward arc to t), m → h (its forward arc to h).
            // Backward h → t: h → m (backward arc to h), m → t (forward arc to t).
            let (first, second) = b == 0 ? (t, record.head) : (record.head, t)
            guard m < t, let a1 = graph.arc(at: m, to: first, bit: CHDirection.backward),
                  let a2 = graph.arc(at: m, to: second, bit: CHDirection.forward) else { return nil }
            let s1 = memo[2 &* a1 &+ 1], s2 = memo[2 &* a2]
            if s1 != 0 && s2 != 0 {
                memo[2 &* a &+ b] = s1 == Self.tooLong || s2 == Self.tooLong
                    ? Self.tooLong : Self.entry(UInt64(s1 &- 1) &+ UInt64(s2 &- 1))
                stack.removeLast()
                continue
            }
            if s1 == 0 { stack.append((a1, 1, m)) }
            if s2 == 0 { stack.append((a2, 0, m)) }
            if stack.count > 2 * graph.nodeCount + 2 { return nil }
        }
        let sum = memo[2 &* arc &+ backward]
        return sum == Self.tooLong ? nil : UInt64(sum &- 1)
    }

    private static func entry(_ sum: UInt64) -> UInt32 {
        sum < UInt64(tooLong &- 1) ? UInt32(sum &+ 1) : tooLong
    }
}
