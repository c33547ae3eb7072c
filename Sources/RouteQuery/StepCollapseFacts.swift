import RoutingTiles

/// What OSRM's collapsing of steps (`collapse_turns.cpp`) reads about a step besides its
/// maneuver: a few bytes kept on every step, set as the step is built.
struct StepCollapseFacts {
    /// A junction passed without a word (OSRM's `Suppressed`), kept as a step only near short
    /// roads, where a collapse may combine it; `StepBuilder.collapseSteps` folds what is left
    /// of them into the step before.
    var isSilent = false
    /// The road the step starts on is a short link inside a divided-road crossing (OSRM's
    /// `is_segregated`, `StepBuilder.isSegregatedEdge`).
    var isSegregated = false
    /// The road the step starts on is a sliproad (`StepBuilder.isSliproad`, OSRM's `Sliproad`
    /// instruction): the step takes in the next one.
    var isSliproad = false
    /// An end of road the step builder said as a plain turn, no junction having been passed
    /// since the step before; the collapse decides again once steps are combined (OSRM's
    /// `buildIntersections` runs after its collapse).
    var endOfRoadDemoted = false
    /// Combined into the step before it, to be dropped (OSRM's `Invalidate`).
    var isGone = false
    /// The maneuver's junction and the edge-based node it is reached on, for the number of roads
    /// one may drive on from there (`StepBuilder.allowedTurns`), worked out only when a rule asks:
    /// most steps never get that far, and each road costs a look-up in the hierarchy.
    var junction: Int32 = -1
    var arrivingRank = UInt32.max
    /// Junctions of three or more roads within the step after its maneuver (OSRM's step
    /// `intersections` beyond the first that are not plain nodes).
    var passed: UInt8 = 0
}

extension StepBuilder {
    /// OSRM's `MAX_COLLAPSE_DISTANCE`: steps shorter than this may be combined with the next.
    static let maxCollapseMeters = 30.0
    /// A junction passed without a word is kept as a (silent) step when the step so far, or the
    /// road taken at it, is at most this long: the longest reach of OSRM's collapse rules
    /// (`2 * MAX_COLLAPSE_DISTANCE`); beyond it no rule would combine anything there.
    static let silentStepReach = 2 * maxCollapseMeters

    /// Records the collapse facts of the step just made at junction `j` onto piece `b`.
    func noteCollapseFacts(at j: StepJunction, from a: DrivenPiece, to b: DrivenPiece, on step: inout RouteStep) {
        step.collapse.junction = Int32(truncatingIfNeeded: j.node)
        step.collapse.arrivingRank = data.edgeDirectionRank[a.edge << 1 | a.direction]
        step.collapse.isSegregated = isSegregatedEdge(b.edge, b.direction)
        if (step.type == .continue || step.type == .turn) && step.modifier != .uturn && turnsBackOnDividedRoad(from: a, to: b) {
            step.modifier = .uturn
        }
        if !step.collapse.isSilent && !j.isUTurn && !j.changesMode && !j.toRoundabout && !j.inRoundabout {
            step.collapse.isSliproad = isSliproad(at: j.node, from: a, to: b, arriving: step.bearingBefore)
        }
    }

    /// At junction `j` of three or more roads, passed on the same road without a word: near a
    /// short road a silent step (OSRM's `Suppressed` instruction) is appended, to be seen by
    /// the collapse and then folded into the step before; elsewhere the junction is counted on
    /// the current step. Returns whether a step was appended.
    func silentStep(_ j: StepJunction, from a: DrivenPiece, to b: DrivenPiece, points: LegPoints,
                    stepMeters: Double, onto steps: inout [RouteStep]) -> Bool {
        let last = steps.count - 1
        let roadAhead = Double(data.edges[b.edge].lengthCm) / 100
        guard !j.inRoundabout, !j.toRoundabout, !j.changesMode,
              stepMeters <= Self.silentStepReach || roadAhead <= Self.silentStepReach
        else {
            if steps[last].collapse.passed < UInt8.max { steps[last].collapse.passed += 1 }
            return false
        }
        let node = j.node
        // Where OSRM sees no intersection at all (`NoTurn`), neither step nor junction.
        if passesDriveways(node, from: a) || splitsDividedRoad(node) { return false }
        let ends = data.ends(of: node), first = ends.lowerBound, end = ends.upperBound
        withUnsafeTemporaryAllocation(of: Double.self, capacity: end - first) { ends in
            let bearings = junctionBearings(from: a, to: b, node: node, ends: ends)
            let angle = turnAngle(arriving: bearings.arriving, leaving: bearings.leaving)
            let at = b.points.lowerBound
            var step = RouteStep(type: .newName, modifier: ManeuverModifier(angle: angle),
                                 bearingBefore: bearings.arriving.rounded(), bearingAfter: bearings.leaving.rounded(),
                                 location: (points.lon[at], points.lat[at]), exit: nil,
                                 name: strings.string(data.edges[b.edge].name, in: data),
                                 ref: strings.string(data.edges[b.edge].ref, in: data))
            (step.intersectionBearings, step.intersectionIn, step.intersectionOut) =
                intersection(node: node, arriving: a, leaving: b, bearings: UnsafeBufferPointer(ends))
            step.isFerry = StepJunction.isFerry(j.classB)
            step.collapse.isSilent = true
            noteCollapseFacts(at: j, from: a, to: b, on: &step)
            steps.append(step)
        }
        return true
    }

