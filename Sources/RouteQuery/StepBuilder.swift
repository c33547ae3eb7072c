import Foundation
import RoutingTiles
import TileMath

/// One step of a leg: what to do at its start, then the road driven until the next step.
public struct RouteStep {
    public var type: ManeuverType
    public var modifier: ManeuverModifier?
    public var bearingBefore: Double
    public var bearingAfter: Double
    public var location: (lon: Double, lat: Double)
    public var exit: Int?
    public var name: String
    public var ref: String
    public var meters = 0.0
    public var seconds = 0.0
    /// The step's points, as indexes of its leg's (`LegPoints`): a run of them. Empty for the
    /// arrival, whose line is its location twice.
    public var points: Range<Int> = 0..<0
    /// Bearings of the roads at the maneuver's junction, and which were entered and left.
    public var intersectionBearings = IntersectionBearings()
    public var intersectionIn: Int?
    public var intersectionOut: Int?
}

/// Turns driven pieces into OSRM-style steps: a new step where the driver must act (a turn at a
/// junction, a change of road name, ramps, forks, roundabouts), none where the road just goes on.
struct StepBuilder {
    let data: RoutingData
    let strings = StepStrings()

    /// Staying on the same road through a junction is a step (`continue`) from this turn on.
    static let continueAngle = 55.0
    /// The cosine of a turn 1° below `continueAngle`: the planar estimate's bar, with margin.
    static let surelyNoContinueCosine = cos((continueAngle - 1) * .pi / 180)

    func steps(_ pieces: [DrivenPiece], points: LegPoints, arriveLocation: (lon: Double, lat: Double)) -> [RouteStep] {
        guard let first = pieces.first else { return [] }
        let junctions = (1..<pieces.count).map { junction(from: pieces[$0 - 1], to: pieces[$0], points: points) }
        prefetchRoads(at: junctions)
        // The step being driven is the last one, built in place (a step is ~200 bytes); there is
        // at most one per junction that is not quiet, besides departure and arrival.
        var steps: [RouteStep] = []
        steps.reserveCapacity(2 + junctions.lazy.filter { !$0.isQuiet }.count)
        let departBearing = segmentBearing(points, first.points, fromStart: true) ?? data.bearingLeaving(first.edge, first.direction)
        let start = first.points.lowerBound
        steps.append(RouteStep(type: .depart, modifier: nil, bearingBefore: 0, bearingAfter: departBearing.rounded(),
                               location: (points.lon[start], points.lat[start]), exit: nil,
                               name: strings.string(data.edges[first.edge].name, in: data), ref: strings.string(data.edges[first.edge].ref, in: data)))
        steps[0].intersectionBearings = [Int(departBearing.rounded()) % 360]
        steps[0].intersectionOut = 0
        var exitsPassed = 0
        var roundaboutStep: Int?
        // The current step's points: from its first piece's first point to its last piece's last
        // (pieces share their junction points, so a step's points are one run of the leg's).
        var stepStart = start
        // Its length and time, summed here and stored once it is finished.
        var meters = 0.0, seconds = 0.0
        func finish(_ step: Int, through end: Int) {
            steps[step].points = stepStart..<end
            steps[step].meters = meters
            steps[step].seconds = seconds
            meters = 0
            seconds = 0
        }
        for (i, piece) in pieces.enumerated() {
            // Inside a roundabout nothing is said, but exits are counted; through a quiet
            // junction nothing at all (a step is ~200 bytes: no call that returns none).
            if i > 0 && junctions[i - 1].inRoundabout && junctions[i - 1].toRoundabout {
                exitsPassed += roundaboutExits(at: junctions[i - 1].node)
            } else if i > 0 && !junctions[i - 1].isQuiet,
                      let type = maneuver(junctions[i - 1], from: pieces[i - 1], to: piece, points: points,
                                          exitsPassed: &exitsPassed, onto: &steps) {
                // The step before the new one ends where the new one starts.
                finish(steps.count - 2, through: pieces[i - 1].points.upperBound)
                stepStart = piece.points.lowerBound
                if type == .roundabout { roundaboutStep = steps.count - 1 }
                if type == .exitRoundabout, let r = roundaboutStep {
                    // The roundabout step's instruction names the exit taken.
                    steps[r].exit = exitsPassed + 1
                    exitsPassed = 0
                    roundaboutStep = nil
                }
            }
            meters += piece.meters
            seconds += piece.seconds
        }
        // Roundabout left at the destination: still say which exit.
        if let r = roundaboutStep { steps[r].exit = exitsPassed + 1 }
        let last = pieces[pieces.count - 1]
        finish(steps.count - 1, through: last.points.upperBound)
        let arriveBearing = segmentBearing(points, last.points, fromStart: false) ?? data.bearingArriving(last.edge, last.direction)
        var arrive = RouteStep(type: .arrive, modifier: nil, bearingBefore: arriveBearing.rounded(), bearingAfter: 0,
                               location: arriveLocation, exit: nil, name: steps[steps.count - 1].name, ref: steps[steps.count - 1].ref)
        arrive.intersectionBearings = [(Int(arriveBearing.rounded()) + 180) % 360]
        arrive.intersectionIn = 0
        steps.append(arrive)
        return steps
    }

