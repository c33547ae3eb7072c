/// OSRM's scenarios for collapsing steps (`collapse_scenario_detection.cpp`), on step indexes:
/// `prev` is the step before the two looked at (0: the departure), `entering` and `leaving` the
/// two that may become one. Angles as elsewhere here: 0 straight, positive to the right.
extension StepBuilder {
    /// OSRM's `MAX_STAGGERED_DISTANCE`: a jog across a road is a few metres at most.
    static let maxStaggeredMeters = 3.0

    private func isLeft(_ m: ManeuverModifier?) -> Bool { m == .slightLeft || m == .left || m == .sharpLeft }
    private func isRight(_ m: ManeuverModifier?) -> Bool { m == .slightRight || m == .right || m == .sharpRight }

    /// No junction of three or more roads passed within the step after its maneuver.
    private func noIntermediaryIntersections(_ s: RouteStep) -> Bool { s.collapse.passed == 0 }

    private func isShortAndUndisturbed(_ s: RouteStep) -> Bool {
        s.meters <= Self.maxCollapseMeters && noIntermediaryIntersections(s)
    }

    /// OSRM's link road: a short unnamed piece between two named roads.
    private func isLinkRoad(_ pre: RouteStep, _ link: RouteStep, _ post: RouteStep) -> Bool {
        link.meters <= 2 * Self.maxCollapseMeters && link.name.isEmpty && !pre.name.isEmpty && !post.name.isEmpty
            && noIntermediaryIntersections(link)
    }

    /// A U-turn takes part in a collapse only with a change of name next to it.
    private func noBadUTurnCombination(_ a: RouteStep, _ b: RouteStep) -> Bool {
        let uturn = a.modifier == .uturn || b.modifier == .uturn
        return !uturn || (has(a, .newName) && b.modifier == .uturn) || (has(b, .newName) && a.modifier == .uturn)
    }

    /// A real maneuver (not silent, combined away, or a waypoint).
    private func isManeuver(_ i: Int, _ steps: [RouteStep]) -> Bool {
        i > 0 && i < steps.count && !steps[i].collapse.isGone && !steps[i].collapse.isSilent
    }

    private func preconditions(_ a: Int, _ b: Int, _ steps: [RouteStep]) -> Bool {
        guard a > 0, b < steps.count else { return false }
        return !steps[a].collapse.isGone && !steps[b].collapse.isGone && !isRoundaboutStep(steps[a]) && !isRoundaboutStep(steps[b])
            && steps[a].isFerry == steps[b].isFerry && noBadUTurnCombination(steps[a], steps[b])
    }

    private func preconditions(_ a: Int, _ b: Int, _ c: Int, _ steps: [RouteStep]) -> Bool {
        guard c < steps.count else { return false }
        guard !steps[b].collapse.isGone, !steps[c].collapse.isGone, !isRoundaboutStep(steps[a]), !isRoundaboutStep(steps[b]), !isRoundaboutStep(steps[c]),
              steps[a].isFerry == steps[b].isFerry, steps[b].isFerry == steps[c].isFerry
        else { return false }
        return noBadUTurnCombination(steps[a], steps[b]) || noBadUTurnCombination(steps[b], steps[c])
    }

    private func angle(_ s: RouteStep) -> Double { turnAngle(arriving: s.bearingBefore, leaving: s.bearingAfter) }

    /// Two turns of about a right angle, opposite ways, a few metres apart: a staggered crossing.
    func isStaggeredIntersection(_ prev: Int, _ entering: Int, _ leaving: Int, _ steps: [RouteStep]) -> Bool {
        guard !steps[entering].type.entersRoundabout, !steps[leaving].type.entersRoundabout else { return false }
        let first = angle(steps[entering]), second = angle(steps[leaving])
        let right = { (x: Double) in x > 45 && x < 135 }, left = { (x: Double) in x < -45 && x > -135 }
        let zigzag = (left(first) && right(second)) || (right(first) && left(second))
        let modes = steps[prev].isFerry == steps[entering].isFerry && steps[entering].isFerry == steps[leaving].isFerry
        return steps[entering].meters < Self.maxStaggeredMeters && zigzag && modes && noIntermediaryIntersections(steps[entering])
    }

    /// Back along the same road through a short piece (or a short unnamed link, or the only way on).
    func isUTurn(_ prev: Int, _ entering: Int, _ leaving: Int, _ steps: [RouteStep]) -> Bool {
        guard preconditions(prev, entering, leaving, steps) else { return false }
        guard has(steps[entering], .turn) || has(steps[entering], .continue) || has(steps[entering], .endOfRoad) else { return false }
        guard bearingsAreReversed(steps[entering].bearingBefore, steps[leaving].bearingAfter), NameAnnouncement.same(steps[prev], steps[leaving]) else { return false }
        let onlyWay = steps[leaving].collapse.allowedTurns == 1 && noIntermediaryIntersections(steps[entering])
        return isShortAndUndisturbed(steps[entering]) || isLinkRoad(steps[prev], steps[entering], steps[leaving]) || onlyWay
    }

