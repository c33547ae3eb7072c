import ContractionHierarchy

/// A node separator by inertial flow (Schild and Sommer, 2015, as RoutingKit orders CCHs): the
/// part's nodes projected on a direction, the first quarter joined into a source and the last
/// quarter into a sink, and a minimum set of nodes whose removal separates them: a maximum number
/// of node-disjoint paths (each node carries one unit), found by breadth-first searches of the
/// residual graph. One search serves many paths: every sink it reaches ends a path of its search
/// tree, and those that share no inner node with a path already pushed in that round are pushed
/// together (a path changes the residual arcs of its own nodes only). The top cuts of a country
/// carry hundreds of paths; a search per path was most of the order's time. Both sides keep at
/// least a quarter of the part, and the separator is as small as the direction allows.
struct InertialFlowCut {
    let adjacency: CSRGraph
    /// Per node: 0 not in the part, 1 an inner node, 2 in the source, 3 in the sink. Reset to 0
    /// for the part's nodes when done.
    private var role: [UInt8]
    /// The flow: each inner node lies on at most one path; its predecessor and successor on it.
    private var flowPrev: [UInt32]
    private var flowNext: [UInt32]
    /// Breadth-first search over node states (2v: entering v, 2v + 1: leaving v).
    private var seen: [UInt32]
    private var seenStamp: UInt32 = 0
    private var predecessor: [UInt32]
    private var queue: [UInt32] = []
    /// The sink states the last search reached, in the order reached.
    private var sinksReached: [UInt32] = []
    /// Per node: the round (by `seenStamp`) in which a path through it was pushed.
    private var usedInRound: [UInt32]

    private static let none = UInt32.max

    init(adjacency: CSRGraph) {
        self.adjacency = adjacency
        let n = adjacency.nodeCount
        role = [UInt8](repeating: 0, count: n)
        flowPrev = [UInt32](repeating: Self.none, count: n)
        flowNext = [UInt32](repeating: Self.none, count: n)
        seen = [UInt32](repeating: 0, count: 2 * n)
        predecessor = [UInt32](repeating: 0, count: 2 * n)
        usedInRound = [UInt32](repeating: 0, count: n)
    }

    /// The separator of `nodes` sorted by the projection (ascending), or nil when the source and
    /// sink touch (no node can separate them) or when the separator would have `limit` nodes or
    /// more (a cut no smaller than one already found: the flow stops there).
    mutating func separator(sortedNodes nodes: [UInt32], limit: Int = Int.max) -> (separator: [UInt32], sourceSide: [UInt32], sinkSide: [UInt32])? {
        let quarter = max(1, nodes.count / 4)
        for (k, v) in nodes.enumerated() {
            role[Int(v)] = k < quarter ? 2 : (k >= nodes.count - quarter ? 3 : 1)
            flowPrev[Int(v)] = Self.none
            flowNext[Int(v)] = Self.none
        }
        defer { for v in nodes { role[Int(v)] = 0 } }
        // A source node next to a sink node: no separator of inner nodes exists.
        for v in nodes.prefix(quarter) {
            for a in Int(adjacency.firstOut[Int(v)])..<Int(adjacency.firstOut[Int(v) + 1]) where role[Int(adjacency.head[a])] == 3 {
                return nil
            }
        }
        let sources = Array(nodes.prefix(quarter))
        var flow = 0
        while searchResidual(from: sources) {
            flow += pushDisjointPaths(limit: limit - flow)
            if flow >= limit { return nil }
        }
        // The last search reached what the source still reaches in the residual graph (the same
        // for every maximum flow): the separator is the inner nodes entered but not left.
        var separator: [UInt32] = [], sourceSide: [UInt32] = [], sinkSide: [UInt32] = []
        for v in nodes {
            let enter = seen[2 * Int(v)] == seenStamp, leave = seen[2 * Int(v) + 1] == seenStamp
            if role[Int(v)] == 2 || (enter && leave) {
                sourceSide.append(v)
            } else if enter {
                separator.append(v)
            } else {
                sinkSide.append(v)
            }
        }
        return (separator, sourceSide, sinkSide)
    }

    private mutating func nextStamp() {
        seenStamp &+= 1
        if seenStamp == 0 {
            for i in seen.indices { seen[i] = 0 }
            for i in usedInRound.indices { usedInRound[i] = 0 }
            seenStamp = 1
        }
    }

