import ContractionHierarchy

/// Shortest paths on a customized hierarchy by elimination-tree search (Dibbelt, Strasser,
/// Wagner, §5): from the source up its elimination-tree ancestors relaxing upward weights, from
/// the target up its ancestors relaxing downward weights; the meeting rank is the best common
/// ancestor. No priority queue; the work is the tree depth times the upper degrees. Reusable: the
/// distance arrays are reset along the two walks after each query.
public final class CCHQuery {
    public let topology: CCHTopology
    public private(set) var metric: CCHMetric
    private var forward: [UInt32]
    private var backward: [UInt32]
    /// The arc that gave each rank its forward (backward) distance.
    private var forwardArc: [UInt32]
    private var backwardArc: [UInt32]

    public init(topology: CCHTopology, metric: CCHMetric) {
        self.topology = topology
        self.metric = metric
        forward = [UInt32](repeating: CCHMetric.infinity, count: topology.nodeCount)
        backward = forward
        forwardArc = [UInt32](repeating: UInt32.max, count: topology.nodeCount)
        backwardArc = forwardArc
    }

    /// Swaps in another metric of the same topology (after a new customization).
    public func use(_ metric: CCHMetric) {
        precondition(metric.up.count == topology.arcCount, "CCHQuery.use: a metric of another topology")
        self.metric = metric
    }

    /// The length of a shortest path between two nodes (node ids), nil if none.
    public func distance(from source: UInt32, to target: UInt32) -> UInt32? {
        search(from: source, to: target).map { $0.distance }
    }

    /// A shortest path as its nodes (node ids), source first, and its length; nil if none.
    public func path(from source: UInt32, to target: UInt32) -> (distance: UInt32, nodes: [UInt32])? {
        guard let found = search(from: source, to: target, keep: true) else { return nil }
        defer { reset(from: source, to: target) }
        // Hierarchy arcs from the source up to the meeting rank, then down to the target.
        var upward: [(low: UInt32, high: UInt32, up: Bool)] = []
        var r = found.meet
        while r != topology.rank[Int(source)] {
            let a = Int(forwardArc[Int(r)])
            let low = lowEnd(ofArc: a)
            upward.append((low, r, true))
            r = low
        }
        var ranks: [UInt32] = [topology.rank[Int(source)]]
        for step in upward.reversed() { unpack(from: step.low, to: step.high, into: &ranks) }
        r = found.meet
        while r != topology.rank[Int(target)] {
            let a = Int(backwardArc[Int(r)])
            let low = lowEnd(ofArc: a)
            unpack(from: r, to: low, into: &ranks)
            r = low
        }
        return (found.distance, ranks.map { topology.order[Int($0)] })
    }

    /// The lower end of a hierarchy arc (the rank whose upper list holds it).
    private func lowEnd(ofArc a: Int) -> UInt32 {
        var lo = 0, hi = topology.nodeCount
        let first = topology.firstUp
        while lo < hi {
            let mid = (lo + hi) / 2
            if Int(first[mid + 1]) <= a { lo = mid + 1 } else { hi = mid }
        }
        return UInt32(lo)
    }

    /// Appends the ranks of the input path `from → to` (ranks joined by a hierarchy arc) after
    /// `from`, which `ranks` already ends with.
    private func unpack(from: UInt32, to: UInt32, into ranks: inout [UInt32]) {
        var stack: [(UInt32, UInt32)] = [(from, to)]
        while let (a, b) = stack.popLast() {
            let goingUp = a < b
            let arc = Int(topology.arc(from: min(a, b), to: max(a, b))!)
            let middle = goingUp ? metric.upMiddle[arc] : metric.downMiddle[arc]
            if middle == CCHMetric.noMiddle {
                ranks.append(b)
            } else {
                stack.append((middle, b))
                stack.append((a, middle))
            }
        }
    }

    /// Both walks up the elimination tree at once, the lower rank first, so that a rank's arcs
    /// are relaxed only while its distance is below the best meeting found so far (pruning).
    private func search(from source: UInt32, to target: UInt32, keep: Bool = false) -> (distance: UInt32, meet: UInt32)? {
        let s = topology.rank[Int(source)], t = topology.rank[Int(target)]
        let infinity = CCHMetric.infinity
        var best = infinity, meet = UInt32.max
        topology.parent.withUnsafeBufferPointer { parent in
        topology.firstUp.withUnsafeBufferPointer { firstUp in
        topology.upHead.withUnsafeBufferPointer { head in
        metric.up.withUnsafeBufferPointer { up in
        metric.down.withUnsafeBufferPointer { down in
        forward.withUnsafeMutableBufferPointer { forward in
        backward.withUnsafeMutableBufferPointer { backward in
        forwardArc.withUnsafeMutableBufferPointer { forwardArc in
        backwardArc.withUnsafeMutableBufferPointer { backwardArc in
            forward[Int(s)] = 0
            backward[Int(t)] = 0
            var f = s, b = t
            let none = UInt32.max
            while f != none || b != none {
                // The lower of the two walks' ranks moves on (both when they have met).
                let r = min(f, b)
                let d = forward[Int(r)], e = backward[Int(r)]
                if d < infinity && e < infinity && d + e < best { best = d + e; meet = r }
                let arcs = Int(firstUp[Int(r)])..<Int(firstUp[Int(r) + 1])
                if r == f {
                    if d < best {
                        for a in arcs {
                            let y = Int(head[a]), nd = d + up[a]
                            if nd < forward[y] { forward[y] = nd; forwardArc[y] = UInt32(a) }
                        }
                    }
                    f = parent[Int(r)]
                }
                if r == b {
                    if e < best {
                        for a in arcs {
                            let y = Int(head[a]), nd = e + down[a]
                            if nd < backward[y] { backward[y] = nd; backwardArc[y] = UInt32(a) }
                        }
                    }
                    b = parent[Int(r)]
                }
            }
        }}}}}}}}}
        // Kept for a path to read, only when there is one (the caller resets after it).
        if !keep || best >= infinity { reset(from: source, to: target) }
        return best < infinity ? (best, meet) : nil
    }

    private func reset(from source: UInt32, to target: UInt32) {
        var r = topology.rank[Int(source)]
        while r != UInt32.max { forward[Int(r)] = CCHMetric.infinity; r = topology.parent[Int(r)] }
        r = topology.rank[Int(target)]
        while r != UInt32.max { backward[Int(r)] = CCHMetric.infinity; r = topology.parent[Int(r)] }
    }
}
