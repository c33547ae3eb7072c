import ContractionHierarchy

/// A metric-independent node order for a customizable contraction hierarchy (Dibbelt, Strasser,
/// Wagner, JEA 2016): recursive nested dissection on the graph's geometry. Each part is cut by
/// the smallest inertial-flow separator of four directions (east, north and the two diagonals;
/// `InertialFlowCut`), which takes the part's highest ranks, so a separator
/// is contracted after both halves and no shortcut ever crosses it. Parts that fall apart are
/// ordered one connected component at a time (a component needs no separator against another).
///
/// The order depends only on the graph's shape and coordinates, never on weights: every metric
/// (profile, exclusion set, closures) is customized on the same order. Deterministic: ties break
/// by node id.
public struct NestedDissectionOrder: Sendable {
    /// `order[r]` is the node of rank `r`.
    public let order: [UInt32]
    /// `rank[v]` is the rank of node `v`.
    public let rank: [UInt32]

    /// Parts of at most this many nodes are ordered as they are (too small to be worth a cut).
    public static let leafSize = 4

    /// `adjacency`: the undirected graph (both directions of every arc, loops and duplicates
    /// allowed); `x`, `y`: a planar position per node (e.g. longitude scaled by the cosine of the
    /// latitude, and latitude).
    public init(adjacency: CSRGraph, x: [Float], y: [Float]) {
        let n = adjacency.nodeCount
        precondition(x.count == n && y.count == n, "NestedDissectionOrder: one position per node")
        var rank = [UInt32](repeating: 0, count: n)
        var work = DissectionWork(adjacency: adjacency, x: x, y: y)
        // Parts waiting: their nodes and the first rank of their range (a part of k nodes takes
        // ranks first ..< first + k).
        var pending: [(nodes: [UInt32], first: Int)] = []
        for component in work.components(of: (0..<UInt32(n)).map { $0 }).reversed() {
            pending.append((component, 0))
        }
        // Components take consecutive rank ranges, in the order found.
        var next = 0
        for i in stride(from: pending.count - 1, through: 0, by: -1) {
            pending[i].first = next
            next += pending[i].nodes.count
        }
        while let part = pending.popLast() {
            if part.nodes.count <= Self.leafSize {
                for (k, v) in part.nodes.enumerated() { rank[Int(v)] = UInt32(part.first + k) }
                continue
            }
            let (separator, halves) = work.dissect(part.nodes)
            let top = part.first + part.nodes.count - separator.count
            for (k, v) in separator.enumerated() { rank[Int(v)] = UInt32(top + k) }
            var first = part.first
            for half in halves {
                for component in work.components(of: half) {
                    pending.append((component, first))
                    first += component.count
                }
            }
        }
        var order = [UInt32](repeating: 0, count: n)
        for v in 0..<n { order[Int(rank[v])] = UInt32(v) }
        self.order = order
        self.rank = rank
    }
}

/// Scratch state of the dissection: which part a node is in (by stamp) and its side of a cut.
private struct DissectionWork {
    let adjacency: CSRGraph
    let x: [Float], y: [Float]
    /// The stamp of the part being cut (or searched) that a node belongs to.
    var member: [UInt32]
    var stamp: UInt32 = 0
    /// The side of the current cut: 0 or 1.
    var side: [UInt8]
    var flow: InertialFlowCut

    init(adjacency: CSRGraph, x: [Float], y: [Float]) {
        self.adjacency = adjacency
        self.x = x
        self.y = y
        member = [UInt32](repeating: 0, count: adjacency.nodeCount)
        side = [UInt8](repeating: 0, count: adjacency.nodeCount)
        flow = InertialFlowCut(adjacency: adjacency)
    }

    private mutating func mark(_ nodes: [UInt32]) {
        stamp &+= 1
        if stamp == 0 {   // wrapped: clear the old stamps once
            for i in member.indices { member[i] = 0 }
            stamp = 1
        }
        for v in nodes { member[Int(v)] = stamp }
    }

