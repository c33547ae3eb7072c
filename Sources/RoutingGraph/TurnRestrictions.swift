import RoutingProfile
import RoutingTiles

/// The routing tiles' turn restrictions resolved to edge directions (`2e + d`) of the
/// chain-compressed road graph, in the two forms the edge-based graph applies:
///
/// - via-node restrictions are single turns: a `no_*` one removes the arc from the arriving
///   direction to the leaving one, an `only_*` one every other arc of the arriving direction;
/// - via-way restrictions are paths `from, via…, to` (several via ways in order). They are
///   applied as OSRM does, by copying the edge-based nodes along the via path: a driver who
///   entered the path from the `from` way drives on the copies, whose forbidden exit is missing
///   (`no_*`) or whose only exit is the `to` way (`only_*`), while every other driver uses the
///   originals (`EdgeBasedGraph.applyViaWayRestrictions`).
///
/// Conditional restrictions (`restriction:conditional`) are kept in the tiles but not applied,
/// as OSRM does when it is given no time. A restriction that does not resolve (a way missing
/// from the loaded tiles, a via path not drivable in its direction, a to way not drivable from
/// the last via node) is skipped and counted.
struct TurnRestrictionRules {
    /// Nodes where a via-node restriction applies.
    var atNode: [Bool]
    /// `no_*` turns: arriving direction << 32 | leaving direction.
    var forbiddenTurns = Set<UInt64>()
    /// `only_*` turns: the leaving directions allowed after an arriving direction.
    var onlyTurns: [UInt32: [UInt32]] = [:]
    /// Via-way restrictions: the directions driven from the `from` way through the via ways
    /// (`prefix`, at least two), then the `to` way's directions leaving the last via node.
    var paths: [(prefix: [UInt32], to: [UInt32], isOnly: Bool)] = []
    /// Restrictions skipped: conditional ones, and those that did not resolve.
    var conditional = 0, unresolved = 0

    @inline(__always) func forbids(_ arriving: UInt32, _ leaving: UInt32) -> Bool {
        if forbiddenTurns.contains(UInt64(arriving) << 32 | UInt64(leaving)) { return true }
        if let allowed = onlyTurns[arriving], !allowed.contains(leaving) { return true }
        return false
    }

    /// `drivable(ed)`: whether the edge direction has an edge-based node.
    init(_ g: RoadGraph, first: [UInt32], ends: [UInt32], drivable: (UInt32) -> Bool) {
        atNode = [Bool](repeating: false, count: g.nodeCount)
        guard !g.restrictions.isEmpty else { return }
        /// The way an edge end (the direction leaving the node) has at that node.
        func wayAtNode(_ leave: UInt32) -> Int64 {
            let e = Int(leave >> 1)
            return leave & 1 == 0 ? g.edgeWayAtStart[e] : g.edgeWayAtEnd[e]
        }
        /// The far node of a direction, and the way it has there.
        func far(_ ed: UInt32) -> (node: Int, way: Int64) {
            let e = Int(ed >> 1)
            return ed & 1 == 0 ? (Int(g.edgeTo[e]), g.edgeWayAtEnd[e]) : (Int(g.edgeFrom[e]), g.edgeWayAtStart[e])
        }
        g.nodeOsmId.withUnsafeBufferPointer { ids in
            func node(_ osmId: Int64) -> Int? {
                let v = lowerBound(ids, osmId)
                return v < ids.count && ids[v] == osmId ? v : nil
            }
            for r in g.restrictions {
                guard r.condition.isEmpty else { conditional += 1; continue }
                guard let kind = RestrictionKind(rawValue: r.code) else { unresolved += 1; continue }
                let nodes = r.nodeOsmIds.compactMap(node)
                guard nodes.count == r.nodeOsmIds.count, nodes.count == r.viaWayIds.count + 1 else { unresolved += 1; continue }
                let n0 = nodes[0]
                // Directions arriving at the first via node on the from way.
                var from: [UInt32] = []
                for i in Int(first[n0])..<Int(first[n0 + 1]) where wayAtNode(ends[i]) == r.fromWayId && drivable(ends[i] ^ 1) {
                    from.append(ends[i] ^ 1)
                }
                // The via path, way after way, each to the node where it meets the next.
                var via: [UInt32] = []
                var resolved = true
                var current = n0
                for (k, way) in r.viaWayIds.enumerated() {
                    var previous = UInt32.max
                    var steps = 0
                    while current != nodes[k + 1] && resolved {
                        var next = UInt32.max
                        for i in Int(first[current])..<Int(first[current + 1]) {
                            let b = ends[i]
                            if b != previous ^ 1 && wayAtNode(b) == way && far(b).way == way { next = b; break }
                        }
                        steps += 1
                        guard next != UInt32.max, drivable(next), steps < 4096 else { resolved = false; break }
                        via.append(next)
                        previous = next
                        current = far(next).node
                    }
                }
                // Directions leaving the last via node on the to way (a via-node restriction from a
                // way onto itself concerns only the U-turn).
                let last = nodes[nodes.count - 1]
                var to: [UInt32] = []
                for i in Int(first[last])..<Int(first[last + 1]) where wayAtNode(ends[i]) == r.toWayId && drivable(ends[i]) {
                    to.append(ends[i])
                }
                guard resolved, !from.isEmpty, !to.isEmpty else { unresolved += 1; continue }
                for f in from {
                    let targets = via.isEmpty && r.fromWayId == r.toWayId ? to.filter { $0 == f ^ 1 } : to
                    if targets.isEmpty { continue }
                    if via.isEmpty {
                        atNode[n0] = true
                        if kind.isOnly {
                            onlyTurns[f, default: []].append(contentsOf: targets)
                        } else {
                            for t in targets { forbiddenTurns.insert(UInt64(f) << 32 | UInt64(t)) }
                        }
                    } else {
                        paths.append(([f] + via, targets, kind.isOnly))
                    }
                }
            }
        }
    }
}

