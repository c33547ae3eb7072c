import RoutingProfile
import RoutingTiles

/// The graph the search runs on: one node per drivable direction of a road edge, one arc per
/// allowed turn. Turn penalties, node delays and turn restrictions live on the arcs, so a
/// shortest path in this graph is exact for all of them (OSRM's edge-based graph).
///
/// An arc a → b costs the time to drive b plus the turn at the node between them, so a path's
/// weight is the source's own time (charged by the query, partially for a snapped start) plus
/// the arcs.
public struct EdgeBasedGraph {
    /// Edge-based node of (edge e, direction d) at `2e + d`, or `UInt32.max` if not drivable.
    public var nodeOfEdgeDirection: [UInt32] = []
    /// Inverse: `2e + d` of each edge-based node.
    public var edgeDirectionOfNode: [UInt32] = []
    /// Deciseconds to drive the whole edge in that direction.
    public var nodeWeight: [UInt32] = []
    public var arcs = ArcArrays()
    /// Turns removed by restrictions, and U-turns allowed (dead ends only).
    public var restrictedTurns = 0
    /// Restrictions not applied: conditional ones, and those that name ways or nodes the graph lacks.
    public var skippedRestrictions = 0
    /// Nodes from here on are copies made for via-way restrictions (`applyViaWayRestrictions`):
    /// each drives the same edge direction as an original node below it.
    public var firstCopy = 0
    public var uTurns = 0

    public var nodeCount: Int { edgeDirectionOfNode.count }

    public struct ArcArrays {
        public var tails: [UInt32] = []
        public var heads: [UInt32] = []
        public var weights: [UInt32] = []
    }

