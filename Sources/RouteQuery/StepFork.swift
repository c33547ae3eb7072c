/// OSRM's forks (`TurnHandler::findFork`, `IntersectionHandler::assignFork`): two or three roads
/// close to straight on and to each other, set apart from the junction's other roads, of
/// similar classes, none of them the obvious way: the driver is told which branch to keep to.
extension StepBuilder {
    /// A fork's roads: `right ... left`, two or three of them.
    struct Fork {
        let right: Int
        let left: Int
        var size: Int { left - right + 1 }
    }

    /// OSRM's `isOutermostForkCandidate`: `next` (beside `road`, further out) is no fork branch.
    private func isOutermost(_ road: TurnRoad, _ next: TurnRoad) -> Bool {
        let nextToStraight = Self.deviation(next.angle, Self.straightAngle)
        let between = Self.deviation(road.angle, next.angle)
        let roadToStraight = Self.deviation(road.angle, Self.straightAngle)
        return nextToStraight > Self.narrowTurnAngle && (between > Self.narrowTurnAngle || roadToStraight > Self.osrmGroupAngle)
    }

    /// OSRM's `findForkCandidatesByGeometry`.
    private func forkCandidates(_ roads: UnsafeMutableBufferPointer<TurnRoad>, _ n: Int) -> Fork? {
        guard n >= 3, let straightmost = closestToStraight(roads, n, excluding: { _ in false }),
              Self.deviation(roads[straightmost].angle, Self.straightAngle) <= Self.narrowTurnAngle
        else { return nil }
        // Outwards to the right (down to the road arrived on), then to the left.
        var right = 0
        for i in stride(from: straightmost, to: 0, by: -1) where isOutermost(roads[i], roads[i - 1]) { right = i; break }
        var left = n - 1
        for i in straightmost..<(n - 1) where isOutermost(roads[i], roads[i + 1]) { left = i; break }
        guard right >= 1, right < left, left - right < 3 else { return nil }
        return Fork(right: right, left: left)
    }

    /// OSRM's `isObviousOfTwo`: `road` is clearly the way on next to `other`.
    private func isObviousOfTwo(_ via: TurnRoad, _ road: TurnRoad, _ other: TurnRoad) -> Bool {
        let viaClass = via.classification, roadClass = road.classification, otherClass = other.classification
        if RoadClassification.obviousByRoadClass(from: viaClass, roadClass, over: otherClass) { return true }
        if RoadClassification.obviousByRoadClass(from: viaClass, otherClass, over: roadClass) { return false }
        let roadDeviation = Self.deviation(road.angle, Self.straightAngle)
        if via.name != 0 && roadDeviation < Double.ulpOfOne && !nameChanges(via, road) { return true }
        let otherDeviation = Self.deviation(other.angle, Self.straightAngle)
        return otherDeviation / roadDeviation > 1.4 && abs(otherDeviation - roadDeviation) > Self.fuzzyAngleDifference
    }

    /// OSRM's `findFork`.
    func findFork(_ roads: UnsafeMutableBufferPointer<TurnRoad>, _ n: Int) -> Fork? {
        guard let fork = forkCandidates(roads, n) else { return nil }
        let next = fork.left + 1 == n ? 0 : fork.left + 1
        guard Self.deviation(roads[fork.left].angle, roads[next].angle) >= Self.osrmGroupAngle,
              Self.deviation(roads[fork.right].angle, roads[fork.right - 1].angle) >= Self.osrmGroupAngle
        else { return nil }
        let via = roads[0]
        for i in fork.right..<fork.left where isObviousOfTwo(via, roads[i], roads[i + 1]) || isObviousOfTwo(via, roads[i + 1], roads[i]) {
            return nil
        }
        // Classes: links only with links, and none obvious over another by class.
        let rightIsLink = roads[fork.right].classification.isLinkClass
        for i in (fork.right + 1)...fork.left where roads[i].classification.isLinkClass != rightIsLink { return nil }
        let viaClass = via.classification
        for i in fork.right...fork.left {
            for k in fork.right...fork.left where k != i {
                if RoadClassification.obviousByRoadClass(from: viaClass, roads[i].classification, over: roads[k].classification) { return nil }
            }
        }
        for i in fork.right...fork.left where !roads[i].entryAllowed || StepJunction.isFerry(roads[i].roadClass) != StepJunction.isFerry(via.roadClass) {
            return nil
        }
        return fork
    }