    /// Breadth-first search of the residual graph from every source node's leaving state, to
    /// the end (sink states are recorded, not passed through); whether it reached a sink.
    private mutating func searchResidual(from sources: [UInt32]) -> Bool {
        nextStamp()
        let stamp = seenStamp
        queue.removeAll(keepingCapacity: true)
        sinksReached.removeAll(keepingCapacity: true)
        for v in sources {
            let s = 2 * v + 1
            seen[Int(s)] = stamp
            predecessor[Int(s)] = Self.none
            queue.append(s)
        }
        adjacency.firstOut.withUnsafeBufferPointer { firstOut in
        adjacency.head.withUnsafeBufferPointer { heads in
        role.withUnsafeBufferPointer { role in
        flowPrev.withUnsafeBufferPointer { flowPrev in
        seen.withUnsafeMutableBufferPointer { seen in
        predecessor.withUnsafeMutableBufferPointer { predecessor in
            var head = 0
            while head < queue.count {
                let state = queue[head]
                head += 1
                let v = Int(state >> 1)
                if state & 1 == 1 {
                    // Leaving v: along any arc to an inner or sink node (unbounded), or back into
                    // v against its own unit.
                    for a in Int(firstOut[v])..<Int(firstOut[v + 1]) {
                        let w = heads[a]
                        let r = role[Int(w)]
                        guard r == 1 || r == 3, seen[Int(2 * w)] != stamp else { continue }
                        seen[Int(2 * w)] = stamp
                        predecessor[Int(2 * w)] = state
                        if r == 3 { sinksReached.append(2 * w) } else { queue.append(2 * w) }
                    }
                    if role[v] == 1 && flowPrev[v] != Self.none && seen[2 * v] != stamp {
                        seen[2 * v] = stamp
                        predecessor[2 * v] = state
                        queue.append(2 * UInt32(v))
                    }
                } else {
                    // Entering v: through it when its unit is free, else back along its path.
                    let next: UInt32
                    if flowPrev[v] == Self.none {
                        next = 2 * UInt32(v) + 1
                    } else if role[Int(flowPrev[v])] == 1 {
                        next = 2 * flowPrev[v] + 1
                    } else {
                        continue
                    }
                    guard seen[Int(next)] != stamp else { continue }
                    seen[Int(next)] = stamp
                    predecessor[Int(next)] = state
                    queue.append(next)
                }
            }
        }}}}}}
        return !sinksReached.isEmpty
    }

    /// Pushes the last search's paths to the sinks it reached that share no inner node with a
    /// path pushed before them in this round (at most `limit`); how many.
    private mutating func pushDisjointPaths(limit: Int) -> Int {
        let round = seenStamp
        var pushed = 0
        for sink in sinksReached where pushed < limit {
            var state = predecessor[Int(sink)], free = true
            while state != Self.none {
                let v = Int(state >> 1)
                if role[v] == 1 && usedInRound[v] == round { free = false; break }
                state = predecessor[Int(state)]
            }
            guard free else { continue }
            state = predecessor[Int(sink)]
            while state != Self.none {
                usedInRound[Int(state >> 1)] = round
                state = predecessor[Int(state)]
            }
            augment(endingAt: sink)
            pushed += 1
        }
        return pushed
    }

    /// Pushes one unit along the path the last search found to `sinkState`.
    private mutating func augment(endingAt sinkState: UInt32) {
        // Cancelled arcs first (a path may leave a pointer that a later step of it sets again),
        // then the arcs the path adds.
        var state = sinkState
        var forward: [(UInt32, UInt32)] = []
        while predecessor[Int(state)] != Self.none {
            let from = predecessor[Int(state)]
            let u = from >> 1, w = state >> 1
            if from & 1 == 1 && state & 1 == 0 && u != w {
                forward.append((u, w))                         // leaving u into w: a new arc
            } else if from & 1 == 0 && state & 1 == 1 && u != w {
                flowPrev[Int(u)] = Self.none                   // entering u, back to w: cancel w -> u
                flowNext[Int(w)] = Self.none
            }
            state = from
        }
        for (u, w) in forward {
            flowNext[Int(u)] = w
            flowPrev[Int(w)] = u
        }
    }
}
