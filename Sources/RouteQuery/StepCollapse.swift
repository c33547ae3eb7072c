/// OSRM's collapsing of steps (`collapse_turns.cpp`): two maneuvers in quick succession that a
/// driver makes as one (the two halves of a turn across a divided road, a staggered
/// crossing's short jog, a U-turn through a short link, a turn followed at once by a change of
/// name) become one step. Runs on a leg's finished steps (no arrival yet: the index past the
/// last step stands for it), then folds the silent steps (`StepCollapseFacts.isSilent`) that are
/// left into the step before them, as OSRM's `buildIntersections` does with `Suppressed` ones.
extension StepBuilder {
    func collapseSteps(_ steps: inout [RouteStep]) {
        guard steps.count >= 2 else { return }
        steps[0].collapse.isSilent = false
        for i in steps.indices where steps[i].collapse.endOfRoadDemoted { setType(.endOfRoad, &steps[i]) }
        collapseSegregated(&steps)
        collapseTurns(&steps)
        foldSilentSteps(&steps)
        demoteEndsOfRoadRightAfterATurn(&steps)
    }

    /// OSRM's `collapseTurnInstructions`: each step with the next one, the first rule that fits.
    private func collapseTurns(_ steps: inout [RouteStep]) {
        var current = 1
        while current < steps.count {
            defer { current += 1 }
            if steps[current].collapse.isGone || steps[current].type.entersRoundabout { continue }
            if steps[current].collapse.isSliproad && !steps[current].collapse.isSilent {
                collapseSliproad(current, prev: previousTurn(before: current, in: steps), &steps)
                continue
            }
            let next = nextTurn(after: current, in: steps)
            if next == steps.count { break }
            let prev = previousTurn(before: current, in: steps)
            if steps[current].isFerry != steps[next].isFerry { continue }
            if isStaggeredIntersection(prev, current, next, steps) {
                staggeredTurn(current, next, prior: prev, &steps)
                combine(next, into: current, &steps, signage: true)
            } else if isUTurn(prev, current, next, steps) {
                setUTurn(&steps[current])
                combine(next, into: current, &steps, signage: true)
            } else if isNameOscillation(prev, current, next, steps) {
                combine(next, into: current, &steps, signage: false)
                combine(current, into: prev, &steps, signage: false)
            } else if maneuverPrecededByNameChange(prev, current, next, steps)
                        || maneuverPrecededBySilentDirection(current, next, steps) {
                adjustToCombinedTurn(at: next, from: current, prior: prev, &steps)
                combine(current, into: prev, &steps, signage: false)
            } else if maneuverSucceededByNameChange(current, next, steps)
                        || nameChangeImmediatelyAfterSilent(current, next, steps)
                        || maneuverSucceededBySilentDirection(current, next, steps)
                        || closeChoicelessTurnAfterTurn(current, next, steps)
                        || straightTurnFollowedByChoiceless(current, next, steps) {
                adjustToCombinedTurn(at: current, from: next, prior: prev, &steps)
                combine(next, into: current, &steps, signage: true)
            } else if silentStraightBetweenTurns(prev, current, next, steps) {
                let farBack = previousTurn(before: prev, in: steps)
                combine(current, into: prev, &steps, signage: false)
                adjustToCombinedTurn(at: prev, from: next, prior: farBack, &steps)
                combine(next, into: prev, &steps, signage: true)
            }
            // A U-turn may show only once a name change after it is folded in: look back too.
            if prev > 0 && !steps[prev].collapse.isGone && !steps[current].collapse.isGone {
                let farBack = previousTurn(before: prev, in: steps)
                if isUTurn(farBack, prev, current, steps) {
                    setUTurn(&steps[prev])
                    combine(current, into: prev, &steps, signage: true)
                }
            }
        }
    }

    /// OSRM's `buildIntersections` for silent steps, then the dropping of combined ones.
    private func foldSilentSteps(_ steps: inout [RouteStep]) {
        var kept = 1
        for i in 1..<steps.count {
            if steps[i].collapse.isGone { continue }
            if steps[i].collapse.isSilent {
                let silent = steps[i]
                elongate(&steps[kept - 1], by: silent)
                continue
            }
            if kept != i { steps.swapAt(kept, i) }
            kept += 1
        }
        if kept < steps.count { steps.removeLast(steps.count - kept) }
    }

    /// OSRM's `buildIntersections` rule for ends of road: one right after the step before it
    /// began (no junction passed on the way) says no more than a turn, or a continue onto the
    /// same road.
    private func demoteEndsOfRoadRightAfterATurn(_ steps: inout [RouteStep]) {
        for i in steps.indices.dropFirst() where steps[i].type == .endOfRoad
            && 1 + Int(steps[i - 1].collapse.passed) < Self.minEndOfRoadIntersections {
            steps[i].type = NameAnnouncement.same(steps[i - 1], steps[i]) ? .continue : .turn
        }
    }

    // MARK: Strategies (what a combined step says)

    private func setUTurn(_ step: inout RouteStep) {
        setType(.continue, &step)
        step.modifier = .uturn
    }

