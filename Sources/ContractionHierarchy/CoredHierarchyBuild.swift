/// A hierarchy with its core table, as route-graph writes it: the core the table covers is left
/// uncontracted (`ContractionOptions.uncontractedCore`), since queries never search it but finish
/// with the table; a core whose distances do not fit the table's entries is contracted after all,
/// and then the table is empty and queries search the whole hierarchy.
public struct CoredHierarchy {
    public var graph: ContractedGraph
    /// `graph` in the search layout (`ContractedGraph.searchLayout`).
    public var arcs: [CHArc]
    public var middleIndex: [UInt64]
    public var shortcutMiddle: [UInt32]
    /// The core table's entries (`CHCoreTable.build`), empty for none.
    public var table: [UInt8]
}

extension ContractionHierarchyBuilder {
    /// Contracts all but the top `coreSize` nodes, renumbers the result with `renumber` (which
    /// must keep an uncontracted core on top, as `renumberedForLocality` does), and tables the
    /// core; contracts everything if the table cannot hold the core's distances. `stage` is
    /// called after each step with its name ("contract", "renumber", "core").
    public static func buildWithCoreTable(nodeCount: Int, arcs: ArcList, options: ContractionOptions, coreSize: Int,
                                          renumber: (ContractedGraph) -> ContractedGraph,
                                          stage: (String) -> Void = { _ in },
                                          progress: ((_ contracted: Int, _ total: Int) -> Void)? = nil) -> CoredHierarchy {
        let coreSize = min(max(0, coreSize), nodeCount, CHCoreTable.maxSize)
        func attempt(uncontracted: Int) -> CoredHierarchy {
            var options = options
            options.uncontractedCore = uncontracted
            let contracted = build(nodeCount: nodeCount, arcs: arcs, options: options, progress: progress)
            stage("contract")
            let graph = renumber(contracted)
            precondition(graph.uncontractedCore == contracted.uncontractedCore, "renumbering lost the uncontracted core")
            stage("renumber")
            let layout = graph.searchLayout()
            let table = graph.firstOut.withUnsafeBufferPointer { firstOut in
                layout.arcs.withUnsafeBufferPointer { arcs in
                    CHShortcutMiddles.with(arcCount: arcs.count, index: layout.middleIndex, shortcutMiddle: layout.shortcutMiddle,
                                           rankCount: graph.nodeCount) { middle in
                        let view = CHGraphView(nodeCount: graph.nodeCount, firstOut: firstOut, arcs: arcs, middle: middle)
                        return CHCoreTable.build(view, size: coreSize, threads: options.threads)
                    }
                }
            }
            stage("core")
            return CoredHierarchy(graph: graph, arcs: layout.arcs, middleIndex: layout.middleIndex,
                                  shortcutMiddle: layout.shortcutMiddle, table: table)
        }
        let cored = attempt(uncontracted: coreSize)
        guard cored.table.isEmpty && cored.graph.uncontractedCore > 0 else { return cored }
        options.log?("core distances exceed the table's entries: contracting the core too")
        return attempt(uncontracted: 0)
    }
}