    /// A change of name there and straight back again.
    func isNameOscillation(_ prev: Int, _ entering: Int, _ leaving: Int, _ steps: [RouteStep]) -> Bool {
        guard preconditions(prev, entering, leaving, steps) else { return false }
        let aChanges = has(steps[entering], .newName) || has(steps[entering], .turn) && steps[entering].modifier == .straight
        let bChanges = has(steps[leaving], .newName) || steps[leaving].collapse.isSilent && steps[leaving].name.isEmpty && steps[leaving].ref.isEmpty
            || has(steps[leaving], .turn) && steps[leaving].modifier == .straight
        guard aChanges && bChanges else { return false }
        return (steps[prev].name == steps[leaving].name && steps[prev].ref == steps[leaving].ref) || NameAnnouncement.same(steps[prev], steps[leaving])
    }

    func maneuverPrecededByNameChange(_ prev: Int, _ entering: Int, _ leaving: Int, _ steps: [RouteStep]) -> Bool {
        guard preconditions(prev, entering, leaving, steps) else { return false }
        let nameChange = has(steps[entering], .newName) || (has(steps[entering], .turn) || has(steps[entering], .continue)) && steps[entering].modifier == .straight
        return isShortAndUndisturbed(steps[entering]) && nameChange && isManeuver(leaving, steps)
    }

    func maneuverPrecededBySilentDirection(_ entering: Int, _ leaving: Int, _ steps: [RouteStep]) -> Bool {
        guard preconditions(entering, leaving, steps) else { return false }
        return isShortAndUndisturbed(steps[entering]) && steps[entering].collapse.allowedTurns > 1 && steps[entering].collapse.isSilent && steps[entering].modifier != .straight
            && isManeuver(leaving, steps) && sameSide(steps[entering], steps[leaving])
    }

    func silentStraightBetweenTurns(_ entering: Int, _ center: Int, _ leaving: Int, _ steps: [RouteStep]) -> Bool {
        guard entering > 0, preconditions(entering, center, leaving, steps) else { return false }
        let limit = 0.8 * Self.maxCollapseMeters
        guard steps[entering].meters < limit && steps[center].meters < limit else { return false }
        let similar = (steps[entering].meters < 5 && steps[center].meters < 5) || min(steps[entering].meters, steps[center].meters) / max(steps[entering].meters, steps[center].meters) > 0.75
        let types = steps[center].collapse.isSilent && steps[center].modifier == .straight && (has(steps[entering], .turn) || has(steps[entering], .continue))
            && (has(steps[leaving], .turn) || has(steps[leaving], .continue) || has(steps[leaving], .onRamp))
        let total = turnAngle(arriving: steps[entering].bearingBefore, leaving: steps[leaving].bearingAfter)
        return similar && types && abs(total) < 140
    }

    func maneuverSucceededByNameChange(_ entering: Int, _ leaving: Int, _ steps: [RouteStep]) -> Bool {
        guard preconditions(entering, leaving, steps) else { return false }
        let nameChange = has(steps[leaving], .newName) || (has(steps[leaving], .turn) || has(steps[leaving], .continue)) && steps[leaving].modifier == .straight
        let within = steps[entering].meters <= 1.5 * Self.maxCollapseMeters
        let strong = has(steps[leaving], .newName) && steps[leaving].modifier == .straight && within
        let choiceless = has(steps[leaving], .newName) && steps[leaving].collapse.allowedTurns == 1 && within
        return (isShortAndUndisturbed(steps[entering]) || strong || choiceless) && nameChange && isManeuver(entering, steps)
    }

    func maneuverSucceededBySilentDirection(_ entering: Int, _ leaving: Int, _ steps: [RouteStep]) -> Bool {
        guard preconditions(entering, leaving, steps) else { return false }
        return isShortAndUndisturbed(steps[entering]) && steps[leaving].collapse.isSilent && steps[leaving].modifier != .straight && isManeuver(entering, steps)
            && sameSide(steps[entering], steps[leaving])
    }

    func nameChangeImmediatelyAfterSilent(_ entering: Int, _ leaving: Int, _ steps: [RouteStep]) -> Bool {
        guard preconditions(entering, leaving, steps) else { return false }
        return steps[entering].meters < 0.25 * Self.maxCollapseMeters && steps[entering].collapse.isSilent && has(steps[leaving], .newName)
    }

    func closeChoicelessTurnAfterTurn(_ entering: Int, _ leaving: Int, _ steps: [RouteStep]) -> Bool {
        guard preconditions(entering, leaving, steps) else { return false }
        return isShortAndUndisturbed(steps[entering]) && steps[entering].modifier != .straight && steps[leaving].collapse.allowedTurns == 1 && !steps[leaving].collapse.isSilent
    }

    func straightTurnFollowedByChoiceless(_ entering: Int, _ leaving: Int, _ steps: [RouteStep]) -> Bool {
        guard preconditions(entering, leaving, steps) else { return false }
        return steps[entering].meters <= 2 * Self.maxCollapseMeters && (has(steps[entering], .continue) || has(steps[entering], .turn)) && steps[entering].modifier == .straight
            && steps[leaving].collapse.allowedTurns == 1 && noIntermediaryIntersections(steps[entering])
    }

    /// OSRM's `areSameSide`: both to the left or both to the right (straight counts as either).
    private func sameSide(_ a: RouteStep, _ b: RouteStep) -> Bool {
        let aLeft = a.modifier == .straight || isLeft(a.modifier), bLeft = b.modifier == .straight || isLeft(b.modifier)
        let aRight = a.modifier == .straight || isRight(a.modifier), bRight = b.modifier == .straight || isRight(b.modifier)
        return (aLeft && bLeft) || (aRight && bRight)
    }
}
