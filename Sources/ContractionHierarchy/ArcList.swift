/// A directed graph as three parallel arrays: arc `i` runs from `tails[i]` to `heads[i]` and costs
/// `weights[i]`.
///
/// Parallel arcs and self loops are allowed. Contraction keeps only the lightest of parallel arcs
/// and drops loops: with non-negative weights a loop never shortens a path.
/// Weights must be below 2^30, so that sums of a few arcs never overflow 32 bits in practice.
public struct ArcList: Sendable, Equatable {
    public var tails: [UInt32]
    public var heads: [UInt32]
    public var weights: [UInt32]

    /// Weights must stay below this bound (checked when a graph is built).
    public static let weightLimit: UInt32 = 1 << 30

    public init(tails: [UInt32] = [], heads: [UInt32] = [], weights: [UInt32] = []) {
        precondition(tails.count == heads.count && heads.count == weights.count,
                     "ArcList: tails (\(tails.count)), heads (\(heads.count)) and weights (\(weights.count)) differ in length")
        self.tails = tails
        self.heads = heads
        self.weights = weights
    }

    public var count: Int { tails.count }

    public mutating func append(tail: UInt32, head: UInt32, weight: UInt32) {
        tails.append(tail)
        heads.append(head)
        weights.append(weight)
    }

    public mutating func reserveCapacity(_ capacity: Int) {
        tails.reserveCapacity(capacity)
        heads.reserveCapacity(capacity)
        weights.reserveCapacity(capacity)
    }

    /// Checks the invariants every builder relies on; a violation is a programming error of the caller.
    func validate(nodeCount: Int) {
        precondition(nodeCount >= 0 && nodeCount < Int(UInt32.max), "node count \(nodeCount) out of range")
        precondition(tails.count == heads.count && heads.count == weights.count, "ArcList arrays differ in length")
        precondition(tails.count < Int(UInt32.max), "too many arcs: \(tails.count)")
        for i in 0..<tails.count {
            precondition(Int(tails[i]) < nodeCount && Int(heads[i]) < nodeCount,
                         "arc \(i) (\(tails[i])→\(heads[i])) names a node outside 0..<\(nodeCount)")
            precondition(weights[i] < ArcList.weightLimit, "arc \(i) weight \(weights[i]) is not below 2^30")
        }
    }
}
