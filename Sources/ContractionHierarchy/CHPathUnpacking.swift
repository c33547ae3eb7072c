/// Shortest paths on a contraction hierarchy, with every shortcut replaced by the original arcs
/// it stands for.
extension CHQuery {
    /// The shortest distance as in `distance(sources:targets:)`, plus the path as ranks from the
    /// chosen source to the chosen target; consecutive ranks are joined by an original arc.
    /// A single node when the best source and target are the same node.
    public func path(sources: [CHEndpoint], targets: [CHEndpoint]) -> (distance: UInt64, nodes: [UInt32])? {
        let (best, meet) = search(sources: sources, targets: targets)
        guard best != UInt64.max else { return nil }
        var nodes: [UInt32] = []
        // Forward tree: meet back to the source, arcs stored at their lower (tail) end.
        var upwardArcs: [Int] = []
        var v = meet
        while true {
            let a = forwardState.buffers.parentArc[Int(v)]
            if a == UpwardSearchBuffers.noArc { break }
            upwardArcs.append(Int(a))
            v = graph.tail(ofArc: Int(a))
        }
        nodes.append(v)
        for a in upwardArcs.reversed() {
            // Arc a runs tail(a) → head(a) forward.
            unpack(from: graph.tail(ofArc: Int(a)), to: graph.head[a], middle: graph.middle[a], into: &nodes)
        }
        // Backward tree: meet down to the target; arc a at x (lower) with head y means y → x.
        v = meet
        while true {
            let a = backwardState.buffers.parentArc[Int(v)]
            if a == UpwardSearchBuffers.noArc { break }
            let x = graph.tail(ofArc: Int(a))
            unpack(from: v, to: x, middle: graph.middle[Int(a)], into: &nodes)
            v = x
        }
        return (best, nodes)
    }

    /// The path between two ranks, or nil if unreachable.
    public func path(from source: UInt32, to target: UInt32) -> (distance: UInt64, nodes: [UInt32])? {
        path(sources: [(source, 0)], targets: [(target, 0)])
    }

    /// Appends the nodes after `from` on the original path that the arc `from → to` (bypassing
    /// `middle`, or `UInt32.max` for an original arc) stands for.
    ///
    /// A shortcut `a → b` via `m` is `a → m` then `m → b`; both halves are stored at `m`, the
    /// lowest of the three, as the backward arc to `a` and the forward arc to `b`. Iterative, with
    /// an explicit stack of pending halves (right half pushed first).
    func unpack(from: UInt32, to: UInt32, middle: UInt32, into nodes: inout [UInt32]) {
        var stack: [(from: UInt32, to: UInt32, middle: UInt32)] = [(from, to, middle)]
        while let (a, b, m) = stack.popLast() {
            if m == UInt32.max {
                nodes.append(b)
                continue
            }
            guard let second = graph.arc(at: m, to: b, bit: CHDirection.forward),
                  let first = graph.arc(at: m, to: a, bit: CHDirection.backward)
            else { preconditionFailure("shortcut \(a) → \(b) via \(m) has no halves: corrupt hierarchy") }
            stack.append((m, b, graph.middle[second]))
            stack.append((a, m, graph.middle[first]))
        }
    }
}
