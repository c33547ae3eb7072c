import ContractionHierarchy

/// A node separator by inertial flow (Schild and Sommer, 2015, as RoutingKit orders CCHs): the
/// part's nodes projected on a direction, the first quarter joined into a source and the last
/// quarter into a sink, and a minimum set of nodes whose removal separates them (a maximum number
/// of node-disjoint paths, found by breadth-first augmenting paths; each node carries one unit).
/// Both sides keep at least a quarter of the part, and the separator is as small as the
/// direction allows.
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

    private static let none = UInt32.max

    init(adjacency: CSRGraph) {
        self.adjacency = adjacency
        let n = adjacency.nodeCount
        role = [UInt8](repeating: 0, count: n)
        flowPrev = [UInt32](repeating: Self.none, count: n)
        flowNext = [UInt32](repeating: Self.none, count: n)
        seen = [UInt32](repeating: 0, count: 2 * n)
        predecessor = [UInt32](repeating: 0, count: 2 * n)
    }

    /// The separator of `nodes` sorted by the projection (ascending), or nil when the source and
    /// sink touch (no node can separate them).
    mutating func separator(sortedNodes nodes: [UInt32]) -> (separator: [UInt32], sourceSide: [UInt32], sinkSide: [UInt32])? {
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
        while let sinkState = augmentingPath(from: sources) { augment(endingAt: sinkState) }
        // The last search reached what the source still reaches: the separator is the inner
        // nodes entered but not left.
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
            seenStamp = 1
        }
    }

    /// Breadth-first search of the residual graph from every source node's leaving state; the
    /// state of the sink node reached, or nil when none is (the flow is maximum).
    private mutating func augmentingPath(from sources: [UInt32]) -> UInt32? {
        nextStamp()
        queue.removeAll(keepingCapacity: true)
        for v in sources {
            let s = 2 * v + 1
            seen[Int(s)] = seenStamp
            predecessor[Int(s)] = Self.none
            queue.append(s)
        }
        var head = 0
        while head < queue.count {
            let state = queue[head]
            head += 1
            let v = Int(state >> 1)
            func visit(_ next: UInt32) -> Bool {
                guard seen[Int(next)] != seenStamp else { return false }
                seen[Int(next)] = seenStamp
                predecessor[Int(next)] = state
                queue.append(next)
                return true
            }
            if state & 1 == 1 {
                // Leaving v: along any arc (unbounded), or back into v against its own unit.
                for a in Int(adjacency.firstOut[v])..<Int(adjacency.firstOut[v + 1]) {
                    let w = adjacency.head[a]
                    switch role[Int(w)] {
                    case 1: _ = visit(2 * w)
                    case 3:
                        if visit(2 * w) { return 2 * w }
                    default: break
                    }
                }
                if role[v] == 1 && flowPrev[v] != Self.none { _ = visit(2 * UInt32(v)) }
            } else {
                // Entering v: through it when its unit is free, else back along its path.
                if flowPrev[v] == Self.none {
                    _ = visit(2 * UInt32(v) + 1)
                } else if role[Int(flowPrev[v])] == 1 {
                    _ = visit(2 * flowPrev[v] + 1)
                }
            }
        }
        return nil
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
