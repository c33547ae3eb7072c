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
        precondition(metric.arcCount == topology.arcCount, "CCHQuery.use: a metric of another topology")
        self.metric = metric
    }

    /// The length of a shortest path between two nodes (node ids), nil if none.
    public func distance(from source: UInt32, to target: UInt32) -> UInt32? {
        distance(sources: [(source, 0)], targets: [(target, 0)]).map { UInt32($0) }
    }

    /// A shortest path as its nodes (node ids), source first, and its length; nil if none.
    public func path(from source: UInt32, to target: UInt32) -> (distance: UInt32, nodes: [UInt32])? {
        path(sources: [(source, 0)], targets: [(target, 0)]).map { (UInt32($0.distance), $0.nodes) }
    }

    /// `CHQuery`'s semantics: the least `source.offset + dist + target.offset` over the pairs.
    public func distance(sources: [CHEndpoint], targets: [CHEndpoint]) -> UInt64? {
        let found = search(sources, targets)
        reset(sources, targets)
        return found?.distance
    }

    /// The path of `distance(sources:targets:)`: its nodes (node ids) from the chosen source to
    /// the chosen target.
    public func path(sources: [CHEndpoint], targets: [CHEndpoint]) -> (distance: UInt64, nodes: [UInt32])? {
        defer { reset(sources, targets) }
        guard let found = search(sources, targets) else { return nil }
        // Hierarchy arcs from the chosen source up to the meeting rank, then down to the target.
        var upward: [(low: UInt32, high: UInt32)] = []
        var r = found.meet
        while forwardArc[Int(r)] != UInt32.max {
            let low = lowEnd(ofArc: Int(forwardArc[Int(r)]))
            upward.append((low, r))
            r = low
        }
        var ranks: [UInt32] = [r]
        for step in upward.reversed() { unpack(from: step.low, to: step.high, into: &ranks) }
        r = found.meet
        while backwardArc[Int(r)] != UInt32.max {
            let low = lowEnd(ofArc: Int(backwardArc[Int(r)]))
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
            let middle = goingUp ? metric.upMiddle(arc) : metric.downMiddle(arc)
            if middle == CCHMetric.noMiddle {
                ranks.append(b)
            } else {
                stack.append((middle, b))
                stack.append((a, middle))
            }
        }
    }

    /// The walks up the elimination tree from every source and every target at once, the lowest
    /// rank first (each rank once), relaxing a rank's arcs only while its label is below the best
    /// meeting found so far (pruning). Labels stay set for `path` until `reset`.
    private func search(_ sources: [CHEndpoint], _ targets: [CHEndpoint]) -> (distance: UInt64, meet: UInt32)? {
        let infinity = CCHMetric.infinity
        let none = UInt32.max
        var best = UInt64.max, meet = none
        let rank = topology.rank
        // Each walk's current rank, sources' first.
        var walks = [UInt32]()
        walks.reserveCapacity(sources.count + targets.count)
        for (node, offset) in sources {
            let r = Int(rank[Int(node)])
            if offset < forward[r] { forward[r] = min(offset, infinity - 1); forwardArc[r] = none }
            walks.append(UInt32(r))
        }
        for (node, offset) in targets {
            let r = Int(rank[Int(node)])
            if offset < backward[r] { backward[r] = min(offset, infinity - 1); backwardArc[r] = none }
            walks.append(UInt32(r))
        }
        let sourceWalks = sources.count
        topology.parent.withUnsafeBufferPointer { parent in
        topology.firstUp.withUnsafeBufferPointer { firstUp in
        topology.upHead.withUnsafeBufferPointer { head in
        metric.weights.withUnsafeBufferPointer { weights in
        forward.withUnsafeMutableBufferPointer { forward in
        backward.withUnsafeMutableBufferPointer { backward in
        forwardArc.withUnsafeMutableBufferPointer { forwardArc in
        backwardArc.withUnsafeMutableBufferPointer { backwardArc in
            while true {
                let r = walks.min()!
                if r == none { break }
                var onForward = false, onBackward = false
                for k in walks.indices where walks[k] == r {
                    if k < sourceWalks { onForward = true } else { onBackward = true }
                    walks[k] = parent[Int(r)]
                }
                let d = forward[Int(r)], e = backward[Int(r)]
                if d < infinity && e < infinity && UInt64(d) + UInt64(e) < best { best = UInt64(d) + UInt64(e); meet = r }
                let arcs = Int(firstUp[Int(r)])..<Int(firstUp[Int(r) + 1])
                if onForward && UInt64(d) < best {
                    for a in arcs {
                        let y = Int(head[a]), nd = d + UInt32(truncatingIfNeeded: weights[a])
                        if nd < forward[y] { forward[y] = nd; forwardArc[y] = UInt32(a) }
                    }
                }
                if onBackward && UInt64(e) < best {
                    for a in arcs {
                        let y = Int(head[a]), nd = e + UInt32(truncatingIfNeeded: weights[a] >> 32)
                        if nd < backward[y] { backward[y] = nd; backwardArc[y] = UInt32(a) }
                    }
                }
            }
        }}}}}}}}
        return meet == none ? nil : (best, meet)
    }

    private func reset(_ sources: [CHEndpoint], _ targets: [CHEndpoint]) {
        for (node, _) in sources {
            var r = topology.rank[Int(node)]
            while r != UInt32.max { forward[Int(r)] = CCHMetric.infinity; r = topology.parent[Int(r)] }
        }
        for (node, _) in targets {
            var r = topology.rank[Int(node)]
            while r != UInt32.max { backward[Int(r)] = CCHMetric.infinity; r = topology.parent[Int(r)] }
        }
    }
}