    /// The step that starts at junction `j` between two pieces, appended to `steps` (built
    /// there, not copied in: a step is ~200 bytes), and its type; nil when the driver just
    /// carries on. Not for quiet junctions (`StepJunction.isQuiet`), nor within a roundabout:
    /// there nothing is said, and no bearing needed (the trigonometry is most of a step's cost).
    private func maneuver(_ j: StepJunction, from a: DrivenPiece, to b: DrivenPiece, points: LegPoints,
                          exitsPassed: inout Int, onto steps: inout [RouteStep]) -> ManeuverType? {
        let node = j.node
        // The bearing of every road leaving the node, for the intersection and the other exits:
        // on the stack (nearly every junction that gets here makes a step, so all are needed).
        let first = Int(data.nodeFirstEnd[node]), end = Int(data.nodeFirstEnd[node + 1])
        return withUnsafeTemporaryAllocation(of: Double.self, capacity: end - first) { ends in
            let bearings = junctionBearings(from: a, to: b, node: node, ends: ends)
            let angle = turnAngle(arriving: bearings.arriving, leaving: bearings.leaving)
            return maneuver(j, from: a, to: b, points: points, exitsPassed: &exitsPassed, arriving: bearings.arriving,
                            leaving: bearings.leaving, angle: angle, endBearings: UnsafeBufferPointer(ends), onto: &steps)
        }
    }

    /// `maneuver(_:from:to:points:exitsPassed:onto:)` with the bearings worked out: `endBearings[k]`
    /// is the bearing of the node's k-th road end.
    private func maneuver(_ j: StepJunction, from a: DrivenPiece, to b: DrivenPiece, points: LegPoints,
                          exitsPassed: inout Int, arriving: Double, leaving: Double, angle: Double,
                          endBearings: UnsafeBufferPointer<Double>, onto steps: inout [RouteStep]) -> ManeuverType? {
        let node = j.node, roads = j.roads, sameRoad = j.sameRoad, classA = j.classA, classB = j.classB
        let inRoundabout = j.inRoundabout, toRoundabout = j.toRoundabout
        let isHighway = StepJunction.isHighway, isLink = StepJunction.isLink
        var type: ManeuverType?
        if toRoundabout {
            type = .roundabout
            exitsPassed = 0
        } else if inRoundabout {
            type = .exitRoundabout
        } else if isLink(classB) && !isLink(classA) && !isHighway(classA) {
            type = .onRamp
        } else if isHighway(classA) && isLink(classB) {
            type = .offRamp
        } else if isLink(classA) && isHighway(classB) {
            type = .merge
        } else if roads <= 2 {
            type = sameRoad ? nil : .newName
        } else if abs(angle) < 20 {
            type = sameRoad ? nil : .newName
        } else {
            if sameRoad {
                // Staying on the same road through a junction needs a word only for a real turn.
                type = abs(angle) >= Self.continueAngle ? .continue : nil
            } else {
                type = withUnsafeTemporaryAllocation(of: Double.self, capacity: endBearings.count) { angles in
                    let others = otherExitAngles(node: node, arriving: arriving, except: b, bearings: endBearings, into: angles)
                    if !others.contains(where: { abs($0) < 35 }) && abs(angle) >= 45 && others.contains(where: { ($0 > 0) != (angle > 0) }) {
                        return .endOfRoad
                    } else if others.count == 1, abs(angle) < 50, let o = others.first, abs(o) < 50 {
                        return .fork
                    }
                    return .turn
                }
            }
        }
        guard let type else { return nil }
        var modifier = ManeuverModifier(angle: angle)
        if type == .fork { modifier = angle > 0 ? .slightRight : .slightLeft }
        let location = (points.lon[b.points.lowerBound], points.lat[b.points.lowerBound])
        steps.append(RouteStep(type: type, modifier: modifier, bearingBefore: arriving.rounded(), bearingAfter: leaving.rounded(),
                               location: location, exit: nil,
                               name: strings.string(data.edges[b.edge].name, in: data), ref: strings.string(data.edges[b.edge].ref, in: data)))
        let (bearings, inIndex, outIndex) = intersection(node: node, arriving: a, leaving: b, bearings: endBearings)
        steps[steps.count - 1].intersectionBearings = bearings
        steps[steps.count - 1].intersectionIn = inIndex
        steps[steps.count - 1].intersectionOut = outIndex
        return type
    }

