import RoutingTiles

/// The kinds of roundabout OSRM's guidance tells apart (`RoundaboutType`), each announced its own way.
enum RoundaboutKind {
    /// A plain roundabout: `roundabout` on entry (with the exit to take), `exit roundabout` on leaving.
    case roundabout
    /// A large roundabout with a name of its own: `rotary`, `exit rotary`.
    case rotary
    /// A small roundabout that is no more than an intersection (OSRM's roundabout intersection):
    /// one `roundabout turn` with the turn it amounts to and the exit, no exit step.
    case intersection
    /// A ring OSRM's guidance cannot follow (a fork in it, a node with more or fewer than two
    /// ring roads, a ring road that cannot be driven on, no junction): its roads are plain roads.
    case none

    /// The step that enters it (none for a plain ring).
    var entry: ManeuverType? {
        switch self {
        case .roundabout: return .roundabout
        case .rotary: return .rotary
        case .intersection: return .roundaboutTurn
        case .none: return nil
        }
    }

    /// The step that leaves it (a roundabout intersection left separately: `exit roundabout`).
    var exit: ManeuverType? {
        switch self {
        case .roundabout, .intersection: return .exitRoundabout
        case .rotary: return .exitRotary
        case .none: return nil
        }
    }
}

/// OSRM's `getRoundaboutType`: the ring walked once from a node on it, its junctions (nodes with
/// a road besides the ring's two), its length and its names.
extension StepBuilder {
    /// A roundabout no bigger than this (radius: its length over 2π) can be an intersection
    /// (OSRM's `MAX_ROUNDABOUT_INTERSECTION_RADIUS`); one bigger with a name of its own is a
    /// rotary (`MAX_ROUNDABOUT_RADIUS`).
    static let roundaboutIntersectionRadiusMeters = 15.0
    static let rotaryRadiusMeters = 15.0
    /// A roundabout intersection has at most this many junctions on its ring.
    static let roundaboutIntersectionJunctions = 4
    /// Its roads must leave in directions this far apart or more (OSRM's `NARROW_TURN_ANGLE`:
    /// closer, they are not told apart as turns).
    static let narrowTurnDegrees = 40.0

    /// The kind of the ring through `node` (a node on it), as OSRM decides it once per ring: one
    /// junction, an intersection; a large ring with one name no road at it bears, a rotary; at
    /// most four junctions of one road each, the roads well apart, the radius under 15 m, an
    /// intersection; else a roundabout. A ring OSRM cannot follow is `none`; one not walked
    /// round within 256 nodes a roundabout.
    func roundaboutKind(ringAt node: Int) -> RoundaboutKind {
        var ringName: UInt32 = 0, oneName = true
        var lengthCm = 0.0
        var junctions = 0, simpleJunctions = true
        // The one road besides the ring at each of the first junctions (an edge direction
        // leaving the node): their bearings are measured only if the ring may be an intersection.
        var sideRoads: (Int, Int, Int, Int) = (-1, -1, -1, -1)
        var current = node
        var closed = false
        for _ in 0..<256 {
            let ends = data.ends(of: current), first = ends.lowerBound, end = ends.upperBound
            if end - first > 2 {
                junctions += 1
                if end - first > 3 { simpleJunctions = false }
            }
            var next = -1, ringEnds = 0
            for i in first..<end {
                let ed = Int(data.nodeEnds[i])
                let edge = data.edges[ed >> 1]
                if edge.flags & EdgeFlags.roundabout == 0 {
                    if junctions <= Self.roundaboutIntersectionJunctions && simpleJunctions {
                        switch junctions {
                        case 1: sideRoads.0 = ed
                        case 2: sideRoads.1 = ed
                        case 3: sideRoads.2 = ed
                        default: sideRoads.3 = ed
                        }
                    }
                    continue
                }
                ringEnds += 1
                guard data.edgeDirectionRank[ed] != UInt32.max else { continue }
                if next >= 0 { return .none }   // a fork in the ring
                if edge.name != 0 {
                    if ringName != 0 && ringName != edge.name { oneName = false }
                    ringName = edge.name
                }
                lengthCm += Double(edge.lengthCm)
                next = data.endNode(ed >> 1, ed & 1)
            }
            // A ring road ending or crossing here, or one that cannot be driven on: not a ring
            // OSRM's guidance follows.
            guard next >= 0, ringEnds == 2 else { return .none }
            current = next
            if current == node { closed = true; break }
        }
        guard closed else { return .roundabout }
        guard junctions > 0 else { return .none }
        // More a loop at the end of a road than a roundabout: taken as a turn.
        if junctions == 1 { return .intersection }
        let radius = lengthCm / 100 / (2 * .pi)
        if ringName != 0 && oneName && radius > Self.rotaryRadiusMeters && !ringNameIsARoad(ringName, ringAt: node) {
            return .rotary
        }
        if junctions <= Self.roundaboutIntersectionJunctions && simpleJunctions && radius < Self.roundaboutIntersectionRadiusMeters
            && wellDistinct(sideRoads, count: junctions) {
            return .intersection
        }
        return .roundabout
    }

    /// Whether a road at the ring (not the ring itself) bears the ring's name: then the name is
    /// not the ring's own and the ring no rotary. Walked again: only large named rings get here.
    private func ringNameIsARoad(_ name: UInt32, ringAt node: Int) -> Bool {
        var current = node
        for _ in 0..<256 {
            var next = -1
            for i in data.ends(of: current) {
                let ed = Int(data.nodeEnds[i])
                let edge = data.edges[ed >> 1]
                if edge.flags & EdgeFlags.roundabout == 0 {
                    if edge.name == name { return true }
                } else if data.edgeDirectionRank[ed] != UInt32.max {
                    next = data.endNode(ed >> 1, ed & 1)
                }
            }
            current = next
            if current == node || current < 0 { break }
        }
        return false
    }

    /// OSRM's test of a roundabout intersection's roads: their bearings away from the ring,
    /// sorted, each more than `narrowTurnDegrees` from the next; the last is compared with the
    /// first by plain difference, not around the circle, as OSRM compares them.
    private func wellDistinct(_ roads: (Int, Int, Int, Int), count: Int) -> Bool {
        withUnsafeTemporaryAllocation(of: Double.self, capacity: Self.roundaboutIntersectionJunctions) { b in
            for i in 0..<count {
                let ed = i == 0 ? roads.0 : i == 1 ? roads.1 : i == 2 ? roads.2 : roads.3
                b[i] = data.bearingLeaving(ed >> 1, ed & 1)
            }
            var bearings = UnsafeMutableBufferPointer(rebasing: b[0..<count])
            bearings.sort()
            for i in bearings.indices where abs(bearings[(i + 1) % count] - bearings[i]) <= Self.narrowTurnDegrees { return false }
            return true
        }
    }
}