    /// OSRM's `requiresAnnouncement` between the road arrived on and another: anything that
    /// would keep the two from being one road.
    func requiresAnnouncement(_ via: TurnRoad, _ road: TurnRoad) -> Bool {
        via.name != road.name || via.ref != road.ref || via.roadClass != road.roadClass
    }

    private func suppressedKind(_ via: TurnRoad, _ road: TurnRoad) -> TurnInstruction.Kind {
        StepJunction.isFerry(via.roadClass) == StepJunction.isFerry(road.roadClass) ? .suppressed : .notification
    }

    /// OSRM's `assignFork` of two roads: each a fork branch, but a low-priority road beside a
    /// road that is not makes that one the way on and itself a slight turn.
    func assignFork(_ roads: UnsafeMutableBufferPointer<TurnRoad>, left: Int, right: Int) {
        let via = roads[0]
        let lowLeft = roads[left].classification.isLowPriority, lowRight = roads[right].classification.isLowPriority
        if lowRight && !lowLeft {
            roads[left].instruction = TurnInstruction(kind: suppressedKind(via, roads[left]), modifier: .slightLeft)
        } else {
            roads[left].instruction = TurnInstruction(kind: lowLeft && !lowRight ? .turn : .fork, modifier: .slightLeft)
        }
        if lowLeft && !lowRight {
            roads[right].instruction = TurnInstruction(kind: suppressedKind(via, roads[right]), modifier: .slightRight)
        } else {
            roads[right].instruction = TurnInstruction(kind: lowRight && !lowLeft ? .turn : .fork, modifier: .slightRight)
        }
    }

    /// OSRM's `assignFork` of three roads.
    func assignFork(_ roads: UnsafeMutableBufferPointer<TurnRoad>, left: Int, center: Int, right: Int) {
        let via = roads[0]
        let l = roads[left].entryAllowed, c = roads[center].entryAllowed, r = roads[right].entryAllowed
        if l && c && r {
            roads[left].instruction = TurnInstruction(kind: .fork, modifier: .slightLeft)
            if Self.deviation(roads[center].angle, 180) < Self.maximalAllowedNoTurnDeviation && !requiresAnnouncement(via, roads[center]) {
                roads[center].instruction = TurnInstruction(kind: suppressedKind(via, roads[center]), modifier: .straight)
            } else {
                roads[center].instruction = TurnInstruction(kind: .fork, modifier: .straight)
            }
            roads[right].instruction = TurnInstruction(kind: .fork, modifier: .slightRight)
        } else if l {
            if r { assignFork(roads, left: left, right: right) }
            else if c { assignFork(roads, left: left, right: center) }
            else { roads[left].instruction = trivialInstruction(via, roads[left]) }
        } else if r {
            if c { assignFork(roads, left: center, right: right) }
            else { roads[right].instruction = trivialInstruction(via, roads[right]) }
        } else if c {
            roads[center].instruction = trivialInstruction(via, roads[center])
        }
    }

    /// OSRM's plain instruction for a road: its basic type, the direction of its angle.
    func trivialInstruction(_ via: TurnRoad, _ road: TurnRoad) -> TurnInstruction {
        TurnInstruction(kind: basicTurnType(via, road), modifier: ManeuverModifier(osrmAngle: road.angle))
    }

    /// OSRM's `findBasicTurnType`: onto a motorway link from elsewhere an on ramp, on with the
    /// name a continue, else a turn.
    func basicTurnType(_ via: TurnRoad, _ road: TurnRoad) -> TurnInstruction.Kind {
        if !via.classification.isRampClass && road.classification.isRampClass { return .onRamp }
        if via.name != 0 && road.name != 0 && !nameChanges(via, road) { return .continue }
        return .turn
    }
}
