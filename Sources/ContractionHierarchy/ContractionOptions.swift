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
    public var sequentialTail: Int
    /// Receives one line per phase (rounds, sizes, timings) for people; nil = silent.
    public var log: (@Sendable (String) -> Void)?

    public init(threads: Int = ProcessInfo.processInfo.activeProcessorCount,
                witnessSettleLimit: Int = 2_000,
                simulationSettleLimit: Int = 60,
                lazyReevaluation: Bool = true,
                lazyNeighbourUpdates: Bool = false,
                sequentialTail: Int = 2_000,
                log: (@Sendable (String) -> Void)? = nil) {
        self.threads = max(1, threads)
        self.witnessSettleLimit = max(1, witnessSettleLimit)
        self.simulationSettleLimit = max(1, simulationSettleLimit)
        self.lazyReevaluation = lazyReevaluation
        self.lazyNeighbourUpdates = lazyNeighbourUpdates
        self.sequentialTail = max(0, sequentialTail)
        self.log = log
    }
}
