import RoutingTiles

/// OSRM's divided-road crossings (`segregated_intersection_classification.cpp` and
/// `collapseSegregatedTurnInstructions`): a short road between the two one-way carriageways of
/// a divided road is inside one intersection, so the turn onto it and the turn off it are one.
extension StepBuilder {
    /// OSRM's `INTERNAL_LENGTH_MAX`: a road inside an intersection is at most this long.
    static let internalEdgeMaxMeters = 32.0
    /// Turns within this of straight on or off it do not tell a carriageway (OSRM's
    /// `INTERNAL_STRAIGHT_LOWER/UPPER_BOUND`, 150°…210°).
    static let internalStraightAngle = 30.0

    /// OSRM's `isSegregated` of edge `e` driven in direction `d`: short, not a roundabout, with a
    /// one-way road of a main class (not a link, nor below residential) turning onto it at its
    /// start and one turning off it at its end (neither nearly straight), and the turns onto it
    /// and off it never on opposite sides (nor those off it on both sides).
    func isSegregatedEdge(_ e: Int, _ d: Int) -> Bool {
        let edge = data.edges[e]
        guard Double(edge.lengthCm) / 100 <= Self.internalEdgeMaxMeters, edge.flags & EdgeFlags.roundabout == 0 else { return false }
        let start = data.endNode(e, 1 - d), end = data.endNode(e, d)
        let leaving = data.bearingLeaving(e, d), arriving = data.bearingArriving(e, d)
        let noRank = UInt32.max
        var into = TurnSides(), outOf = TurnSides()
        var onewayIn = false, onewayOut = false
        // Roads into the start: their turn onto the edge.
        for i in data.ends(of: start) {
            let ed = Int(data.nodeEnds[i]), e2 = ed >> 1, d2 = ed & 1
            guard data.endNode(e2, d2) != end, data.edgeDirectionRank[ed ^ 1] != noRank else { continue }
            var inBearing = data.bearingLeaving(e2, d2) + 180
            if inBearing >= 360 { inBearing -= 360 }
            let angle = turnAngle(arriving: inBearing, leaving: leaving)
            into.insert(angle)
            if data.edgeDirectionRank[ed] == noRank && Self.tellsCarriageway(data.edges[e2].roadClass)
                && abs(angle) >= Self.internalStraightAngle {
                onewayIn = true
            }
        }
        guard onewayIn else { return false }
        // Roads out of the end: the turn off the edge onto them.
        for i in data.ends(of: end) {
            let ed = Int(data.nodeEnds[i]), e2 = ed >> 1, d2 = ed & 1
            guard data.endNode(e2, d2) != start, data.edgeDirectionRank[ed] != noRank else { continue }
            let angle = turnAngle(arriving: arriving, leaving: data.bearingLeaving(e2, d2))
            outOf.insert(angle)
            if data.edgeDirectionRank[ed ^ 1] == noRank && Self.tellsCarriageway(data.edges[e2].roadClass)
                && abs(angle) >= Self.internalStraightAngle {
                onewayOut = true
            }
        }
        guard onewayOut else { return false }
        return !((into.left && outOf.right) || (into.right && outOf.left) || (outOf.left && outOf.right))
    }

    /// A one-way road that can be a carriageway: of a main class up to residential (OSRM's
    /// priority class at most `SIDE_RESIDENTIAL`), not a link.
    static func tellsCarriageway(_ c: UInt8) -> Bool {
        !StepJunction.isLink(c) && (c <= 9 || c == 11 || c == 12)
    }