    public init(_ g: RoadGraph, profile: TravelProfile) {
        let edgeCount = g.edgeCount
        nodeOfEdgeDirection = [UInt32](repeating: UInt32.max, count: 2 * edgeCount)
        for e in 0..<edgeCount {
            let f = g.edgeFlags[e]
            if f & EdgeFlags.forward != 0 && g.edgeSpeedForward[e] > 0 {
                nodeOfEdgeDirection[2 * e] = UInt32(edgeDirectionOfNode.count)
                edgeDirectionOfNode.append(UInt32(2 * e))
                nodeWeight.append(EdgeRecord.deciseconds(lengthCm: g.edgeLengthCm[e], deciKmh: g.edgeSpeedForward[e]))
            }
            if f & EdgeFlags.backward != 0 && g.edgeSpeedBackward[e] > 0 {
                nodeOfEdgeDirection[2 * e + 1] = UInt32(edgeDirectionOfNode.count)
                edgeDirectionOfNode.append(UInt32(2 * e + 1))
                nodeWeight.append(EdgeRecord.deciseconds(lengthCm: g.edgeLengthCm[e], deciKmh: g.edgeSpeedBackward[e]))
            }
        }

        let n = g.nodeCount
        let (first, ends) = g.edgeEnds()

        // Restrictions resolved to edge directions (`TurnRestrictionRules`).
        let rules = TurnRestrictionRules(g, first: first, ends: ends) { [nodeOfEdgeDirection] in nodeOfEdgeDirection[Int($0)] != UInt32.max }
        skippedRestrictions = rules.conditional + rules.unresolved

        let restrictedPenalty = UInt32((profile.settings.restrictedAccessPenaltySeconds * 10).rounded())
        var arriving: [UInt32] = [], leaving: [UInt32] = []  // edge directions 2e + d
        for v in 0..<n {
            arriving.removeAll(keepingCapacity: true)
            leaving.removeAll(keepingCapacity: true)
            for i in Int(first[v])..<Int(first[v + 1]) {
                // An edge end is the direction that leaves v; its opposite arrives at v.
                let leave = ends[i]
                let arrive = leave ^ 1
                if nodeOfEdgeDirection[Int(leave)] != UInt32.max { leaving.append(leave) }
                if nodeOfEdgeDirection[Int(arrive)] != UInt32.max { arriving.append(arrive) }
            }
            let roads = Int(first[v + 1] - first[v])
            let delay = profile.nodeDelaySeconds(NodeControl(rawValue: g.nodeControl[v]))
            let restricted = rules.atNode[v]
            // A barrier lets routes reach it and turn back, never pass.
            let isBarrier = g.nodeControl[v] & NodeControlFlags.barrier != 0
            let isTurningPlace = g.nodeControl[v] & NodeControlFlags.turningPlace != 0
            let ring = RoundaboutCrossing(g, ends: ends[Int(first[v])..<Int(first[v + 1])], drivable: nodeOfEdgeDirection)
            for a in arriving {
                let ea = Int(a >> 1)
                let arrivingBearing = Double(a & 1 == 0 ? g.edgeBearingEnd[ea] : (g.edgeBearingStart[ea] + 1800) % 3600) / 10
                let uTurnAllowed = isBarrier || Self.uTurnAllowed(profile.settings.uTurns, arriving: a, roads: roads, waysIn: arriving.count,
                                                                  leaving: leaving, isTurningPlace: isTurningPlace,
                                                                  restricted: restricted, rules: rules)
                for b in leaving {
                    let eb = Int(b >> 1)
                    let isUTurn = b == a ^ 1
                    if isBarrier && !isUTurn { continue }
                    if isUTurn && !uTurnAllowed { continue }
                    if let ring, !isUTurn, ring.forbids(arriving: a, leaving: b) { continue }
                    if restricted && rules.forbids(a, b) {
                        restrictedTurns += 1
                        continue
                    }
                    let leavingBearing = Double(b & 1 == 0 ? g.edgeBearingStart[eb] : (g.edgeBearingEnd[eb] + 1800) % 3600) / 10
                    var seconds = delay
                    if roads > 2 || isUTurn {
                        let angle = TravelProfile.turnAngleDegrees(arrivingBearing: arrivingBearing, leavingBearing: leavingBearing)
                        seconds += profile.turnPenaltySeconds(turnAngleDegrees: isUTurn ? 180 : angle, isUTurn: isUTurn)
                    }
                    if isUTurn { uTurns += 1 }
                    // In whole deciseconds of its own (not rounded with the turn): the graph has one
                    // metric, so a route that must enter such a road reports the penalty in its duration.
                    let penalty = Self.isRestricted(g, b) && !Self.isRestricted(g, a) ? restrictedPenalty : 0
                    let head = nodeOfEdgeDirection[Int(b)]
                    arcs.tails.append(nodeOfEdgeDirection[Int(a)])
                    arcs.heads.append(head)
                    arcs.weights.append(nodeWeight[Int(head)] + UInt32((seconds * 10).rounded()) + penalty)
                }
            }
        }
        applyViaWayRestrictions(rules)
    }

    /// Whether the profile allows turning back onto the road arrived on (edge direction `a`) at a
    /// node with `roads` road ends, `waysIn` of them drivable into it, and `leaving` drivable out.
    /// OSRM's rule (`notAtIntersections`): at a dead end, a turning place, or where the road
    /// arrived on is the only way in or the U-turn the only way out left (the other exits
    /// one-way against the driver or forbidden by a restriction).
    private static func uTurnAllowed(_ rule: ProfileSettings.UTurnRule, arriving a: UInt32, roads: Int, waysIn: Int,
                                     leaving: [UInt32], isTurningPlace: Bool, restricted: Bool, rules: TurnRestrictionRules) -> Bool {
        switch rule {
        case .anywhere:
            return true
        case .deadEnds:
            return !leaving.contains { $0 != a ^ 1 }
        case .notAtIntersections:
            if roads == 1 || isTurningPlace || waysIn <= 1 { return true }
            var exits = 0
            for b in leaving where !(restricted && rules.forbids(a, b)) { exits += 1 }
            return exits <= 1
        }
    }

    /// Whether edge direction `2e + d` is only for reaching a place on it (`EdgeFlags.restricted…`).
    @inline(__always) static func isRestricted(_ g: RoadGraph, _ direction: UInt32) -> Bool {
        let flags = g.edgeFlags[Int(direction >> 1)]
        return flags & (direction & 1 == 0 ? EdgeFlags.restrictedForward : EdgeFlags.restrictedBackward) != 0
    }
}
