/// OSRM's scenarios for collapsing steps (`collapse_scenario_detection.cpp`), on step indexes:
/// `prev` is the step before the two looked at (0: the departure), `entering` and `leaving` the
/// two that may become one. Angles as elsewhere here: 0 straight, positive to the right.
extension StepBuilder {
    /// OSRM's `MAX_STAGGERED_DISTANCE`: a jog across a road is a few metres at most.
    static let maxStaggeredMeters = 3.0

    private func isLeft(_ m: ManeuverModifier?) -> Bool { m == .slightLeft || m == .left || m == .sharpLeft }
    private func isRight(_ m: ManeuverModifier?) -> Bool { m == .slightRight || m == .right || m == .sharpRight }

    // The rules read steps by index, in place: a step passed by value is copied out of the array
    // (~200 bytes, its strings retained), which at every rule of every step was a fifth of the
    // step builder's time.

    /// No junction of three or more roads passed within step `i` after its maneuver.
    private func noIntermediaryIntersections(_ i: Int, _ steps: [RouteStep]) -> Bool { steps[i].collapse.passed == 0 }

    private func isShortAndUndisturbed(_ i: Int, _ steps: [RouteStep]) -> Bool {
        steps[i].meters <= Self.maxCollapseMeters && noIntermediaryIntersections(i, steps)
    }

    /// `has` for step `i`, read in place.
    private func has(_ i: Int, _ type: ManeuverType, _ steps: [RouteStep]) -> Bool {
        !steps[i].collapse.isSilent && steps[i].type == type
    }

    /// OSRM's link road: a short unnamed piece between two named roads.
    private func isLinkRoad(_ pre: Int, _ link: Int, _ post: Int, _ steps: [RouteStep]) -> Bool {
        steps[link].meters <= 2 * Self.maxCollapseMeters && steps[link].name.isEmpty && !steps[pre].name.isEmpty
            && !steps[post].name.isEmpty && noIntermediaryIntersections(link, steps)
    }

    /// A U-turn takes part in a collapse only with a change of name next to it.
    private func noBadUTurnCombination(_ a: Int, _ b: Int, _ steps: [RouteStep]) -> Bool {
        let uturn = steps[a].modifier == .uturn || steps[b].modifier == .uturn
        return !uturn || (has(a, .newName, steps) && steps[b].modifier == .uturn) || (has(b, .newName, steps) && steps[a].modifier == .uturn)
    }

    /// A real maneuver (not silent, combined away, or a waypoint).
    private func isManeuver(_ i: Int, _ steps: [RouteStep]) -> Bool {
        i > 0 && i < steps.count && !steps[i].collapse.isGone && !steps[i].collapse.isSilent
    }

    private func preconditions(_ a: Int, _ b: Int, _ steps: [RouteStep]) -> Bool {
        guard a > 0, b < steps.count else { return false }
        return !steps[a].collapse.isGone && !steps[b].collapse.isGone && !steps[a].type.isRoundabout && !steps[b].type.isRoundabout
            && steps[a].isFerry == steps[b].isFerry && noBadUTurnCombination(a, b, steps)
    }

    private func preconditions(_ a: Int, _ b: Int, _ c: Int, _ steps: [RouteStep]) -> Bool {
        guard c < steps.count else { return false }
        guard !steps[b].collapse.isGone, !steps[c].collapse.isGone, !steps[a].type.isRoundabout, !steps[b].type.isRoundabout, !steps[c].type.isRoundabout,
              steps[a].isFerry == steps[b].isFerry, steps[b].isFerry == steps[c].isFerry
        else { return false }
        return noBadUTurnCombination(a, b, steps) || noBadUTurnCombination(b, c, steps)
    }

    private func angle(_ i: Int, _ steps: [RouteStep]) -> Double { turnAngle(arriving: steps[i].bearingBefore, leaving: steps[i].bearingAfter) }

    /// Two turns of about a right angle, opposite ways, a few metres apart: a staggered crossing.
    func isStaggeredIntersection(_ prev: Int, _ entering: Int, _ leaving: Int, _ steps: [RouteStep]) -> Bool {
        guard !steps[entering].type.entersRoundabout, !steps[leaving].type.entersRoundabout else { return false }
        let first = angle(entering, steps), second = angle(leaving, steps)
        let right = { (x: Double) in x > 45 && x < 135 }, left = { (x: Double) in x < -45 && x > -135 }
        let zigzag = (left(first) && right(second)) || (right(first) && left(second))
        let modes = steps[prev].isFerry == steps[entering].isFerry && steps[entering].isFerry == steps[leaving].isFerry
        return steps[entering].meters < Self.maxStaggeredMeters && zigzag && modes && noIntermediaryIntersections(entering, steps)
    }

    /// Back along the same road through a short piece (or a short unnamed link, or the only way on).
    func isUTurn(_ prev: Int, _ entering: Int, _ leaving: Int, _ steps: [RouteStep]) -> Bool {
        guard preconditions(prev, entering, leaving, steps) else { return false }
        guard has(entering, .turn, steps) || has(entering, .continue, steps) || has(entering, .endOfRoad, steps) else { return false }
        guard bearingsAreReversed(steps[entering].bearingBefore, steps[leaving].bearingAfter), NameAnnouncement.same(steps[prev], steps[leaving]) else { return false }
        let onlyWay = allowedTurns(steps[leaving].collapse) == 1 && noIntermediaryIntersections(entering, steps)
        return isShortAndUndisturbed(entering, steps) || isLinkRoad(prev, entering, leaving, steps) || onlyWay
    }

