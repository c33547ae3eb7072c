import Foundation

/// Knobs of `ContractionHierarchyBuilder.build`. The defaults are tuned on edge-based road graphs
/// (see docs/CH.md); none of them affects exactness, only build time and hierarchy quality.
public struct ContractionOptions: Sendable {
    /// Worker threads for witness searches and priority updates. The result does not depend on it.
    public var threads: Int
    /// Nodes a witness search may settle while really contracting a node. Larger finds more
    /// witnesses (fewer redundant shortcuts) but costs time.
    public var witnessSettleLimit: Int
    /// Same limit while only estimating a node's priority (done far more often, so tighter).
    public var simulationSettleLimit: Int
    /// Re-evaluate the priority of each node chosen for contraction with the real contraction's
    /// result and put it back if it is no longer minimal around it (the lazy update of
    /// Geisberger et al., applied to a whole round at once).
    public var lazyReevaluation: Bool
    /// After a round, only refresh the level term of the touched neighbours' priorities and mark
    /// them dirty; a dirty node is re-simulated when it is next chosen, and put back if its
    /// priority rose above its surroundings. Saves most simulations (see docs/CH.md); when
    /// false, every touched neighbour is re-simulated after every round.
    public var lazyNeighbourUpdates: Bool
    /// Once fewer nodes than this remain, contract them one at a time from a priority queue with
    /// lazy updates: independent sets in a small dense core are tiny, and rounds would be wasted.
    /// 6,000 rather than 2,000: there the real contraction's priority (witness searches of up to
    /// `witnessSettleLimit` nodes) orders the top better than the rounds' simulations (see
    /// docs/CH.md).
    public var sequentialTail: Int
    /// Leave this many nodes uncontracted: once only they remain, they take the top ranks in the
    /// order of their keys, with the arcs among them as the contraction left them (shortcuts of
    /// everything below, so their distances are the graph's). Contracting a dense core costs a
    /// third of the contraction at ~5 M nodes while the queries never search it: they stop below
    /// it and finish with its distance table (`CHCoreTable`), which must then cover exactly
    /// these ranks. 0 contracts every node.
    public var uncontractedCore: Int
    /// Weights of the priority terms (see `NodeOrdering`).
    public var weights: PriorityWeights
    /// Receives one line per phase (rounds, sizes, timings) for people; nil = silent.
    public var log: (@Sendable (String) -> Void)?

    public init(threads: Int = ProcessInfo.processInfo.activeProcessorCount,
                witnessSettleLimit: Int = 2_000,
                simulationSettleLimit: Int = 60,
                lazyReevaluation: Bool = true,
                lazyNeighbourUpdates: Bool = false,
                sequentialTail: Int = 6_000,
                uncontractedCore: Int = 0,
                weights: PriorityWeights = .init(),
                log: (@Sendable (String) -> Void)? = nil) {
        self.threads = max(1, threads)
        self.witnessSettleLimit = max(1, witnessSettleLimit)
        self.simulationSettleLimit = max(1, simulationSettleLimit)
        self.lazyReevaluation = lazyReevaluation
        self.lazyNeighbourUpdates = lazyNeighbourUpdates
        self.sequentialTail = max(0, sequentialTail)
        self.uncontractedCore = max(0, uncontractedCore)
        self.weights = weights
        self.log = log
    }
}

/// The weights of a node's priority terms: `1 + level·level + shortcuts·added/(1+removed) +
/// hops·addedHops/(1+removedHops)` (see `NodeOrdering`). They only shape the order, never the
/// exactness of the hierarchy.
///
/// RoutingKit weighs all three 1000. On the edge-based road graphs of the tiled extracts a level
/// weight of 500 gives 6 % fewer shortcuts and 13-27 % less route-graph CPU (1 M / 5 M
/// extract), with 1 % more settled nodes per query at 1 M and 3 % fewer at 5 M; 250 cuts more
/// at 1 M but costs 3 % settled, 2000 is worse on all counts (see docs/CH.md).
public struct PriorityWeights: Sendable, Equatable {
    public var level: Int
    public var shortcuts: Int
    public var hops: Int

    public init(level: Int = 500, shortcuts: Int = 1000, hops: Int = 1000) {
        self.level = level
        self.shortcuts = shortcuts
        self.hops = hops
    }
}
