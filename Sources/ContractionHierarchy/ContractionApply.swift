import OffgridCore

/// A contraction decided by the witness searches: the node, and its shortcuts as `list`'s arcs
/// in `shortcuts` (the middle node implicit: it is `node`).
struct DecidedContraction {
    var node: Int
    var list: ShortcutList
    var shortcuts: Range<Int>
}

/// Carrying out contractions already decided: ranks, upward arcs, removal, shortcuts.
extension ContractionRun {
    /// Contracts the batch's nodes, which pairwise share no neighbour and are not adjacent (a
    /// round's independent set, or one node of the tail): gives them the next ranks in order,
    /// records their upward arcs, removes them from the graph, inserts their shortcuts and
    /// raises and marks (`touched`) their neighbours' levels.
    ///
    /// Each node's changes stay within its own blocks and its neighbours', disjoint from every
    /// other node's, so once `reserveRoom` has grown the blocks that need it the nodes are
    /// applied in parallel. The graph's arc sets come out the same as in any order; only the
    /// order of arcs inside a block can differ, which nothing downstream depends on (witness
    /// searches pop by distance and id, the collector sorts each node's arcs).
    func apply(_ batch: [DecidedContraction]) {
        if batch.isEmpty { return }
        for c in batch {
            rankOfNode[c.node] = UInt32(nextRank)
            nextRank += 1
        }
        let upward = collector.collect(nodes: batch.map(\.node), graph: graph, threads: options.threads)
        graph.reserveRoom(for: batch)
        let threads = options.threads
        let arcDelta = UnsafeMutablePointer<Int>.allocate(capacity: threads)
        arcDelta.initialize(repeating: 0, count: threads)
        defer { arcDelta.deallocate() }
        let chunk = min(1024, max(1, batch.count / (4 * threads)))
        Parallel.forEachChunk(count: batch.count, threads: threads, chunkSize: chunk) { worker, range in
            var delta = 0
            for i in range {
                let c = batch[i], v = c.node
                let neighbourLevel = level[v] + 1
                for side in 0..<2 {
                    for s in graph.slots(v, side) {
                        // `v` sits in the other side's block of each neighbour.
                        let x = Int(graph.neighbour(s))
                        graph.removeFromBlock(x, 1 - side, UInt32(v))
                        level[x] = max(level[x], neighbourLevel)
                    }
                }
                delta -= graph.clearNode(v)
                for k in c.shortcuts {
                    delta += graph.addOrImprove(tail: c.list.tail[k], head: c.list.head[k], weight: c.list.weight[k],
                                                middle: UInt32(v), hops: c.list.hops[k])
                }
            }
            arcDelta[worker] += delta
        }
        for w in 0..<threads { graph.countArcs(added: arcDelta[w]) }
        // The upward arcs' heads are exactly the contracted nodes' neighbours.
        collector.forEachHead(in: upward) { touch(Int($0)) }
    }
}
