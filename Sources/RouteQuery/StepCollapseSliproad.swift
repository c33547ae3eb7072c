import TileMath
import RoutingTiles

/// OSRM's sliproads (`sliproad_handler.cpp`, and `handleSliproad` in `collapse_turns.cpp`): a
/// short road that cuts the corner of a junction, from the main road to the crossing road, is
/// the turn itself; the turn onto it and the one off it are one step.
extension StepBuilder {
    /// OSRM's `MAX_SLIPROAD_THRESHOLD`, metres, scaled down by road class
    /// (`scaledThresholdByRoadClass`): how far the main road's next junction may lie, and the
    /// square root of the largest corner a sliproad cuts.
    static let maxSliproadMeters = 250.0
    /// OSRM's `MIN_SLIPROAD_AREA`, square metres.
    static let minSliproadArea = 3.0
    /// A sliproad leaves, and its far end is left, within this of straight on (2 × OSRM's
    /// `NARROW_TURN_ANGLE`).
    static let sliproadTurnAngle = 80.0

    static func sliproadScale(_ c: UInt8) -> Double {
        switch c {
        case 0: return 1.0
        case 2, 4: return 0.8
        case 6: return 0.6
        case 8: return 0.5
        case 11: return 0.4
        case 12: return 0.3
        case 1, 3, 5, 7, 9: return 0.3
        default: return 0.1
        }
    }

    /// Whether the road taken at `node` (piece `b`, arriving on `a`) is a sliproad: the road
    /// arrived on goes on (same name and class) to a junction near by, the road taken turns off
    /// it by at most `sliproadTurnAngle` to a junction of three or four roads, where a road
    /// leads on to that same junction of the main road, the three corners enclosing a small area.
    func isSliproad(at node: Int, from a: DrivenPiece, to b: DrivenPiece, arriving: Double) -> Bool {
        let ends = data.ends(of: node), first = ends.lowerBound, end = ends.upperBound
        guard end - first >= 3 else { return false }
        let slip = data.edges[b.edge], from = data.edges[a.edge]
        guard slip.flags & EdgeFlags.roundabout == 0, !RoadShapeAhead.isLowPriority(roadClass: slip.roadClass),
              abs(turnAngle(arriving: arriving, leaving: data.bearingLeaving(b.edge, b.direction))) <= Self.sliproadTurnAngle,
              from.name != 0
        else { return false }
        // The main road: the road arrived on going on, of the same name and class.
        var main: Int?
        for i in first..<end {
            let ed = Int(data.nodeEnds[i]), e = ed >> 1
            guard e != a.edge, e != b.edge, data.edgeDirectionRank[ed] != UInt32.max,
                  data.edges[e].roadClass == from.roadClass, data.edges[e].name == from.name else { continue }
            main = ed
            break
        }
        guard let main,
              let mainJunction = junctionAhead(from: node, along: main, within: Self.maxSliproadMeters * Self.sliproadScale(from.roadClass)),
              let target = junctionAhead(from: node, along: b.edge << 1 | b.direction, within: .infinity)
        else { return false }
        let targetEnds = data.ends(of: target.node), targetFirst = targetEnds.lowerBound, targetEnd = targetEnds.upperBound
        guard (3...4).contains(targetEnd - targetFirst), target.node != mainJunction.node, target.node != node,
              mainJunction.node != node, data.ends(of: mainJunction.node).count >= 3
        else { return false }
        // The corner cut: half the main road's length to its junction times the distance from
        // there to the sliproad's end.
        let area = distanceMeters(node, mainJunction.node) * distanceMeters(mainJunction.node, target.node) / 2
        let limit = Self.maxSliproadMeters * Self.sliproadScale(slip.roadClass)
        guard area >= Self.minSliproadArea, area <= limit * limit else { return false }
        // At its end: not going on as a road of its own name, and a road on to the main road's junction.
        let arrivingAtTarget = data.bearingArriving(target.edge, target.direction)
        var straightest = 180.0, straightestEdge = -1, reachesMainJunction = false
        for i in targetFirst..<targetEnd {
            let ed = Int(data.nodeEnds[i]), e = ed >> 1
            guard !(e == target.edge && ed & 1 != target.direction) else { continue }
            if slip.name != 0 && data.edges[e].name == slip.name { return false }
            if data.edgeDirectionRank[ed] != UInt32.max {
                let angle = turnAngle(arriving: arrivingAtTarget, leaving: data.bearingLeaving(e, ed & 1))
                if abs(angle) < abs(straightest) { straightest = angle; straightestEdge = e }
            }
            // The road on to the main road's junction, drivable that way or not (OSRM's candidate
            // is any road of the junction).
            if StepJunction.isLink(slip.roadClass) && StepJunction.isLink(data.edges[e].roadClass) { continue }
            if junctionAhead(from: target.node, along: ed, within: Self.maxSliproadMeters)?.node == mainJunction.node {
                reachesMainJunction = true
            }
        }
        // The way on from its end: a narrow turn, not into a roundabout, in the same mode
        // (OSRM's `findObviousTurn` there, `allSameMode`).
        guard reachesMainJunction, straightestEdge >= 0, abs(straightest) <= Self.sliproadTurnAngle else { return false }
        let onto = data.edges[straightestEdge]
        return onto.flags & EdgeFlags.roundabout == 0 && !StepJunction.isFerry(onto.roadClass) && !StepJunction.isFerry(slip.roadClass)
    }

    /// The next junction (three or more road ends, or a dead end) from `node` along road end
    /// `ed`, through plain nodes; nil when it lies beyond `within` metres.
    func junctionAhead(from node: Int, along ed: Int, within: Double) -> (node: Int, edge: Int, direction: Int)? {
        var e = ed >> 1, d = ed & 1
        var meters = Double(data.edges[e].lengthCm) / 100
        var n = data.endNode(e, d)
        var hops = 0
        while meters <= within {
            let first = data.ends(of: n).lowerBound
            guard data.ends(of: n).count == 2, n != node, hops < 16 else { return (n, e, d) }
            let next = Int(data.nodeEnds[first]) >> 1 == e ? Int(data.nodeEnds[first + 1]) : Int(data.nodeEnds[first])
            e = next >> 1
            d = next & 1
            meters += Double(data.edges[e].lengthCm) / 100
            n = data.endNode(e, d)
            hops += 1
        }
        return nil
    }

    private func distanceMeters(_ p: Int, _ q: Int) -> Double { haversineMeters(location(of: p), location(of: q)) }

    /// A junction's place: where its first road end starts.
    private func location(of node: Int) -> GeoPoint {
        let ed = Int(data.nodeEnds[data.ends(of: node).lowerBound])
        let p = data.leavingSegment(ed >> 1, ed & 1).0
        return GeoPoint(lon: Double(p.lonE7) / 1e7, lat: Double(p.latE7) / 1e7)
    }

    /// OSRM's `handleSliproad`: the step onto a sliproad takes in the next one; a `continue`
    /// when it leads back onto the road of the step before, else a `turn`, by the two turns'
    /// angle together.
    func collapseSliproad(_ i: Int, prev: Int, _ steps: inout [RouteStep]) {
        let next = nextTurn(after: i, in: steps)
        guard next < steps.count else {
            setType(.turn, &steps[i])
            return
        }
        setType(NameAnnouncement.same(steps[prev], steps[next]) ? .continue : .turn, &steps[i])
        let total = totalTurnAngle(steps[i], steps[next])
        steps[i].modifier = ManeuverModifier(angle: total)
        combine(next, into: i, &steps, signage: true)
    }
}
