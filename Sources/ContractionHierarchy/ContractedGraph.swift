/// A contraction hierarchy in rank numbering: node `r` is the `r`-th node contracted
/// (0 = least important), or, after `renumberedForLocality`, any id order in which arcs go up
/// and middles lie below both ends. Only upward arcs are stored; flat arrays only, ready to be
/// written out.
///
/// The arcs of rank `r` are `firstOut[r] ..< firstOut[r + 1]`, sorted by `head`, then `weight`,
/// then `middle`, then `direction`. Each arc joins `r` with a higher rank `head[i]`:
/// - `direction[i] & CHDirection.forward`: the original graph has a path `r → head` of `weight`;
/// - `direction[i] & CHDirection.backward`: the original graph has a path `head → r` of `weight`.
/// A forward and a backward arc share one entry only when weight and middle agree.
/// `middle[i]` is the rank of the node the shortcut bypasses (lower than both ends), or
/// `UInt32.max` for an original arc.
public struct ContractedGraph: Sendable, Equatable {
    public var nodeCount: Int
    /// Original node id → rank.
    public var rankOfNode: [UInt32]
    public var firstOut: [UInt32]
    public var head: [UInt32]
    public var weight: [UInt32]
    public var middle: [UInt32]
    public var direction: [UInt8]
    /// Arcs with a middle node (a shortcut stored forward and backward in one entry counts once).
    public var shortcutCount: Int
    /// The top ranks left uncontracted (`ContractionOptions.uncontractedCore`): their arcs among
    /// themselves are the graph that remained, not an up-down hierarchy, so searches must not go
    /// through them but finish with a table of their distances (`CHCoreTable`).
    public var uncontractedCore: Int

    public init(nodeCount: Int, rankOfNode: [UInt32], firstOut: [UInt32], head: [UInt32], weight: [UInt32],
                middle: [UInt32], direction: [UInt8], shortcutCount: Int, uncontractedCore: Int = 0) {
        self.nodeCount = nodeCount
        self.rankOfNode = rankOfNode
        self.firstOut = firstOut
        self.head = head
        self.weight = weight
        self.middle = middle
        self.direction = direction
        self.shortcutCount = shortcutCount
        self.uncontractedCore = uncontractedCore
    }

    public var arcCount: Int { head.count }

    /// Rank → original node id (the inverse of `rankOfNode`).
    public var nodeOfRank: [UInt32] {
        var nodes = [UInt32](repeating: 0, count: nodeCount)
        for (node, rank) in rankOfNode.enumerated() { nodes[Int(rank)] = UInt32(node) }
        return nodes
    }
}

/// Bits of `ContractedGraph.direction`.
public enum CHDirection {
    /// The arc is usable from the lower rank to the higher one (`r → head`).
    public static let forward: UInt8 = 1
    /// The arc is usable from the higher rank to the lower one (`head → r`).
    public static let backward: UInt8 = 2

    /// The same arc's directions seen from its other end (when that end stores it).
    @inline(__always) public static func fromHead(_ direction: UInt8) -> UInt8 {
        (direction & forward != 0 ? backward : 0) | (direction & backward != 0 ? forward : 0)
    }
}