    /// A change of name there and straight back again.
    func isNameOscillation(_ prev: Int, _ entering: Int, _ leaving: Int, _ steps: [RouteStep]) -> Bool {
        guard preconditions(prev, entering, leaving, steps) else { return false }
        let aChanges = has(entering, .newName, steps) || has(entering, .turn, steps) && steps[entering].modifier == .straight
        let bChanges = has(leaving, .newName, steps) || steps[leaving].collapse.isSilent && steps[leaving].name.isEmpty && steps[leaving].ref.isEmpty
            || has(leaving, .turn, steps) && steps[leaving].modifier == .straight
        guard aChanges && bChanges else { return false }
        return (steps[prev].name == steps[leaving].name && steps[prev].ref == steps[leaving].ref) || NameAnnouncement.same(steps[prev], steps[leaving])
    }

    func maneuverPrecededByNameChange(_ prev: Int, _ entering: Int, _ leaving: Int, _ steps: [RouteStep]) -> Bool {
        guard preconditions(prev, entering, leaving, steps) else { return false }
        let nameChange = has(entering, .newName, steps) || (has(entering, .turn, steps) || has(entering, .continue, steps)) && steps[entering].modifier == .straight
        return isShortAndUndisturbed(entering, steps) && nameChange && isManeuver(leaving, steps)
    }

    func maneuverPrecededBySilentDirection(_ entering: Int, _ leaving: Int, _ steps: [RouteStep]) -> Bool {
        guard preconditions(entering, leaving, steps) else { return false }
        return isShortAndUndisturbed(entering, steps) && allowedTurns(steps[entering].collapse) > 1 && steps[entering].collapse.isSilent && steps[entering].modifier != .straight
            && isManeuver(leaving, steps) && sameSide(steps[entering].modifier, steps[leaving].modifier)
    }

    func silentStraightBetweenTurns(_ entering: Int, _ center: Int, _ leaving: Int, _ steps: [RouteStep]) -> Bool {
        guard entering > 0, preconditions(entering, center, leaving, steps) else { return false }
        let limit = 0.8 * Self.maxCollapseMeters
        guard steps[entering].meters < limit && steps[center].meters < limit else { return false }
        let similar = (steps[entering].meters < 5 && steps[center].meters < 5) || min(steps[entering].meters, steps[center].meters) / max(steps[entering].meters, steps[center].meters) > 0.75
        let types = steps[center].collapse.isSilent && steps[center].modifier == .straight && (has(entering, .turn, steps) || has(entering, .continue, steps))
            && (has(leaving, .turn, steps) || has(leaving, .continue, steps) || has(leaving, .onRamp, steps))
        let total = turnAngle(arriving: steps[entering].bearingBefore, leaving: steps[leaving].bearingAfter)
        return similar && types && abs(total) < 140
    }

    func maneuverSucceededByNameChange(_ entering: Int, _ leaving: Int, _ steps: [RouteStep]) -> Bool {
        guard preconditions(entering, leaving, steps) else { return false }
        let nameChange = has(leaving, .newName, steps) || (has(leaving, .turn, steps) || has(leaving, .continue, steps)) && steps[leaving].modifier == .straight
        let within = steps[entering].meters <= 1.5 * Self.maxCollapseMeters
        let strong = has(leaving, .newName, steps) && steps[leaving].modifier == .straight && within
        let choiceless = has(leaving, .newName, steps) && allowedTurns(steps[leaving].collapse) == 1 && within
        return (isShortAndUndisturbed(entering, steps) || strong || choiceless) && nameChange && isManeuver(entering, steps)
    }

    func maneuverSucceededBySilentDirection(_ entering: Int, _ leaving: Int, _ steps: [RouteStep]) -> Bool {
        guard preconditions(entering, leaving, steps) else { return false }
        return isShortAndUndisturbed(entering, steps) && steps[leaving].collapse.isSilent && steps[leaving].modifier != .straight && isManeuver(entering, steps)
            && sameSide(steps[entering].modifier, steps[leaving].modifier)
    }

    func nameChangeImmediatelyAfterSilent(_ entering: Int, _ leaving: Int, _ steps: [RouteStep]) -> Bool {
        guard preconditions(entering, leaving, steps) else { return false }
        return steps[entering].meters < 0.25 * Self.maxCollapseMeters && steps[entering].collapse.isSilent && has(leaving, .newName, steps)
    }

    func closeChoicelessTurnAfterTurn(_ entering: Int, _ leaving: Int, _ steps: [RouteStep]) -> Bool {
        guard preconditions(entering, leaving, steps) else { return false }
        return isShortAndUndisturbed(entering, steps) && steps[entering].modifier != .straight && allowedTurns(steps[leaving].collapse) == 1 && !steps[leaving].collapse.isSilent
    }

    func straightTurnFollowedByChoiceless(_ entering: Int, _ leaving: Int, _ steps: [RouteStep]) -> Bool {
        guard preconditions(entering, leaving, steps) else { return false }
        return steps[entering].meters <= 2 * Self.maxCollapseMeters && (has(entering, .continue, steps) || has(entering, .turn, steps)) && steps[entering].modifier == .straight
            && allowedTurns(steps[leaving].collapse) == 1 && noIntermediaryIntersections(entering, steps)
    }

    /// OSRM's `areSameSide`: both to the left or both to the right (straight counts as either).
    private func sameSide(_ a: ManeuverModifier?, _ b: ManeuverModifier?) -> Bool {
        let aLeft = a == .straight || isLeft(a), bLeft = b == .straight || isLeft(b)
        let aRight = a == .straight || isRight(a), bRight = b == .straight || isRight(b)
        return (aLeft && bLeft) || (aRight && bRight)
    }
}
