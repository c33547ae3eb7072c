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
        let x = steps[a], y = steps[b]
        return !x.collapse.isGone && !y.collapse.isGone && !isRoundaboutStep(x) && !isRoundaboutStep(y)
            && x.isFerry == y.isFerry && noBadUTurnCombination(x, y)
    }

    private func preconditions(_ a: Int, _ b: Int, _ c: Int, _ steps: [RouteStep]) -> Bool {
        guard c < steps.count else { return false }
        let x = steps[a], y = steps[b], z = steps[c]
        guard !y.collapse.isGone, !z.collapse.isGone, !isRoundaboutStep(x), !isRoundaboutStep(y), !isRoundaboutStep(z),
              x.isFerry == y.isFerry, y.isFerry == z.isFerry
        else { return false }
        return noBadUTurnCombination(x, y) || noBadUTurnCombination(y, z)
    }

    private func angle(_ s: RouteStep) -> Double { turnAngle(arriving: s.bearingBefore, leaving: s.bearingAfter) }

    /// Two turns of about a right angle, opposite ways, a few metres apart: a staggered crossing.
    func isStaggeredIntersection(_ prev: Int, _ entering: Int, _ leaving: Int, _ steps: [RouteStep]) -> Bool {
        let a = steps[entering], b = steps[leaving]
        guard !a.type.entersRoundabout, !b.type.entersRoundabout else { return false }
        let first = angle(a), second = angle(b)
        let right = { (x: Double) in x > 45 && x < 135 }, left = { (x: Double) in x < -45 && x > -135 }
        let zigzag = (left(first) && right(second)) || (right(first) && left(second))
        let modes = steps[prev].isFerry == a.isFerry && a.isFerry == b.isFerry
        return a.meters < Self.maxStaggeredMeters && zigzag && modes && noIntermediaryIntersections(a)
    }

    /// Back along the same road through a short piece (or a short unnamed link, or the only way on).
    func isUTurn(_ prev: Int, _ entering: Int, _ leaving: Int, _ steps: [RouteStep]) -> Bool {
        guard preconditions(prev, entering, leaving, steps) else { return false }
        let a = steps[entering], b = steps[leaving]
        guard has(a, .turn) || has(a, .continue) || has(a, .endOfRoad) else { return false }
        guard bearingsAreReversed(a.bearingBefore, b.bearingAfter), NameAnnouncement.same(steps[prev], b) else { return false }
        let onlyWay = b.collapse.allowedTurns == 1 && noIntermediaryIntersections(a)
        return isShortAndUndisturbed(a) || isLinkRoad(steps[prev], a, b) || onlyWay
    }

    /// A change of name there and straight back again.
    func isNameOscillation(_ prev: Int, _ entering: Int, _ leaving: Int, _ steps: [RouteStep]) -> Bool {
        guard preconditions(prev, entering, leaving, steps) else { return false }
        let a = steps[entering], b = steps[leaving], p = steps[prev]
        let aChanges = has(a, .newName) || has(a, .turn) && a.modifier == .straight
        let bChanges = has(b, .newName) || b.collapse.isSilent && b.name.isEmpty && b.ref.isEmpty
            || has(b, .turn) && b.modifier == .straight
        guard aChanges && bChanges else { return false }
        return (p.name == b.name && p.ref == b.ref) || NameAnnouncement.same(p, b)
    }

    func maneuverPrecededByNameChange(_ prev: Int, _ entering: Int, _ leaving: Int, _ steps: [RouteStep]) -> Bool {
        guard preconditions(prev, entering, leaving, steps) else { return false }
        let a = steps[entering]
        let nameChange = has(a, .newName) || (has(a, .turn) || has(a, .continue)) && a.modifier == .straight
        return isShortAndUndisturbed(a) && nameChange && isManeuver(leaving, steps)
    }

    func maneuverPrecededBySilentDirection(_ entering: Int, _ leaving: Int, _ steps: [RouteStep]) -> Bool {
        guard preconditions(entering, leaving, steps) else { return false }
        let a = steps[entering], b = steps[leaving]
        return isShortAndUndisturbed(a) && a.collapse.allowedTurns > 1 && a.collapse.isSilent && a.modifier != .straight
            && isManeuver(leaving, steps) && sameSide(a, b)
    }

    func silentStraightBetweenTurns(_ entering: Int, _ center: Int, _ leaving: Int, _ steps: [RouteStep]) -> Bool {
        guard entering > 0, preconditions(entering, center, leaving, steps) else { return false }
        let a = steps[entering], c = steps[center], b = steps[leaving]
        let limit = 0.8 * Self.maxCollapseMeters
        guard a.meters < limit && c.meters < limit else { return false }
        let similar = (a.meters < 5 && c.meters < 5) || min(a.meters, c.meters) / max(a.meters, c.meters) > 0.75
        let types = c.collapse.isSilent && c.modifier == .straight && (has(a, .turn) || has(a, .continue))
            && (has(b, .turn) || has(b, .continue) || has(b, .onRamp))
        let total = turnAngle(arriving: a.bearingBefore, leaving: b.bearingAfter)
        return similar && types && abs(total) < 140
    }

    func maneuverSucceededByNameChange(_ entering: Int, _ leaving: Int, _ steps: [RouteStep]) -> Bool {
        guard preconditions(entering, leaving, steps) else { return false }
        let a = steps[entering], b = steps[leaving]
        let nameChange = has(b, .newName) || (has(b, .turn) || has(b, .continue)) && b.modifier == .straight
        let within = a.meters <= 1.5 * Self.maxCollapseMeters
        let strong = has(b, .newName) && b.modifier == .straight && within
        let choiceless = has(b, .newName) && b.collapse.allowedTurns == 1 && within
        return (isShortAndUndisturbed(a) || strong || choiceless) && nameChange && isManeuver(entering, steps)
    }

    func maneuverSucceededBySilentDirection(_ entering: Int, _ leaving: Int, _ steps: [RouteStep]) -> Bool {
        guard preconditions(entering, leaving, steps) else { return false }
        let a = steps[entering], b = steps[leaving]
        return isShortAndUndisturbed(a) && b.collapse.isSilent && b.modifier != .straight && isManeuver(entering, steps)
            && sameSide(a, b)
    }

    func nameChangeImmediatelyAfterSilent(_ entering: Int, _ leaving: Int, _ steps: [RouteStep]) -> Bool {
        guard preconditions(entering, leaving, steps) else { return false }
        let a = steps[entering], b = steps[leaving]
        return a.meters < 0.25 * Self.maxCollapseMeters && a.collapse.isSilent && has(b, .newName)
    }

    func closeChoicelessTurnAfterTurn(_ entering: Int, _ leaving: Int, _ steps: [RouteStep]) -> Bool {
        guard preconditions(entering, leaving, steps) else { return false }
        let a = steps[entering], b = steps[leaving]
        return isShortAndUndisturbed(a) && a.modifier != .straight && b.collapse.allowedTurns == 1 && !b.collapse.isSilent
    }

    func straightTurnFollowedByChoiceless(_ entering: Int, _ leaving: Int, _ steps: [RouteStep]) -> Bool {
        guard preconditions(entering, leaving, steps) else { return false }
        let a = steps[entering], b = steps[leaving]
        return a.meters <= 2 * Self.maxCollapseMeters && (has(a, .continue) || has(a, .turn)) && a.modifier == .straight
            && b.collapse.allowedTurns == 1 && noIntermediaryIntersections(a)
    }

    /// OSRM's `areSameSide`: both to the left or both to the right (straight counts as either).
    private func sameSide(_ a: RouteStep, _ b: RouteStep) -> Bool {
        let aLeft = a.modifier == .straight || isLeft(a.modifier), bLeft = b.modifier == .straight || isLeft(b.modifier)
        let aRight = a.modifier == .straight || isRight(a.modifier), bRight = b.modifier == .straight || isRight(b.modifier)
        return (aLeft && bLeft) || (aRight && bRight)
    }
}
