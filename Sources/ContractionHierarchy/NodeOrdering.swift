import OffgridCore
/// How important a node is, and which nodes may be contracted together.
///
/// A node's key is `priority << 32 | node`: comparing keys compares priorities and breaks ties by
/// node id, so every order below is total and the hierarchy is deterministic.
enum NodeOrdering {
    /// Priority after RoutingKit (Dibbelt, Strasser, Wagner): a linear combination of
    /// - the edge quotient: shortcuts added / arcs removed (the edge difference of Geisberger et
    ///   al. as a ratio, so that high-degree nodes are not favoured just for being big),
    /// - the hop quotient: original arcs the new shortcuts stand for / those of the removed arcs,
    ///   which keeps shortcuts short and the hierarchy uniform,
    /// - the level: one more than the highest level of a contracted neighbour, which bounds the
    ///   depth of the hierarchy and so the size of query search spaces.
    /// The 1 added to each divisor handles isolated nodes and weighs small nodes slightly down.
    /// The terms are weighted by `ContractionOptions.weights` (`PriorityWeights`).
    static func priority(_ e: ContractionEstimate, level: UInt32, _ w: PriorityWeights) -> UInt32 {
        priority(quotients: quotients(e, w), level: level, w)
    }

    /// The part of the priority that needs a (simulated) contraction; the level is known cheaply.
    static func quotients(_ e: ContractionEstimate, _ w: PriorityWeights) -> UInt32 {
        let value = w.shortcuts * e.shortcuts / (1 + e.removedArcs) + w.hops * e.shortcutHops / (1 + e.removedHops)
        return UInt32(min(value, Int(UInt32.max / 2)))
    }

    static func priority(quotients: UInt32, level: UInt32, _ w: PriorityWeights) -> UInt32 {
        UInt32(min(1 + UInt64(w.level) * UInt64(level) + UInt64(quotients), UInt64(UInt32.max)))
    }

    @inline(__always) static func key(priority: UInt32, node: Int) -> UInt64 {
        UInt64(priority) << 32 | UInt64(node)
    }

    /// The nodes of `remaining` whose key is the smallest within two hops (arcs in either
    /// direction), in the order of `remaining`: the independent sets of parallel contraction
    /// (Vetter 2009). No two chosen nodes are neighbours or share a neighbour, so their
    /// contractions touch disjoint arc sets and each node's priority sees at most one change.
    ///
    /// `oneHopMinimum` is scratch of `nodeCount` entries.
    static func localMinima(remaining: [UInt32], key: UnsafeMutablePointer<UInt64>,
                            oneHopMinimum: UnsafeMutablePointer<UInt64>, graph g: DynamicGraph,
                            threads: Int) -> [UInt32] {
        let count = remaining.count
        let chunk = 4096
        // Pass 1: smallest key among each node and its neighbours.
        remaining.withUnsafeBufferPointer { nodes in
            Parallel.forEachChunk(count: count, threads: threads, chunkSize: chunk) { _, range in
                for i in range {
                    let v = Int(nodes[i])
                    var m = key[v]
                    for side in 0..<2 {
                        for s in g.slots(v, side) { m = min(m, key[Int(g.neighbour(s))]) }
                    }
                    oneHopMinimum[v] = m
                }
            }
        }
        // Pass 2: v is chosen when no node within two hops has a smaller key.
        var chosen = [UInt8](repeating: 0, count: count)
        remaining.withUnsafeBufferPointer { nodes in
            chosen.withUnsafeMutableBufferPointer { chosen in
                Parallel.forEachChunk(count: count, threads: threads, chunkSize: chunk) { _, range in
                    for i in range {
                        let v = Int(nodes[i])
                        let own = key[v]
                        guard oneHopMinimum[v] == own else { continue }
                        var isMinimum = true
                        scan: for side in 0..<2 {
                            for s in g.slots(v, side) where oneHopMinimum[Int(g.neighbour(s))] < own {
                                isMinimum = false
                                break scan
                            }
                        }
                        if isMinimum { chosen[i] = 1 }
                    }
                }
            }
        }
        var result: [UInt32] = []
        for i in 0..<count where chosen[i] != 0 { result.append(remaining[i]) }
        return result
    }

    /// The smallest key within two hops of `v`, not counting `v` itself (UInt64.max if none):
    /// the bar a chosen node's re-evaluated key must stay under to be contracted this round.
    static func smallestKeyAround(_ v: Int, key: UnsafeMutablePointer<UInt64>, graph g: DynamicGraph) -> UInt64 {
        var m = UInt64.max
        for side in 0..<2 {
            for s in g.slots(v, side) {
                let x = Int(g.neighbour(s))
                m = min(m, key[x])
                for side2 in 0..<2 {
                    for s2 in g.slots(x, side2) where Int(g.neighbour(s2)) != v {
                        m = min(m, key[Int(g.neighbour(s2))])
                    }
                }
            }
        }
        return m
    }
}
