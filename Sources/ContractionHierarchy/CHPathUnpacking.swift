import CShims

/// Shortest paths on a contraction hierarchy, with every shortcut replaced by the original arcs
/// it stands for.
extension CHQuery {
    /// An arc of the hierarchy still to unpack: `from → to` in travel order, bypassing `middle`
    /// (`UInt32.max` for an original arc), and its weight.
    typealias PendingArc = (from: UInt32, to: UInt32, middle: UInt32, weight: UInt32)

    /// The shortest distance as in `distance(sources:targets:)`, plus the path as ranks from the
    /// chosen source to the chosen target; consecutive ranks are joined by an original arc.
    /// A single node when the best source and target are the same node.
    public func path(sources: [CHEndpoint], targets: [CHEndpoint]) -> (distance: UInt64, nodes: [UInt32])? {
        pathWithArcWeights(sources: sources, targets: targets).map { ($0.distance, $0.nodes) }
    }

    /// `path(sources:targets:)` with the weight of each original arc on it: `arcWeights[i]` is
    /// that of the arc into `nodes[i + 1]` (unpacking reads them anyway; looked up afterwards,
    /// each was a scan of the lower end's arcs).
    public func pathWithArcWeights(sources: [CHEndpoint], targets: [CHEndpoint])
        -> (distance: UInt64, nodes: [UInt32], arcWeights: [UInt32])? {
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
            down.append((v, parent, graph.middle[Int(arc)], graph.arcs[Int(arc)].weight))
            v = parent
        }
        pending.append(contentsOf: down.reversed())
        for hop in found.hops.reversed() {
            pending.append((hop.from, hop.to, graph.middle[Int(hop.arc)], graph.arcs[Int(hop.arc)].weight))
        }
        v = found.upEnd
        while forward[Int(v)].parentArc != UpwardSearchBuffers.noArc {
            let arc = forward[Int(v)].parentArc, parent = graph.tail(ofArc: arc)
            pending.append((parent, v, graph.middle[Int(arc)], graph.arcs[Int(arc)].weight))
            v = parent
        }
        var nodes: [UInt32] = [v], arcWeights: [UInt32] = []
        guard unpack(&pending, into: &nodes, arcWeights: &arcWeights) else { return nil }
        return (found.distance, nodes, arcWeights)
    }

    /// The path between two ranks, or nil if unreachable.
    public func path(from source: UInt32, to target: UInt32) -> (distance: UInt64, nodes: [UInt32])? {
        path(sources: [(source, 0)], targets: [(target, 0)])
    }

    /// Unpacks the arcs on `stack` (the next one last) into original arcs, appending each one's
    /// head to `nodes` and its weight to `arcWeights`, in travel order.
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
    func unpack(_ stack: inout [PendingArc], into nodes: inout [UInt32], arcWeights: inout [UInt32]) -> Bool {
        let limit = 2 * graph.nodeCount + 2  // a shortest path visits each node about once
        let batch = 16
        let g = graph
        guard let firstOut = g.firstOut.baseAddress, let arcs = g.arcs.baseAddress, let middleIndex = g.middle.index.baseAddress
        else { return stack.isEmpty }
        let nodeCount = g.nodeCount, arcCount = g.arcs.count
        let shortcutMiddles = g.middle.shortcutMiddle.baseAddress
        let rankData = pathRankData
        // The stack and the batch's halves in plain buffers: as arrays, every push and pop
        // checked capacity and uniqueness, and a batch was removed and appended again.
        var capacity = max(4 * batch, 2 * stack.count)
        var pending = UnsafeMutablePointer<PendingArc>.allocate(capacity: capacity)
        let expanded = UnsafeMutablePointer<PendingArc>.allocate(capacity: 2 * batch)
        defer {
            pending.deallocate()
            expanded.deallocate()
        }
        stack.withUnsafeBufferPointer { if let from = $0.baseAddress { pending.initialize(from: from, count: $0.count) } }
        var count = stack.count
        stack.removeAll(keepingCapacity: true)
        while count > 0 {
            let top = pending[count - 1]
            if top.middle == UInt32.max {
                if let rankData, Int(top.to) < rankData.count { offgrid_prefetch(rankData.baseAddress.unsafelyUnwrapped + Int(top.to)) }
                nodes.append(top.to)
                arcWeights.append(top.weight)
                if nodes.count > limit { return false }
                count -= 1
                continue
            }
            let base = max(0, count - batch)
            // Every pending arc's middle is asked for, a real arc's (UInt32.max) as the last rank:
            // one wasted prefetch of a line that stays cached, where a test per arc mispredicted
            // (real arcs and shortcuts come in no pattern).
            @inline(__always) func middleRank(_ j: Int) -> Int { min(Int(pending[j].middle), nodeCount - 1) }
            for j in base..<count {
                offgrid_prefetch(firstOut + middleRank(j))
            }
            for j in base..<count {
                let first = Int(firstOut[middleRank(j)])
                offgrid_prefetch(arcs + first)
                offgrid_prefetch(middleIndex + first >> 5)
            }
            if let shortcutMiddles, arcCount > 0 {
                for j in base..<count {
                    let first = min(Int(firstOut[middleRank(j)]), arcCount - 1)
                    offgrid_prefetch(shortcutMiddles + g.middle.firstShortcut(atOrAfter: first))
                }
            }
            var made = 0
            for j in base..<count {
                let (a, b, m, _) = pending[j]
                if m == UInt32.max {
                    expanded[made] = pending[j]
                    made += 1
                    continue
                }
                guard m < a, m < b, let (first, second) = g.halves(from: a, to: b, via: m) else { return false }
                // Bottom to top: the right half, then the left one, unpacked first.
                expanded[made] = (m, b, g.middle[second], g.arcs[second].weight)
                expanded[made + 1] = (a, m, g.middle[first], g.arcs[first].weight)
                made += 2
            }
            count = base
            if count + made > limit { return false }
            if count + made > capacity {
                let larger = UnsafeMutablePointer<PendingArc>.allocate(capacity: 2 * capacity)
                larger.moveInitialize(from: pending, count: count)
                pending.deallocate()
                pending = larger
                capacity *= 2
            }
            (pending + count).update(from: expanded, count: made)
            count += made
        }
        return true
    }
}
