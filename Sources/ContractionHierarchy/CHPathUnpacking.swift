import CShims

/// Shortest paths on a contraction hierarchy, with every shortcut replaced by the original arcs
/// it stands for.
extension CHQuery {
    /// An arc of the hierarchy still to unpack: `from → to` in travel order, bypassing `middle`
    /// (`UInt32.max` for an original arc).
    typealias PendingArc = (from: UInt32, to: UInt32, middle: UInt32)

    /// The shortest distance as in `distance(sources:targets:)`, plus the path as ranks from the
    /// chosen source to the chosen target; consecutive ranks are joined by an original arc.
    /// A single node when the best source and target are the same node.
    public func path(sources: [CHEndpoint], targets: [CHEndpoint]) -> (distance: UInt64, nodes: [UInt32])? {
        guard let found = pathSearch(sources, targets) else { return nil }
        // The up-down path's arcs, last first (the unpacking stack's order): the backward tree
        // from the target up to where it starts (the meeting node, or the core's exit), the core
        // arcs if any, then the forward tree from its end down to the source. Arcs are stored at
        // their lower end; the backward tree's arc from parent x (lower) up to y means y → x.
        var pending: [PendingArc] = []
        let forward = forwardState.buffers.label, backward = backwardState.buffers.label
        var down: [PendingArc] = []
        var v = found.downStart
        while backward[Int(v)].parentArc != UpwardSearchBuffers.noArc {
            let arc = backward[Int(v)].parentArc, parent = graph.tail(ofArc: arc)
            down.append((v, parent, graph.middle[Int(arc)]))
            v = parent
        }
        pending.append(contentsOf: down.reversed())
        for hop in found.hops.reversed() { pending.append((hop.from, hop.to, graph.middle[Int(hop.arc)])) }
        v = found.upEnd
        while forward[Int(v)].parentArc != UpwardSearchBuffers.noArc {
            let arc = forward[Int(v)].parentArc, parent = graph.tail(ofArc: arc)
            pending.append((parent, v, graph.middle[Int(arc)]))
            v = parent
        }
        var nodes: [UInt32] = [v]
        guard unpack(&pending, into: &nodes) else { return nil }
        return (found.distance, nodes)
    }

    /// The path between two ranks, or nil if unreachable.
    public func path(from source: UInt32, to target: UInt32) -> (distance: UInt64, nodes: [UInt32])? {
        path(sources: [(source, 0)], targets: [(target, 0)])
    }

    /// Unpacks the arcs on `stack` (the next one last) into original arcs, appending each one's
    /// head to `nodes`, in travel order.
    ///
    /// A shortcut `a → b` via `m` is `a → m` then `m → b`; both halves are stored at `m`, the
    /// lowest of the three, as the backward arc to `a` and the forward arc to `b`. Finding them
    /// is four cache misses (m's arc range, then its arcs and their middles' index word, then the
    /// middles) that a one-at-a-time unpacking waits for in turn. So the top `batch` arcs of the
    /// stack are replaced by their halves together: first the ranges of all their middles are
    /// asked for, then the arcs and index words, then the middles, then the halves are found, and
    /// the misses overlap. The order of the stack, and so of the path, is unchanged.
    ///
    /// False on a hierarchy that does not unpack (a missing half, a middle not below both ends,
    /// or far more nodes than a shortest path can have): a damaged graph fails the query, it does not
    /// crash or loop. `CHGraphView.validate()` rules the first two out for checked files.
    func unpack(_ stack: inout [PendingArc], into nodes: inout [UInt32]) -> Bool {
        let limit = 2 * graph.nodeCount + 2  // a shortest path visits each node about once
        let batch = 16
        let g = graph
        guard let firstOut = g.firstOut.baseAddress, let arcs = g.arcs.baseAddress, let middleIndex = g.middle.index.baseAddress
        else { return stack.isEmpty }
        var expanded: [PendingArc] = []
        expanded.reserveCapacity(2 * batch)
        while let top = stack.last {
            if top.middle == UInt32.max {
                nodes.append(top.to)
                if nodes.count > limit { return false }
                stack.removeLast()
                continue
            }
            let base = max(0, stack.count - batch)
            // Shortcuts with a middle in range (a real arc's, UInt32.max, is never below nodeCount).
            for j in base..<stack.count where Int(stack[j].middle) < g.nodeCount {
                offgrid_prefetch(firstOut + Int(stack[j].middle))
            }
            for j in base..<stack.count where Int(stack[j].middle) < g.nodeCount {
                let first = Int(firstOut[Int(stack[j].middle)])
                offgrid_prefetch(arcs + first)
                offgrid_prefetch(middleIndex + first >> 5)
            }
            if let shortcutMiddles = g.middle.shortcutMiddle.baseAddress {
                for j in base..<stack.count where Int(stack[j].middle) < g.nodeCount {
                    let first = Int(firstOut[Int(stack[j].middle)])
                    if first < g.arcs.count { offgrid_prefetch(shortcutMiddles + g.middle.firstShortcut(atOrAfter: first)) }
                }
            }
            expanded.removeAll(keepingCapacity: true)
            for j in base..<stack.count {
                let (a, b, m) = stack[j]
                if m == UInt32.max { expanded.append(stack[j]); continue }
                guard m < a, m < b, let (first, second) = g.halves(from: a, to: b, via: m) else { return false }
                // Bottom to top: the right half, then the left one, unpacked first.
                expanded.append((m, b, g.middle[second]))
                expanded.append((a, m, g.middle[first]))
            }
            stack.removeLast(stack.count - base)
            stack.append(contentsOf: expanded)
            if stack.count > limit { return false }
        }
        return true
    }
}
