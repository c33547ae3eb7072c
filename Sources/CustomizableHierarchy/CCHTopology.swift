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
        // Input upper neighbours per rank, as a flat CSR (counting sort by the lower end).
        var firstInput = [UInt32](repeating: 0, count: n + 1)
        for i in tails.indices {
            let a = rank[Int(tails[i])], b = rank[Int(heads[i])]
            if a != b { firstInput[Int(min(a, b)) + 1] += 1 }
        }
        for r in 0..<n { firstInput[r + 1] += firstInput[r] }
        var inputUpper = [UInt32](repeating: 0, count: Int(firstInput[n]))
        var fill = firstInput
        for i in tails.indices {
            let a = rank[Int(tails[i])], b = rank[Int(heads[i])]
            guard a != b else { continue }
            let low = Int(min(a, b))
            inputUpper[Int(fill[low])] = max(a, b)
            fill[low] += 1
        }
        fill = []
        // The elimination, ranks ascending: a rank's upper neighbours are its input ones and its
        // children's (each child's upper neighbours form a clique once the child is contracted),
        // all final by then, so each list is written once, straight into the result, in rank
        // order. Children are linked as found (a child's parent is its lowest upper neighbour).
        var parent = [UInt32](repeating: UInt32.max, count: n)
        var firstChild = [UInt32](repeating: UInt32.max, count: n)
        var nextSibling = [UInt32](repeating: UInt32.max, count: n)
        var firstUp = [UInt32](repeating: 0, count: n + 1)
        var upHead = [UInt32]()
        upHead.reserveCapacity(4 * tails.count)
        var marked = [UInt32](repeating: UInt32.max, count: n)
        var scratch: [UInt32] = []
        for r in 0..<n {
            scratch.removeAll(keepingCapacity: true)
            let mark = UInt32(r)
            for i in Int(firstInput[r])..<Int(firstInput[r + 1]) where marked[Int(inputUpper[i])] != mark {
                marked[Int(inputUpper[i])] = mark
                scratch.append(inputUpper[i])
            }
            var child = firstChild[r]
            while child != UInt32.max {
                for i in Int(firstUp[Int(child)])..<Int(firstUp[Int(child) + 1]) {
                    let y = upHead[i]
                    guard y != UInt32(r), marked[Int(y)] != mark else { continue }
                    marked[Int(y)] = mark
                    scratch.append(y)
                }
                child = nextSibling[Int(child)]
            }
            scratch.sort()
            upHead.append(contentsOf: scratch)
            firstUp[r + 1] = UInt32(upHead.count)
            if let p = scratch.first {
                parent[r] = p
                nextSibling[r] = firstChild[Int(p)]
                firstChild[Int(p)] = UInt32(r)
            }
        }
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