    /// OSRM's `DrivewayHandler`: off a main road, every road at the junction but the one arrived
    /// on and one other is of low priority (service ways and below); going on along the road is
    /// then no turn at all.
    func passesDriveways(_ node: Int, from a: DrivenPiece) -> Bool {
        guard !RoadShapeAhead.isLowPriority(roadClass: data.edges[a.edge].roadClass) else { return false }
        let ends = data.ends(of: node), first = ends.lowerBound, end = ends.upperBound
        var low = 0
        for i in first..<end where RoadShapeAhead.isLowPriority(roadClass: data.edges[Int(data.nodeEnds[i]) >> 1].roadClass) {
            low += 1
        }
        return low > 0 && low + 2 == end - first
    }

    /// OSRM's merging of a divided road's carriageways into one road (`MergableRoadDetector`,
    /// in its simplest form): at a junction of three roads, two are the one-way halves of one
    /// road (the same name, one only out, one only in) less than `mergableAngle` apart, so the
    /// junction is a plain node of two roads.
    static let mergableAngle = 95.0

    func splitsDividedRoad(_ node: Int) -> Bool {
        let ends = data.ends(of: node), first = ends.lowerBound, end = ends.upperBound
        guard end - first == 3 else { return false }
        let noRank = UInt32.max
        for i in first..<end {
            let ed = Int(data.nodeEnds[i]), e = ed >> 1
            guard data.edges[e].name != 0, data.edgeDirectionRank[ed] != noRank, data.edgeDirectionRank[ed ^ 1] == noRank else { continue }
            for k in first..<end where k != i {
                let ed2 = Int(data.nodeEnds[k]), e2 = ed2 >> 1
                guard data.edges[e2].name == data.edges[e].name, data.edgeDirectionRank[ed2] == noRank,
                      data.edgeDirectionRank[ed2 ^ 1] != noRank
                else { continue }
                let gap = abs(turnAngle(arriving: data.bearingLeaving(e, ed & 1), leaving: data.bearingLeaving(e2, ed2 & 1)))
                if gap < Self.mergableAngle { return true }
            }
        }
        return false
    }

    /// OSRM's merged carriageways seen from the turn: the road arrived on and the road taken
    /// are the one-way halves of one divided road (the same name and class, one only in, one
    /// only out) within `dividedUTurnAngle` of each other at the junction, which OSRM's
    /// intersection merges into one road: the turn from one onto the other is a U-turn.
    static let dividedUTurnAngle = 60.0

    func turnsBackOnDividedRoad(from a: DrivenPiece, to b: DrivenPiece) -> Bool {
        let ea = data.edges[a.edge], eb = data.edges[b.edge]
        guard a.edge != b.edge, ea.name != 0, ea.name == eb.name, ea.roadClass == eb.roadClass,
              data.edgeDirectionRank[a.edge << 1 | (1 - a.direction)] == UInt32.max,
              data.edgeDirectionRank[b.edge << 1 | (1 - b.direction)] == UInt32.max
        else { return false }
        // The arrival road's end at the junction points back along it.
        var back = data.bearingArriving(a.edge, a.direction) + 180
        if back >= 360 { back -= 360 }
        return abs(turnAngle(arriving: back, leaving: data.bearingLeaving(b.edge, b.direction))) < Self.dividedUTurnAngle
    }

    /// The roads one may take at a step's junction arriving as it did: those the turn graph has a
    /// turn onto (so a turn restriction, or the way back where no U-turn is allowed, does not
    /// count), as OSRM's `entry` flags (`numberOfAllowedTurns`).
    func allowedTurns(_ facts: StepCollapseFacts) -> Int {
        let from = facts.arrivingRank, node = Int(facts.junction)
        guard from != UInt32.max, node >= 0 else { return 0 }
        var count = 0
        for i in data.ends(of: node) {
            let to = data.edgeDirectionRank[Int(data.nodeEnds[i])]
            guard to != UInt32.max, data.ch.hasOriginalArc(from: from, to: to) else { continue }
            count += 1
        }
        return count
    }
}
