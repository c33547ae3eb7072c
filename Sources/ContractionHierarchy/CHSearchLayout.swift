/// The arrays a search reads, in the order `CHGraphView` documents: what a graph file stores and
/// `CHGraphStorage` copies.
extension ContractedGraph {
    /// Each rank's arcs regrouped (forward-only, both, backward-only; the `ContractedGraph` order
    /// kept within a group) as interleaved `CHArc` records, with their middles in the same order
    /// as `CHShortcutMiddles` stores them. `firstOut` is unchanged.
    public func searchLayout() -> (arcs: [CHArc], middleIndex: [UInt64], shortcutMiddle: [UInt32]) {
        precondition(nodeCount < CHArc.maxNodeCount, "a hierarchy holds fewer than 2^30 nodes")
        var arcs: [CHArc] = []
        var middles: [UInt32] = []
        arcs.reserveCapacity(head.count)
        middles.reserveCapacity(head.count)
        let groups: [UInt8] = [CHDirection.forward, CHDirection.forward | CHDirection.backward, CHDirection.backward]
        for r in 0..<nodeCount {
            let range = Int(firstOut[r])..<Int(firstOut[r + 1])
            for wanted in groups {
                for a in range where direction[a] == wanted {
                    arcs.append(CHArc(head: head[a], weight: weight[a], direction: wanted))
                    middles.append(middle[a])
                }
            }
        }
        let (index, shortcutMiddle) = CHShortcutMiddles.compact(middles)
        return (arcs, index, shortcutMiddle)
    }
}
