import OffgridCore

/// Carrying out contractions already decided: ranks, upward arcs, removal, shortcuts.
extension ContractionRun {
    /// Contracts `nodes`, which pairwise share no neighbour and are not adjacent (a round's
    /// independent set, or one node of the tail), with the shortcuts their witness searches
    /// found (`shortcuts[i]` for `nodes[i]`, the middle node implicit): gives them the next
    /// ranks in order, records their upward arcs, removes them from the graph, inserts the
    /// shortcuts and raises and marks (`touched`) their neighbours' levels.
    ///
    /// Each node's changes stay within its own blocks and its neighbours', disjoint from every
    /// other node's, so once `reserveRoom` has grown the blocks that need it the nodes are
    /// applied in parallel. The graph's arc sets come out the same as in any order; only the
    /// order of arcs inside a block can differ, which nothing downstream depends on (witness
    /// searches pop by distance and id, the collector sorts each node's arcs).
    func apply(_ nodes: [Int], shortcuts: [(list: ShortcutList, range: Range<Int>)]) {
        if nodes.isEmpty { return }
        for v in nodes {
            rankOfNode[v] = UInt32(nextRank)
            nextRank += 1
        }
        let upward = collector.collect(nodes: nodes, graph: graph, threads: options.threads)
        graph.reserveRoom(for: zip(nodes, shortcuts).map { ($0, $1.list, $1.range) })
        let threads = options.threads
        let arcDelta = UnsafeMutablePointer<Int>.allocate(capacity: threads)
        arcDelta.initialize(repeating: 0, count: threads)
        defer { arcDelta.deallocate() }
        let chunk = min(1024, max(1, nodes.count / (4 * threads)))
        Parallel.forEachChunk(count: nodes.count, threads: threads, chunkSize: chunk) { worker, range in
            var delta = 0
            for i in range {
                let v = nodes[i]
                let neighbourLevel = level[v] + 1
                for s in graph.slots(v, DynamicGraph.inSide) {
                    let u = Int(graph.neighbour(s))
                    graph.removeFromBlock(u, DynamicGraph.outSide, UInt32(v))
                    level[u] = max(level[u], neighbourLevel)
                }
                for s in graph.slots(v, DynamicGraph.outSide) {
                    let w = Int(graph.neighbour(s))
                    graph.removeFromBlock(w, DynamicGraph.inSide, UInt32(v))
                    level[w] = max(level[w], neighbourLevel)
                }
                delta -= graph.clearNode(v)
                let (list, shortcutRange) = shortcuts[i]
                for k in shortcutRange {
                    delta += graph.addOrImprove(tail: list.tail[k], head: list.head[k], weight: list.weight[k],
                                                middle: UInt32(v), hops: list.hops[k])
                }
            }
            arcDelta[worker] += delta
        }
        for w in 0..<threads { graph.countArcs(added: arcDelta[w]) }
        // The upward arcs' heads are exactly the contracted nodes' neighbours.
        collector.forEachHead(in: upward) { touch(Int($0)) }
    }
}