    /// OSRM's `collapseSegregatedTurnInstructions`: a step onto a road inside a divided-road
    /// crossing takes in the step after it (and a run of them, all such roads); the turn made
    /// is the one from the road arrived on to the road left on (`SegregatedTurnStrategy`), or a
    /// `continue uturn` when that goes back the way it came. Before the other collapse rules.
    func collapseSegregated(_ steps: inout [RouteStep]) {
        guard steps.count >= 3 else { return }
        var current = 1, next = 2
        while next < steps.count {
            let prior = previousTurn(before: current, in: steps)
            if steps[current].collapse.isSegregated && steps[next].collapse.isSegregated {
                // Both inside: one step; an end of road on either stays one.
                if has(steps[current], .endOfRoad) || has(steps[next], .endOfRoad) {
                    setType(.endOfRoad, &steps[current])
                }
                combine(next, into: current, &steps, signage: true)
                next += 1
            } else if steps[current].collapse.isSegregated && !steps[current].type.isRoundabout && !steps[next].type.isRoundabout {
                if bearingsAreReversed(steps[current].bearingBefore, steps[next].bearingAfter) {
                    setType(.continue, &steps[current])
                    steps[current].modifier = .uturn
                } else {
                    segregatedTurn(current, next, prior: prior, &steps)
                }
                combine(next, into: current, &steps, signage: true)
                steps[current].collapse.isSegregated = false
                next += 1
            } else {
                current = next
                next += 1
            }
        }
    }

    /// OSRM's `SegregatedTurnStrategy`: the type and modifier of the turn from the road arrived
    /// on at step `at` to the road left on at step `from`.
    private func segregatedTurn(_ at: Int, _ from: Int, prior: Int, _ steps: inout [RouteStep]) {
        let angle = turnAngle(arriving: steps[at].bearingBefore, leaving: steps[from].bearingAfter)
        let direction = ManeuverModifier(angle: angle)
        let transfer = steps[from]
        // Suppressed (silent) counts with these types.
        let isTurnStep = transfer.collapse.isSilent || transfer.type == .newName || transfer.type == .continue || transfer.type == .turn
        let isStraightStep = isTurnStep
            && (transfer.modifier == .straight || transfer.modifier == .slightLeft || transfer.modifier == .slightRight)
        let sameName = NameAnnouncement.same(steps[prior], transfer)
        var updateModifier = true
        if has(steps[at], .endOfRoad) || has(transfer, .endOfRoad) {
            setType(.endOfRoad, &steps[at])
        } else if has(steps[at], .fork) {
            updateModifier = false
        } else if direction == .straight && isStraightStep {
            setSilentOrNewName(sameName, &steps[at])
        } else if abs(angle) <= 55 && steps[at].collapse.passed == 0
                    && hasStraightestTurn(steps[at]) && hasStraightestTurn(transfer) {
            // OSRM's wider straight (125°…235°): going on across the divided road.
            setSilentOrNewName(sameName, &steps[at])
            steps[at].modifier = .straight
            updateModifier = false
        } else if direction != .straight && isTurnStep {
            setType(.turn, &steps[at])
        } else {
            steps[at].type = transfer.type
            steps[at].collapse.isSilent = transfer.collapse.isSilent
        }
        if updateModifier { steps[at].modifier = direction }
    }

    private func setSilentOrNewName(_ silent: Bool, _ step: inout RouteStep) {
        step.type = .newName
        step.collapse.isSilent = silent
    }

    /// OSRM's `hasStraightestTurn`: the step's turn is a wide straight (within 55°) and no other
    /// road one may take at its junction is clearly straighter (by more than 10°).
    func hasStraightestTurn(_ step: RouteStep) -> Bool {
        guard let inIndex = step.intersectionIn, let outIndex = step.intersectionOut else { return false }
        let arriving = Double((step.intersectionBearings[inIndex] + 180) % 360)
        let path = turnAngle(arriving: arriving, leaving: Double(step.intersectionBearings[outIndex]))
        guard abs(path) <= 55 else { return false }
        var straightest = 180.0
        for (k, b) in step.intersectionBearings.enumerated() where k != inIndex && k != outIndex {
            let a = turnAngle(arriving: arriving, leaving: Double(b))
            if abs(a) < abs(straightest) { straightest = a }
        }
        return abs(path - straightest) > 10 ? abs(path) <= abs(straightest) : true
    }
}

/// Which sides the turns of a set go to (OSRM's sets of `DirectionModifier`, read for
/// right / sharp right and left / sharp left only).
struct TurnSides {
    var left = false
    var right = false

    mutating func insert(_ angle: Double) {
        switch ManeuverModifier(angle: angle) {
        case .right, .sharpRight: right = true
        case .left, .sharpLeft: left = true
        default: break
        }
    }
}
