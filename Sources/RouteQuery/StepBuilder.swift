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
    /// A rotary's own name (OSRM's `rotary_name`), on its entry step.
    public var rotaryName: String?
    /// Riding a ferry or a car train rather than driving (OSRM's `mode`).
    public var isFerry = false
    /// What the collapse of steps reads (`StepCollapseFacts`).
    var collapse = StepCollapseFacts()
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
        steps[0].isFerry = StepJunction.isFerry(data.edges[first.edge].roadClass)
        steps[0].intersectionBearings = [Int(departBearing.rounded()) % 360]
        steps[0].intersectionOut = 0
        var exitsPassed = 0
        var roundaboutStep: Int?
        // The first and last roundabouts' own names, for trimming (the steps take their exits').
        var firstRing: RingName?, lastRing: RingName?
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
        // The intersections the current step has: its own and those passed silently (OSRM's
        // `intersections` of a step, for its end-of-road rule).
        var stepIntersections = 1
        // On a ring OSRM's guidance cannot follow (`RoundaboutKind.none`), driven as plain roads.
        var onPlainRing = junctions.first.map { $0.inRoundabout && roundaboutKind(ringAt: $0.node) == .none } ?? false
        for (i, piece) in pieces.enumerated() {
            // The kind of a ring entered at this junction, walked once for both uses.
            var entered: RoundaboutKind?
            if i > 0 && junctions[i - 1].toRoundabout && !junctions[i - 1].inRoundabout {
                entered = roundaboutKind(ringAt: junctions[i - 1].node)
                onPlainRing = entered == RoundaboutKind.none
            }
            // Inside a roundabout nothing is said, but exits are counted; through a quiet
            // junction nothing at all (a step is ~200 bytes: no call that returns none).
            if i > 0 && junctions[i - 1].inRoundabout && junctions[i - 1].toRoundabout && !onPlainRing {
                exitsPassed += roundaboutExits(at: junctions[i - 1].node)
            } else if i > 0 && !junctions[i - 1].isQuiet,
                      let type = maneuver(junctions[i - 1], from: pieces[i - 1], to: piece, points: points,
                                          entering: entered, exitsPassed: &exitsPassed, onto: &steps) {
                // OSRM's buildIntersections: an end of road right after the step before it began
                // (no intersection passed on the way) says no more than a turn, or a continue
                // onto the same road.
                if type == .endOfRoad && stepIntersections < Self.minEndOfRoadIntersections {
                    let n = steps.count
                    steps[n - 1].type = NameAnnouncement.same(steps[n - 2], steps[n - 1]) ? .continue : .turn
                    steps[n - 1].collapse.endOfRoadDemoted = true
                }
                stepIntersections = 1
                // The step before the new one ends where the new one starts.
                finish(steps.count - 2, through: pieces[i - 1].points.upperBound)
                stepStart = piece.points.lowerBound
                noteCollapseFacts(at: junctions[i - 1], from: pieces[i - 1], to: piece, on: &steps[steps.count - 1])
                if type.entersRoundabout {
                    roundaboutStep = steps.count - 1
                    if type == .rotary { steps[steps.count - 1].rotaryName = steps[steps.count - 1].name }
                    let ring = RingName(step: steps.count - 1, name: steps[steps.count - 1].name, ref: steps[steps.count - 1].ref)
                    if firstRing == nil { firstRing = ring }
                    lastRing = ring
                }
                if type.exitsRoundabout, let r = roundaboutStep {
                    // The roundabout step's instruction names the exit taken, and the step the
                    // road it leads to (as OSRM names it).
                    steps[r].exit = exitsPassed + 1
                    steps[r].name = steps[steps.count - 1].name
                    steps[r].ref = steps[steps.count - 1].ref
                    exitsPassed = 0
                    roundaboutStep = nil
                }
            } else if i > 0 && junctions[i - 1].roads >= 3 {
                stepIntersections += 1
                if silentStep(junctions[i - 1], from: pieces[i - 1], to: piece, points: points, stepMeters: meters, onto: &steps) {
                    finish(steps.count - 2, through: pieces[i - 1].points.upperBound)
                    stepStart = piece.points.lowerBound
                }
            }
            meters += piece.meters
            seconds += piece.seconds
        }
        // A roundabout the destination lies in is not left: no exit (OSRM's `exit` undefined).
        let last = pieces[pieces.count - 1]
        finish(steps.count - 1, through: last.points.upperBound)
        let lastStepStart = steps[steps.count - 1].points.lowerBound
        trimZeroLengthEnds(&steps, firstRing: firstRing, lastRing: lastRing)
        mergeRoundaboutTurns(&steps)
        // The arrival names the road arrived on, even when the step onto it is suppressed.
        var arriveName = steps[steps.count - 1].name, arriveRef = steps[steps.count - 1].ref
        if steps[steps.count - 1].points.lowerBound == lastStepStart && !steps[steps.count - 1].type.entersRoundabout {
            // (OSRM's arrival names the last road even after a change of name its turn rules
            // say nothing about, "42 N" to "42 S".)
            arriveName = strings.string(data.edges[last.edge].name, in: data)
            arriveRef = strings.string(data.edges[last.edge].ref, in: data)
        }
        let arriveFerry = steps[steps.count - 1].isFerry
        collapseSteps(&steps)
        suppressShortNameSegments(&steps)
        let arriveBearing = segmentBearing(points, last.points, fromStart: false) ?? data.bearingArriving(last.edge, last.direction)
        var arrive = RouteStep(type: .arrive, modifier: nil, bearingBefore: arriveBearing.rounded(), bearingAfter: 0,
                               location: arriveLocation, exit: nil, name: arriveName, ref: arriveRef)
        arrive.isFerry = arriveFerry
        arrive.intersectionBearings = [(Int(arriveBearing.rounded()) + 180) % 360]
        arrive.intersectionIn = 0
        steps.append(arrive)
        return steps
    }

    /// An end of road needs this many intersections on the step before it (OSRM's
    /// `MIN_END_OF_ROAD_INTERSECTIONS`): the step's own and one passed.
    static let minEndOfRoadIntersections = 2

    /// A name shorter than this is not worth a step of its own (OSRM's `NAME_SEGMENT_CUTOFF_LENGTH`).
    static let nameSegmentCutoffMeters = 105.0

    /// OSRM's `suppressShortNameSegments`: a `new name` step (in the same mode as the step
    /// before it) is folded into the last step kept when it names the same road (by
    /// `NameAnnouncement.same`) or when the name lasts less than `nameSegmentCutoffMeters`.
    /// In place, one pass. `steps` has no arrival yet.
    private func suppressShortNameSegments(_ steps: inout [RouteStep]) {
        guard steps.count >= 2 else { return }
        var previous = 0, kept = 1
        for i in 1..<steps.count {
            let step = steps[i]
            if step.type == .newName && step.isFerry == steps[previous].isFerry
                && (NameAnnouncement.same(steps[previous], step) || step.meters < Self.nameSegmentCutoffMeters) {
                steps[previous].meters += step.meters
                steps[previous].seconds += step.seconds
                steps[previous].points = steps[previous].points.lowerBound..<step.points.upperBound
            } else {
                if kept != i { steps[kept] = step }
                previous = kept
                kept += 1
            }
        }
        if kept < steps.count { steps.removeLast(steps.count - kept) }
    }

    /// OSRM's trimming of a waypoint on a node shared by several roads, where the route may
    /// start or end on a road it does not drive: a first step of at most `trimMeters` before
    /// another step is dropped (the next one departs), and so is a last one after another step
    /// (the arrival is on the road before it). Their metres and seconds go to the step kept.
    /// With the last step an exit from a roundabout, the roundabout is not left: it keeps its
    /// own name and has no exit. `steps` has no arrival yet.
    static let trimMeters = 1.0

    struct RingName {
        let step: Int
        let name: String
        let ref: String
    }

    private func trimZeroLengthEnds(_ steps: inout [RouteStep], firstRing: RingName?, lastRing: RingName?) {
        var shift = 0
        if steps.count >= 2, steps[0].meters <= Self.trimMeters {
            let dropped = steps.removeFirst()
            shift = 1
            steps[0].points = dropped.points.lowerBound..<steps[0].points.upperBound
            steps[0].meters += dropped.meters
            steps[0].seconds += dropped.seconds
            if steps[0].type.entersRoundabout, let ring = firstRing, ring.step == 1 {
                steps[0].name = ring.name
                steps[0].ref = ring.ref
            }
            steps[0].type = .depart
            steps[0].modifier = nil
            steps[0].exit = nil
            steps[0].bearingBefore = 0
            // No maneuver left for the collapse to judge again (an end of road said as a turn).
            steps[0].collapse.endOfRoadDemoted = false
            if let out = steps[0].intersectionOut, out < steps[0].intersectionBearings.count {
                steps[0].intersectionBearings = [steps[0].intersectionBearings[out]]
            } else {
                steps[0].intersectionBearings = [Int(steps[0].bearingAfter) % 360]
            }
            steps[0].intersectionIn = nil
            steps[0].intersectionOut = 0
        }
        let n = steps.count
        if n >= 2, steps[n - 1].meters <= Self.trimMeters {
            let dropped = steps.removeLast()
            steps[n - 2].points = steps[n - 2].points.lowerBound..<dropped.points.upperBound
            steps[n - 2].meters += dropped.meters
            steps[n - 2].seconds += dropped.seconds
            if dropped.type.exitsRoundabout, steps[n - 2].type.entersRoundabout, let ring = lastRing, ring.step - shift == n - 2 {
                steps[n - 2].exit = nil
                steps[n - 2].name = ring.name
                steps[n - 2].ref = ring.ref
            }
        }
    }

    /// The step that starts at junction `j` between two pieces, appended to `steps` (built
    /// there, not copied in: a step is ~200 bytes), and its type; nil when the driver just
    /// carries on. Not for quiet junctions (`StepJunction.isQuiet`), nor within a roundabout:
    /// there nothing is said, and no bearing needed (the trigonometry is most of a step's cost).
    /// `ring`: the kind of the ring entered here, when the caller has already walked it.
    private func maneuver(_ j: StepJunction, from a: DrivenPiece, to b: DrivenPiece, points: LegPoints,
                          entering ring: RoundaboutKind?, exitsPassed: inout Int, onto steps: inout [RouteStep]) -> ManeuverType? {
        let node = j.node
        // The bearing of every road leaving the node, for the intersection and the other exits:
        // on the stack (nearly every junction that gets here makes a step, so all are needed).
        let ends = data.ends(of: node), first = ends.lowerBound, end = ends.upperBound
        return withUnsafeTemporaryAllocation(of: Double.self, capacity: end - first) { ends in
            let at = data.junctionLatitude(arriving: a.edge, a.direction)
            let bearings = junctionBearings(from: a, to: b, node: node, at: at, ends: ends)
            let angle = turnAngle(arriving: bearings.arriving, leaving: bearings.leaving)
            return maneuver(j, from: a, to: b, points: points, entering: ring, at: at, exitsPassed: &exitsPassed, arriving: bearings.arriving,
                            leaving: bearings.leaving, angle: angle, endBearings: UnsafeBufferPointer(ends), onto: &steps)
        }
    }

    /// `maneuver(_:from:to:points:entering:exitsPassed:onto:)` with the junction's latitude terms and bearings worked out: `endBearings[k]`
    /// is the bearing of the node's k-th road end.
    private func maneuver(_ j: StepJunction, from a: DrivenPiece, to b: DrivenPiece, points: LegPoints,
                          entering ring: RoundaboutKind?, at: JunctionLatitude, exitsPassed: inout Int, arriving: Double, leaving: Double, angle: Double,
                          endBearings: UnsafeBufferPointer<Double>, onto steps: inout [RouteStep]) -> ManeuverType? {
        let node = j.node, roads = j.roads, sameRoad = j.sameRoad, classA = j.classA, classB = j.classB
        let inRoundabout = j.inRoundabout, toRoundabout = j.toRoundabout
        let isHighway = StepJunction.isHighway, isLink = StepJunction.isLink
        var type: ManeuverType?, turnModifier: ManeuverModifier?
        var exit: Int?
        if j.isUTurn && !inRoundabout {
            // OSRM's `continue uturn` on the road driven (`turn uturn` would need another road).
            type = sameRoad ? .continue : .turn
        } else if j.changesMode && !toRoundabout && !inRoundabout {
            // OSRM's turn rules: a notification onto the obvious way, a turn elsewhere.
            let osrm = analyseTurn(j, from: a, to: b, at: at, endBearings: endBearings)
            type = osrm?.type ?? .notification
            turnModifier = osrm?.modifier
        } else if toRoundabout, let entry = (ring ?? roundaboutKind(ringAt: node)).entry {
            type = entry
            // An exit at the entry node itself counts when it lies right of the way into the
            // ring (passed after entering it, in right-hand traffic), as OSRM counts.
            exitsPassed = roundaboutExits(at: node, entry: a, rightOf: angle, arriving: arriving, bearings: endBearings)
        } else if inRoundabout, let exitType = roundaboutKind(ringAt: node).exit {
            type = exitType
        } else if let touched = roundaboutTouched(at: node, from: a, angle: angle, arriving: arriving, bearings: endBearings) {
            // Onto a road off the ring where it is entered: the first exit, entered and left at once.
            type = touched
            exit = 1
        } else if let osrm = analyseTurn(j, from: a, to: b, at: at, endBearings: endBearings) {
            // OSRM's turn rules on perceived angles (`StepTurnAnalysis`).
            type = osrm.type
            turnModifier = osrm.modifier
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
                    if isEndOfRoad(node: node, from: a, arriving: arriving, bearings: endBearings) {
                        return .endOfRoad
                    }
                    let others = otherExitAngles(node: node, arriving: arriving, except: b, bearings: endBearings, into: angles)
                    if others.count == 1, abs(angle) < 50, let o = others.first, abs(o) < 50 {
                        return .fork
                    }
                    return .turn
                }
            }
        }
        guard let type else { return nil }
        var modifier = j.isUTurn ? .uturn : ManeuverModifier(angle: angle)
        if type == .fork { modifier = angle > 0 ? .slightRight : .slightLeft }
        if let turnModifier { modifier = turnModifier }
        let location = (points.lon[b.points.lowerBound], points.lat[b.points.lowerBound])
        steps.append(RouteStep(type: type, modifier: modifier, bearingBefore: arriving.rounded(), bearingAfter: leaving.rounded(),
                               location: location, exit: exit,
                               name: strings.string(data.edges[b.edge].name, in: data), ref: strings.string(data.edges[b.edge].ref, in: data)))
        let (bearings, inIndex, outIndex) = intersection(node: node, arriving: a, leaving: b, bearings: endBearings)
        steps[steps.count - 1].isFerry = StepJunction.isFerry(classB)
        steps[steps.count - 1].intersectionBearings = bearings
        steps[steps.count - 1].intersectionIn = inIndex
        steps[steps.count - 1].intersectionOut = outIndex
        return type
    }

    /// Turn angles of the drivable ways out of `node` other than `chosen` and the way back
    /// (`bearings`: of every road end at the node, in order), written to the front of `out`
    /// (room for one per road end: scratch on the stack, not an array per turn).
    private func otherExitAngles(node: Int, arriving: Double, except chosen: DrivenPiece, bearings: UnsafeBufferPointer<Double>,
                                 into out: UnsafeMutableBufferPointer<Double>) -> UnsafeBufferPointer<Double> {
        var count = 0
        let ends = data.ends(of: node), first = ends.lowerBound
        for i in ends {
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
    func intersection(node: Int, arriving: DrivenPiece, leaving: DrivenPiece, bearings: UnsafeBufferPointer<Double>)
        -> (IntersectionBearings, Int?, Int?) {
        let first = data.ends(of: node).lowerBound, count = bearings.count
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