    /// Roads a driver could leave the roundabout by at `node`: drivable directions leaving the
    /// node that are not part of the roundabout (entry-only roads do not count, as drivers count).
    private func roundaboutExits(at node: Int) -> Int {
        var exits = 0
        for i in Int(data.nodeFirstEnd[node])..<Int(data.nodeFirstEnd[node + 1]) {
            let ed = Int(data.nodeEnds[i])
            if data.edgeDirectionRank[ed] != UInt32.max && data.edges[ed >> 1].flags & EdgeFlags.roundabout == 0 { exits += 1 }
        }
        return exits
    }

    /// Turn angles of the drivable ways out of `node` other than `chosen` and the way back
    /// (`bearings`: of every road end at the node, in order), written to the front of `out`
    /// (room for one per road end: scratch on the stack, not an array per turn).
    private func otherExitAngles(node: Int, arriving: Double, except chosen: DrivenPiece, bearings: UnsafeBufferPointer<Double>,
                                 into out: UnsafeMutableBufferPointer<Double>) -> UnsafeBufferPointer<Double> {
        var count = 0
        let first = Int(data.nodeFirstEnd[node])
        for i in first..<Int(data.nodeFirstEnd[node + 1]) {
            let ed = Int(data.nodeEnds[i])
            let e = ed >> 1, d = ed & 1
            guard data.edgeDirectionRank[ed] != UInt32.max, !(e == chosen.edge && d == chosen.direction) else { continue }
            let a = turnAngle(arriving: arriving, leaving: bearings[i - first])
            if abs(a) < 170 {
                out[count] = a
                count += 1
            }
        }
        return UnsafeBufferPointer(rebasing: out[0..<count])
    }

    /// OSRM's intersection: bearings of every road at the node (sorted), the one arrived on, the one taken.
    private func intersection(node: Int, arriving: DrivenPiece, leaving: DrivenPiece, bearings: UnsafeBufferPointer<Double>)
        -> (IntersectionBearings, Int?, Int?) {
        let first = Int(data.nodeFirstEnd[node]), count = bearings.count
        return withUnsafeTemporaryAllocation(of: Int.self, capacity: count) { keyed in
            // The rounded bearing above the road's place at the node: sorted, ties stay in node
            // order, as a stable sort by bearing leaves them (a handful of roads: by insertion).
            for k in 0..<count { keyed[k] = Int(Polyline.roundedHalfAway(bearings[k]) % 360) << 32 | k }
            insertionSort(keyed)
            var inIndex: Int?, outIndex: Int?
            for p in 0..<count {
                let ed = Int(data.nodeEnds[first + keyed[p] & 0xFFFF_FFFF])
                let e = ed >> 1, d = ed & 1
                if inIndex == nil && e == arriving.edge && d != arriving.direction { inIndex = p }
                if outIndex == nil && e == leaving.edge && d == leaving.direction { outIndex = p }
                keyed[p] >>= 32   // its place read, the key becomes the bearing the intersection lists
            }
            return (IntersectionBearings(UnsafeBufferPointer(keyed)), inIndex, outIndex)
        }
    }

    /// Bearing of the first (or last) segment of a point list, if it has length.
    private func segmentBearing(_ points: LegPoints, _ r: Range<Int>, fromStart: Bool) -> Double? {
        guard r.count >= 2 else { return nil }
        let (i, j) = fromStart ? (r.lowerBound, r.lowerBound + 1) : (r.upperBound - 2, r.upperBound - 1)
        let lat = points.lat, lon = points.lon
        guard lat[i] != lat[j] || lon[i] != lon[j] else { return nil }
        return initialBearingDegrees(from: GeoPoint(lon: lon[i], lat: lat[i]), to: GeoPoint(lon: lon[j], lat: lat[j]))
    }
}

/// Sorts a few keys in place: a junction has a handful of roads, fewer than the standard
/// library's sort is set up for.
@inline(__always) func insertionSort(_ keys: UnsafeMutableBufferPointer<Int>) {
    guard keys.count > 1 else { return }
    for i in 1..<keys.count {
        let key = keys[i]
        var j = i
        while j > 0 && keys[j - 1] > key {
            keys[j] = keys[j - 1]
            j -= 1
        }
        keys[j] = key
    }
}
