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
    /// is four cache misses in a row (`CHGraphView.prefetchHalves`). So the path is unpacked
    /// level by level: every shortcut still on it is replaced by its halves in one pass whose
    /// lookups go in stages over all of them, and the misses of a stage overlap. Depth first,
    /// 16 arcs at a time off a stack, a stage overlapped at most 16 misses, most batches held
    /// real arcs too, and at ~5 M nodes unpacking was a quarter of a full route's time.
    ///
    /// The arcs form a list linked through an arena: a shortcut becomes its first half in place
    /// and its second half at the arena's end, linked after it, and each level visits only the
    /// shortcuts the previous one made. Rewriting the whole path at every level, as before, went
    /// over each real arc once per level (~12 levels, 4,250 arcs per path for 584 in it at ~5 M
    /// nodes).
    ///
    /// The up-down arcs' runs that are long (`UnpackedArcCache.minimumRun` arcs or more) are kept
    /// in the query's cache, and a later path with the same up-down arc copies its run: the
    /// shortcuts near the top are on most paths, and each is hundreds of halves to find.
    ///
    /// False on a hierarchy that does not unpack (a missing half, a middle not below both ends,
    /// or far more nodes than a shortest path can have): a damaged graph fails the query, it does not
    /// crash or loop. `CHGraphView.validate()` rules the first two out for checked files.
    func unpack(_ stack: inout [PendingArc], into nodes: inout [UInt32], arcWeights: inout [UInt32]) -> Bool {
        guard !graph.arcs.isEmpty else { return stack.isEmpty }
        // The query's buffers, kept between paths: taken out while in use (so its lists stay
        // uniquely referenced) and put back. The stack is read until the end, then emptied.
        var buf = unpackScratch.buffers.take() ?? UnpackBuffers()
        let unpacked = unpack(stack, into: &nodes, arcWeights: &arcWeights, in: &buf)
        unpackScratch.buffers = consume buf
        stack.removeAll(keepingCapacity: true)
        return unpacked
    }

    /// `unpack(_:into:arcWeights:)` working in `buf`: the arcs in travel order, each with the
    /// index of the one after it (-1 for the last), and the shortcuts among them.
    private func unpack(_ stack: [PendingArc], into nodes: inout [UInt32], arcWeights: inout [UInt32],
                        in buf: inout UnpackBuffers) -> Bool {
        let limit = 2 * graph.nodeCount + 2  // a shortest path visits each node about once
        let g = graph
        buf.arena.removeAll()
        buf.arena.reserve(2 * stack.count)
        buf.level.removeAll(keepingCapacity: true)
        // The up-down arcs (the stack's, last first) are the arena's first entries, and each
        // stays its run's first arc (a shortcut's first half takes its place), so their runs
        // start at those entries. Those unpacked before are copied from the cache (marked by
        // `UnpackedArcCache.marker` as their middle, their run's index in `cachedRuns` as their
        // weight), not unpacked again.
        let cache = unpackScratch.cache
        let initialCount = stack.count
        buf.cachedRuns.removeAll(keepingCapacity: true)
        var copiedArcs = 0   // what the runs found add to the path, besides their arena entries
        stack.withUnsafeBufferPointer { arcs in
            for i in 0..<arcs.count {
                var arc = arcs[arcs.count - 1 - i]
                if arc.middle != UInt32.max {
                    if let run = cache.run(from: arc.from, to: arc.to, middle: arc.middle) {
                        arc = (arc.from, arc.to, UnpackedArcCache.marker, UInt32(buf.cachedRuns.count))
                        buf.cachedRuns.append(run)
                        copiedArcs += run.count - 1
                    } else {
                        buf.level.append(Int32(i))
                    }
                }
                buf.arena.append((arc, i + 1 < arcs.count ? Int32(i + 1) : -1))
            }
        }
        while !buf.level.isEmpty {
            if buf.arena.count + buf.level.count + copiedArcs > limit { return false }
            buf.arena.reserve(buf.arena.count + buf.level.count)
            for i in buf.level where Int(buf.arena[Int(i)].arc.middle) >= g.nodeCount { return false }
            let arena = buf.arena.elements
            buf.level.withUnsafeBufferPointer { level in
                g.prefetchHalves(count: level.count) { Int(arena[Int(level[$0])].arc.middle) }
            }
            // The halves: the first replaces the shortcut, the second follows it.
            buf.nextLevel.removeAll(keepingCapacity: true)
            for i in buf.level {
                let (a, b, m, _) = buf.arena[Int(i)].arc
                guard m < a, m < b, let (first, second) = g.halves(from: a, to: b, via: m) else { return false }
                let firstMiddle = g.middle[first], secondMiddle = g.middle[second]
                let j = Int32(buf.arena.count)
                buf.arena.append(((m, b, secondMiddle, g.arcs[second].weight), buf.arena[Int(i)].next))
                buf.arena[Int(i)] = ((a, m, firstMiddle, g.arcs[first].weight), j)
                if firstMiddle != UInt32.max { buf.nextLevel.append(i) }
                if secondMiddle != UInt32.max { buf.nextLevel.append(j) }
            }
            swap(&buf.level, &buf.nextLevel)
        }
        // Every arc of the arena is on the list, once, and every cached run stands for its
        // arcs: written through the arrays' buffers (an append per arc tested capacity and
        // uniqueness twice).
        let count = buf.arena.count + copiedArcs
        let nodesBefore = nodes.count, weightsBefore = arcWeights.count
        nodes.append(contentsOf: repeatElement(0, count: count))
        arcWeights.append(contentsOf: repeatElement(0, count: count))
        let rankData = pathRankData
        buf.runStarts.removeAll(keepingCapacity: true)
        nodes.withUnsafeMutableBufferPointer { nodes in
            arcWeights.withUnsafeMutableBufferPointer { weights in
                @inline(__always) func emit(_ to: UInt32, _ weight: UInt32, at i: Int) {
                    if let rankData, Int(to) < rankData.count {
                        offgrid_prefetch(rankData.baseAddress.unsafelyUnwrapped + Int(to))
                    }
                    nodes[nodesBefore + i] = to
                    weights[weightsBefore + i] = weight
                }
                var k: Int32 = buf.arena.count > 0 ? 0 : -1, i = 0
                while k >= 0 && i < count {
                    let (arc, next) = buf.arena[Int(k)]
                    if Int(k) < initialCount { buf.runStarts.append(i) }
                    if arc.middle == UnpackedArcCache.marker {
                        for (to, weight) in buf.cachedRuns[Int(arc.weight)] where i < count {
                            emit(to, weight, at: i)
                            i += 1
                        }
                    } else {
                        emit(arc.to, arc.weight, at: i)
                        i += 1
                    }
                    k = next
                }
                // The long runs unpacked here are kept for the next paths.
                buf.runStarts.append(i)
                for r in 0..<min(initialCount, buf.runStarts.count - 1) {
                    let (from, to, middle, _) = stack[initialCount - 1 - r]
                    let start = buf.runStarts[r], end = buf.runStarts[r + 1]
                    guard middle != UInt32.max, buf.arena[r].arc.middle != UnpackedArcCache.marker,
                          end - start >= UnpackedArcCache.minimumRun else { continue }
                    cache.remember(from: from, to: to, middle: middle,
                                   nodes: UnsafeBufferPointer(rebasing: nodes[nodesBefore + start ..< nodesBefore + end]),
                                   weights: UnsafeBufferPointer(rebasing: weights[weightsBefore + start ..< weightsBefore + end]))
                }
            }
        }
        return true
    }
}

/// The buffers `CHQuery.unpack` keeps between paths (a query object is used by one thread), so
/// that unpacking a path allocates nothing but what it returns.
final class UnpackScratch {
    /// Nil only while `CHQuery.unpack` has them.
    var buffers: UnpackBuffers? = UnpackBuffers()
    /// Runs of up-down arcs unpacked before.
    var cache = UnpackedArcCache()
}

/// What `CHQuery.unpack` works in, moved out of its `UnpackScratch` while in use (through the
/// class, every append was a uniqueness check).
struct UnpackBuffers: ~Copyable {
    var arena = ScratchBuffer<(arc: CHQuery.PendingArc, next: Int32)>(capacity: 1024)
    /// The shortcuts of the level being unpacked, and of the next.
    var level: [Int32] = []
    var nextLevel: [Int32] = []
    /// Where each up-down arc's run starts in the path.
    var runStarts: [Int] = []
    /// The runs of this path's up-down arcs found in the cache.
    var cachedRuns: [UnpackedArcCache.Run] = []
}