    /// OSRM's `StaggeredTurnStrategy`: a jog across a road is going straight on.
    private func staggeredTurn(_ at: Int, _ from: Int, prior: Int, _ steps: inout [RouteStep]) {
        steps[at].modifier = .straight
        steps[at].type = .newName
        steps[at].collapse.isSilent = NameAnnouncement.same(steps[prior], steps[from])
    }

    /// OSRM's `AdjustToCombinedTurnStrategy`: step `at` takes the turn of both, its type by
    /// whether either was a real turn and whether the road left on is the one arrived on.
    private func adjustToCombinedTurn(at: Int, from: Int, prior: Int, _ steps: inout [RouteStep]) {
        let angle = totalTurnAngle(steps[min(at, from)], steps[max(at, from)])
        let atStep = steps[at], fromStep = steps[from]
        let modifier = has(atStep, .fork) || has(atStep, .merge) ? atStep.modifier : ManeuverModifier(angle: angle)
        func isNonTurn(_ s: RouteStep) -> Bool {
            has(s, .newName) || (has(s, .turn) || has(s, .continue)) && s.modifier == .straight
        }
        let sameName = NameAnnouncement.same(steps[prior], fromStep)
        if isNonTurn(fromStep) || isNonTurn(atStep) || atStep.collapse.isSilent {
            if atStep.collapse.isSilent {
                setType(modifier == .straight ? .newName : (sameName ? .continue : .turn), &steps[at])
            } else if has(atStep, .newName) && fromStep.collapse.isSilent && modifier != .straight {
                setType(.turn, &steps[at])
            } else if has(atStep, .continue) && !sameName {
                setType(.turn, &steps[at])
            } else if has(atStep, .turn) && !fromStep.collapse.isSilent && sameName {
                setType(.continue, &steps[at])
            }
        } else if has(fromStep, .onRamp) {
            setType(.onRamp, &steps[at])
        } else if has(atStep, .turn) && has(fromStep, .turn) && sameName {
            setType(.continue, &steps[at])
        } else if has(atStep, .continue) && has(fromStep, .turn) && !sameName {
            setType(.turn, &steps[at])
        }
        steps[at].modifier = modifier
    }

    /// OSRM's `findTotalTurnAngle` (in this file's angles: 0 straight, positive right): the
    /// angle from the road into the first step to the road out of the second when they turn
    /// together (the first is short, or both bend the same way), else the first one's own.
    func totalTurnAngle(_ entry: RouteStep, _ exit: RouteStep) -> Double {
        let exitAngle = turnAngle(arriving: exit.bearingBefore, leaving: exit.bearingAfter)
        let entryAngle = turnAngle(arriving: entry.bearingBefore, leaving: entry.bearingAfter)
        let total = turnAngle(arriving: entry.bearingBefore, leaving: exit.bearingAfter)
        let useTotal = abs(total) >= 20
            && (entry.meters < Self.maxCollapseMeters || (entryAngle >= -5 && exitAngle >= -5) || (entryAngle <= 5 && exitAngle <= 5))
        return useTotal ? total : entryAngle
    }

    // MARK: Steps as OSRM sees them

    func has(_ step: RouteStep, _ type: ManeuverType) -> Bool { !step.collapse.isSilent && step.type == type }

    func setType(_ type: ManeuverType, _ step: inout RouteStep) {
        step.type = type
        step.collapse.isSilent = false
    }


    /// OSRM's `bearingsAreReversed`: within 35° of straight back.
    func bearingsAreReversed(_ arriving: Double, _ leaving: Double) -> Bool {
        abs(turnAngle(arriving: arriving, leaving: leaving)) >= 145
    }

    /// The step before `i` not yet combined away (0, the departure, at the latest).
    func previousTurn(before i: Int, in steps: [RouteStep]) -> Int {
        var p = i - 1
        while p > 0 && steps[p].collapse.isGone { p -= 1 }
        return max(p, 0)
    }

    /// The step after `i` not yet combined away; `steps.count` (the arrival) when none.
    func nextTurn(after i: Int, in steps: [RouteStep]) -> Int {
        var n = i + 1
        while n < steps.count && steps[n].collapse.isGone { n += 1 }
        return n
    }

    /// OSRM's `combineRouteSteps`: step `from` is driven as part of step `at` (which takes its
    /// road's name and ref when `signage`, as `TransferSignageStrategy` does).
    func combine(_ from: Int, into at: Int, _ steps: inout [RouteStep], signage: Bool) {
        let other = steps[from]
        if signage {
            steps[at].name = other.name
            steps[at].ref = other.ref
            steps[at].rotaryName = other.rotaryName
        }
        elongate(&steps[at], by: other)
        steps[from].collapse.isGone = true
    }

    /// OSRM's `ElongateBy`: the step goes on over `other`'s road, junction and all.
    private func elongate(_ step: inout RouteStep, by other: RouteStep) {
        step.meters += other.meters
        step.seconds += other.seconds
        step.points = step.points.lowerBound..<max(step.points.upperBound, other.points.upperBound)
        let junctions = Int(step.collapse.passed) + Int(other.collapse.passed) + (other.intersectionBearings.count >= 3 ? 1 : 0)
        step.collapse.passed = UInt8(min(junctions, Int(UInt8.max)))
    }
}
