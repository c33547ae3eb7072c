import ContractionHierarchy

/// The strongly connected component of every rank (edge-based node), stored for the ranks outside
/// the main one (component 0) only: at ~5 M OSM nodes 24,800 of 2.32 M ranks, whose u16 per rank
/// spent 4.6 MB of the file on zeros until graph file version 6. `index` flags the ranks outside
/// component 0 (`FlagWords`, one word per 32 ranks), `minor` lists their components in rank order.
public struct RankComponents: @unchecked Sendable {
    public let rankCount: Int
    let index: UnsafeBufferPointer<UInt64>
    let minor: UnsafeBufferPointer<UInt16>

    /// Checks only the index length (O(1)); `problem` checks the rest.
    init(rankCount: Int, index: UnsafeBufferPointer<UInt64>, minor: UnsafeBufferPointer<UInt16>) {
        precondition(index.count == FlagWords.count(slots: rankCount), "the index has one word per 32 ranks")
        self.rankCount = rankCount
        self.index = index
        self.minor = minor
    }

    /// Rank `rank`'s component (0: the main one).
    @inline(__always) public subscript(rank: Int) -> UInt16 {
        FlagWords.isFlagged(index, rank) ? minor[FlagWords.flagged(index, before: rank)] : 0
    }

    /// The index and minor components of a component-per-rank array.
    static func compact(_ components: [UInt16]) -> (index: [UInt64], minor: [UInt16]) {
        let (index, minor) = FlagWords.compact(components, absent: 0)
        return (index, minor)
    }

    /// The first inconsistency, or nil: the index as `FlagWords.problem` wants it, and every
    /// listed component one of the file's `componentCount` other than the main one.
    func problem(componentCount: Int) -> String? {
        if let problem = FlagWords.problem(index, slots: rankCount, values: minor.count,
                                           names: ("rank", "ranks outside the main component", "components")) {
            return "section rankComponentIndex: \(problem)"
        }
        if let i = minor.firstIndex(where: { $0 == 0 || Int($0) >= componentCount }) {
            return "section rankMinorComponent entry \(i) is \(minor[i]), not in 1 ..< \(componentCount)"
        }
        return nil
    }
}