    /// The connected components of the subgraph induced by `nodes`, each in ascending node order,
    /// in the order of their smallest node.
    mutating func components(of nodes: [UInt32]) -> [[UInt32]] {
        mark(nodes)
        let inPart = stamp
        stamp &+= 1
        let seen = stamp
        var result: [[UInt32]] = []
        var queue: [UInt32] = []
        for start in nodes.sorted() where member[Int(start)] == inPart {
            member[Int(start)] = seen
            queue.removeAll(keepingCapacity: true)
            queue.append(start)
            var head = 0
            while head < queue.count {
                let v = Int(queue[head])
                head += 1
                for a in Int(adjacency.firstOut[v])..<Int(adjacency.firstOut[v + 1]) {
                    let w = Int(adjacency.head[a])
                    if member[w] == inPart {
                        member[w] = seen
                        queue.append(UInt32(w))
                    }
                }
            }
            result.append(queue.sorted())
        }
        return result
    }

    /// A separator of the part `nodes` and the two halves it leaves: the smallest inertial-flow
    /// cut of the four directions; for parts too small for flows, or where every direction's
    /// source and sink touch, the smaller boundary of a cut at the median.
    mutating func dissect(_ nodes: [UInt32]) -> (separator: [UInt32], halves: [[UInt32]]) {
        var best: (separator: [UInt32], halves: [[UInt32]])?
        if nodes.count >= Self.smallestFlowPart {
            for direction in 0..<4 {
                let sorted = projected(nodes, direction)
                // A direction whose flow reaches the best cut's size cannot beat it: stopped there.
                guard let cut = flow.separator(sortedNodes: sorted, limit: best?.separator.count ?? Int.max) else { continue }
                if best == nil || cut.separator.count < best!.separator.count {
                    best = (cut.separator.sorted(), [cut.sourceSide, cut.sinkSide])
                }
            }
        }
        return best ?? medianBoundary(nodes)
    }

    /// Parts below this size are cut at the median (a flow costs more than it saves there).
    static let smallestFlowPart = 8

    /// `nodes` sorted by their projection on a direction: east, north, north-east, south-east.
    private func projected(_ nodes: [UInt32], _ direction: Int) -> [UInt32] {
        var keys = [UInt64](repeating: 0, count: nodes.count)
        for (k, v) in nodes.enumerated() {
            let px = x[Int(v)], py = y[Int(v)]
            let p: Float
            switch direction {
            case 0: p = px
            case 1: p = py
            case 2: p = px + py
            default: p = px - py
            }
            keys[k] = UInt64(Self.orderedBits(p)) << 32 | UInt64(v)
        }
        keys.sort()
        return keys.map { UInt32(truncatingIfNeeded: $0) }
    }

    /// The median cut of the best direction, its smaller boundary side as the separator.
    private mutating func medianBoundary(_ nodes: [UInt32]) -> (separator: [UInt32], halves: [[UInt32]]) {
        mark(nodes)
        let part = stamp
        var best: (separator: [UInt32], halves: [[UInt32]])?
        for direction in 0..<4 {
            let sorted = projected(nodes, direction)
            let half = nodes.count / 2
            for (k, v) in sorted.enumerated() { side[Int(v)] = k < half ? 0 : 1 }
            // The boundary of each side: its nodes with a neighbour across the cut.
            var boundary: [[UInt32]] = [[], []]
            for v in sorted {
                let v = Int(v)
                for a in Int(adjacency.firstOut[v])..<Int(adjacency.firstOut[v + 1]) {
                    let w = Int(adjacency.head[a])
                    if member[w] == part && side[w] != side[v] {
                        boundary[Int(side[v])].append(UInt32(v))
                        break
                    }
                }
            }
            let separator = boundary[boundary[0].count <= boundary[1].count ? 0 : 1].sorted()
            guard best == nil || separator.count < best!.separator.count else { continue }
            var halves: [[UInt32]] = [[], []]
            var inSeparator = Set<UInt32>(minimumCapacity: separator.count)
            for v in separator { inSeparator.insert(v) }
            for (k, v) in sorted.enumerated() where !inSeparator.contains(v) { halves[k < half ? 0 : 1].append(v) }
            best = (separator, halves)
        }
        return best!
    }

    /// A float's bits, mapped so that unsigned comparison orders as the floats do.
    static func orderedBits(_ f: Float) -> UInt32 {
        let bits = f.bitPattern
        return bits & 0x8000_0000 != 0 ? ~bits : bits | 0x8000_0000
    }
}
