import ContractionHierarchy

/// The metric-independent part of a customizable contraction hierarchy: the graph contracted in a
/// fixed order without witness searches (its chordal supergraph), as upward arcs on ranks, and the
/// elimination tree. Every input arc maps to the one hierarchy arc between its ends, so a metric is
/// a weight per input arc and customizing it touches only flat arrays (`CCHMetric`).
public struct CCHTopology: Sendable {
    public let nodeCount: Int
    /// `rank[v]`: node `v`'s rank; `order[r]`: the node of rank `r`.
    public let rank: [UInt32]
    public let order: [UInt32]
    /// The arcs of rank `r` to higher ranks: `upHead[firstUp[r] ..< firstUp[r + 1]]`, ascending.
    /// An arc is undirected here: its metric has an upward and a downward weight.
    public let firstUp: [UInt32]
    public let upHead: [UInt32]
    /// The elimination tree: the lowest upper neighbour of each rank, `UInt32.max` at a root.
    public let parent: [UInt32]
    /// Per input arc: the hierarchy arc between its ends (`UInt32.max` for a loop), and whether the
    /// arc runs from the lower rank up (`goesUp`) or down.
    public let inputArc: [UInt32]
    public let inputGoesUp: [Bool]
    public let inputTail: [UInt32]
    public let inputHead: [UInt32]

    public var arcCount: Int { upHead.count }

    /// `tails`/`heads`: the directed input arcs (node ids); `order`: a metric-independent order.
    public init(nodeCount n: Int, tails: [UInt32], heads: [UInt32], order: NestedDissectionOrder) {
        precondition(tails.count == heads.count && order.rank.count == n, "CCHTopology: inconsistent input")
        let rank = order.rank
        // Upper neighbours per rank, then the elimination: a rank's upper neighbours become
        // neighbours of its lowest one (they form a clique once it is contracted).
        var upper = [[UInt32]](repeating: [], count: n)
        for i in tails.indices {
            let a = rank[Int(tails[i])], b = rank[Int(heads[i])]
            guard a != b else { continue }
            upper[Int(min(a, b))].append(max(a, b))
        }
        var parent = [UInt32](repeating: UInt32.max, count: n)
        for r in 0..<n where upper[r].count > 1 {
            upper[r].sort()
            upper[r] = Self.unique(upper[r])
        }
        // Lists stay sorted and unique from here: merges keep them so.
        var merged: [UInt32] = []
        for r in 0..<n {
            guard let p = upper[r].first else { continue }
            parent[r] = p
            guard upper[r].count > 1 else { continue }
            // Sorted merge of the parent's list with this one's other neighbours.
            let own = upper[Int(p)]
            merged.removeAll(keepingCapacity: true)
            merged.reserveCapacity(own.count + upper[r].count)
            var i = 0, j = 1
            let other = upper[r]
            while i < own.count || j < other.count {
                let next: UInt32
                if j >= other.count || (i < own.count && own[i] < other[j]) {
                    next = own[i]; i += 1
                } else if i >= own.count || other[j] < own[i] {
                    next = other[j]; j += 1
                } else {
                    next = own[i]; i += 1; j += 1
                }
                if merged.last != next { merged.append(next) }
            }
            upper[Int(p)] = merged
        }
        var firstUp = [UInt32](repeating: 0, count: n + 1)
        for r in 0..<n { firstUp[r + 1] = firstUp[r] + UInt32(upper[r].count) }
        var upHead = [UInt32]()
        upHead.reserveCapacity(Int(firstUp[n]))
        for r in 0..<n { upHead.append(contentsOf: upper[r]) }
        upper = []
        var inputArc = [UInt32](repeating: UInt32.max, count: tails.count)
        var goesUp = [Bool](repeating: false, count: tails.count)
        for i in tails.indices {
            let a = rank[Int(tails[i])], b = rank[Int(heads[i])]
            guard a != b else { continue }
            let (low, high) = (min(a, b), max(a, b))
            inputArc[i] = Self.find(high, in: upHead, Int(firstUp[Int(low)])..<Int(firstUp[Int(low) + 1]))
            goesUp[i] = a < b
        }
        self.nodeCount = n
        self.rank = rank
        self.order = order.order
        self.firstUp = firstUp
        self.upHead = upHead
        self.parent = parent
        self.inputArc = inputArc
        self.inputGoesUp = goesUp
        self.inputTail = tails
        self.inputHead = heads
    }

    /// The arc from rank `low` up to rank `high`, or nil.
    public func arc(from low: UInt32, to high: UInt32) -> UInt32? {
        let found = Self.find(high, in: upHead, Int(firstUp[Int(low)])..<Int(firstUp[Int(low) + 1]))
        return found == UInt32.max ? nil : found
    }

    private static func find(_ key: UInt32, in heads: [UInt32], _ range: Range<Int>) -> UInt32 {
        var lo = range.lowerBound, hi = range.upperBound
        while lo < hi {
            let mid = (lo + hi) / 2
            if heads[mid] < key { lo = mid + 1 } else { hi = mid }
        }
        return lo < range.upperBound && heads[lo] == key ? UInt32(lo) : UInt32.max
    }

    private static func unique(_ sorted: [UInt32]) -> [UInt32] {
        var out: [UInt32] = []
        out.reserveCapacity(sorted.count)
        for v in sorted where out.last != v { out.append(v) }
        return out
    }

    /// RoutingKit-style invariant check: ascending upper lists, every pair of a rank's upper
    /// neighbours joined by an arc (the graph is chordal in this order), the parent the lowest
    /// upper neighbour. Returns the first violation, or nil.
    public func invariantViolation() -> String? {
        for r in 0..<nodeCount {
            let range = Int(firstUp[r])..<Int(firstUp[r + 1])
            for i in range {
                if upHead[i] <= UInt32(r) { return "rank \(r): arc to \(upHead[i]) does not go up" }
                if i > range.lowerBound && upHead[i] <= upHead[i - 1] { return "rank \(r): upper list not ascending" }
            }
            let expected = range.isEmpty ? UInt32.max : upHead[range.lowerBound]
            if parent[r] != expected { return "rank \(r): parent \(parent[r]) is not its lowest upper neighbour \(expected)" }
            for i in range {
                for j in (i + 1)..<range.upperBound where arc(from: upHead[i], to: upHead[j]) == nil {
                    return "rank \(r): upper neighbours \(upHead[i]) and \(upHead[j]) are not joined"
                }
            }
        }
        return nil
    }
}