extension EdgeBasedGraph {
    /// Applies via-way restrictions by copying edge-based nodes (`TurnRestrictionRules`): one
    /// copy per state "the driver has driven `from` and the first i directions of a via path"
    /// (shared by every restriction with that prefix). A copy's arcs are its original's (same
    /// weights, the via-node restrictions already applied), less the exits a restriction forbids
    /// there, each leading to the state the driver is then in: the longest driven sequence that
    /// is again a restriction's prefix (so overlapping restrictions and restrictions starting
    /// inside another's via path hold too), else the original node. Arcs from an original `from`
    /// direction into a via path's first direction lead to its copy.
    mutating func applyViaWayRestrictions(_ rules: TurnRestrictionRules) {
        firstCopy = nodeCount
        guard !rules.paths.isEmpty else { return }
        var stateOf: [[UInt32]: Int] = [:]
        var states: [[UInt32]] = []
        var forbiddenPaths = Set<[UInt32]>()
        var onlyAfter: [[UInt32]: Set<UInt32>] = [:]
        for p in rules.paths {
            for length in 2...p.prefix.count {
                let s = Array(p.prefix[0..<length])
                if stateOf[s] == nil {
                    stateOf[s] = states.count
                    states.append(s)
                }
            }
            if p.isOnly {
                onlyAfter[p.prefix, default: []].formUnion(p.to)
            } else {
                for t in p.to { forbiddenPaths.insert(p.prefix + [t]) }
            }
        }
        let base = UInt32(nodeCount)
        // The original arcs of the nodes the states leave from or start at.
        var wanted = [Bool](repeating: false, count: nodeCount)
        for s in states {
            wanted[Int(nodeOfEdgeDirection[Int(s.last!)])] = true
            wanted[Int(nodeOfEdgeDirection[Int(s[0])])] = true
        }
        var arcsOf: [UInt32: [Int]] = [:]
        for i in 0..<arcs.tails.count where wanted[Int(arcs.tails[i])] { arcsOf[arcs.tails[i], default: []].append(i) }

        for s in states {
            let original = nodeOfEdgeDirection[Int(s.last!)]
            edgeDirectionOfNode.append(s.last!)
            nodeWeight.append(nodeWeight[Int(original)])
        }
        /// The node a driver is on after `driven`: the longest suffix that is a state, else the
        /// last direction's original.
        func node(after driven: [UInt32]) -> UInt32 {
            for start in 0..<driven.count - 1 {
                if let id = stateOf[Array(driven[start...])] { return base + UInt32(id) }
            }
            return nodeOfEdgeDirection[Int(driven.last!)]
        }
        func forbidden(_ driven: [UInt32]) -> Bool {
            for start in 0..<max(0, driven.count - 2) where forbiddenPaths.contains(Array(driven[start...])) { return true }
            let next = driven.last!
            for start in 0..<driven.count - 2 {
                if let allowed = onlyAfter[Array(driven[start..<driven.count - 1])], !allowed.contains(next) { return true }
            }
            return false
        }
        var tails: [UInt32] = [], heads: [UInt32] = [], weights: [UInt32] = []
        for (id, s) in states.enumerated() {
            for i in arcsOf[nodeOfEdgeDirection[Int(s.last!)]] ?? [] {
                let driven = s + [edgeDirectionOfNode[Int(arcs.heads[i])]]
                if forbidden(driven) {
                    restrictedTurns += 1
                    continue
                }
                tails.append(base + UInt32(id))
                heads.append(node(after: driven))
                weights.append(arcs.weights[i])
            }
        }
        for (id, s) in states.enumerated() where s.count == 2 {
            for i in arcsOf[nodeOfEdgeDirection[Int(s[0])]] ?? [] where arcs.heads[i] == nodeOfEdgeDirection[Int(s[1])] {
                arcs.heads[i] = base + UInt32(id)
            }
        }
        arcs.tails.append(contentsOf: tails)
        arcs.heads.append(contentsOf: heads)
        arcs.weights.append(contentsOf: weights)
    }
}
