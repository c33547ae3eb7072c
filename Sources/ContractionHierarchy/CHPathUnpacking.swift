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
        let forward = forwardState.buffers.label, backward = backwardState.buffers.label
        var upward: [(from: UInt32, to: UInt32, middle: UInt32)] = []
        var v = meet
        while forward[Int(v)].parentArc != UpwardSearchBuffers.noArc {
            let arc = forward[Int(v)].parentArc, parent = graph.tail(ofArc: arc)
            upward.append((parent, v, graph.middle[Int(arc)]))
            v = parent
        }
        nodes.append(v)
        for arc in upward.reversed() {
            guard unpack(from: arc.from, to: arc.to, middle: arc.middle, into: &nodes) else { return nil }
        }
        // Backward tree: meet down to the target; the arc from parent x (lower) up to y means y → x.
        v = meet
        while backward[Int(v)].parentArc != UpwardSearchBuffers.noArc {
            let arc = backward[Int(v)].parentArc, parent = graph.tail(ofArc: arc)
            guard unpack(from: v, to: parent, middle: graph.middle[Int(arc)], into: &nodes) else { return nil }
            v = parent
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
    ///
    /// False on a hierarchy that does not unpack (a missing half, a middle not below both ends,
    /// or far more nodes than a shortest path can have): a damaged graph fails the query, it does not
    /// crash or loop. `CHGraphView.validate()` rules the first two out for checked files.
    func unpack(from: UInt32, to: UInt32, middle: UInt32, into nodes: inout [UInt32]) -> Bool {
        var stack: [(from: UInt32, to: UInt32, middle: UInt32)] = [(from, to, middle)]
        let limit = 2 * graph.nodeCount + 2  // a shortest path visits each node about once
        while let (a, b, m) = stack.popLast() {
            if m == UInt32.max {
                nodes.append(b)
                if nodes.count > limit { return false }
                continue
            }
            guard m < a, m < b, let second = graph.arc(at: m, to: b, bit: CHDirection.forward),
                  let first = graph.arc(at: m, to: a, bit: CHDirection.backward)
            else { return false }
            stack.append((m, b, graph.middle[second]))
            stack.append((a, m, graph.middle[first]))
        }
        return true
    }
}
