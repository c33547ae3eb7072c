import TileMath

/// OSRM's turn handler (`turn_handler.cpp`, `IntersectionHandler::getInstructionForObvious`):
/// the instruction for every road at a junction that is no roundabout and no motorway
/// junction. The obvious road (`findObviousTurn`) needs no word, or a new name; forks and ends
/// of the road are told as such; the other roads are turns, whose directions are kept apart
/// when two would say the same.
extension StepBuilder {
    /// Two straight roads this far apart let an obvious turn onto a new name say `straight`.
    static let maxCollapseDistance = 30.0

    /// OSRM's `isThroughStreet`: the road at `index` goes on across the junction, the same name
    /// and class nearly opposite it.
    func isThroughStreet(_ index: Int, _ roads: UnsafeMutableBufferPointer<TurnRoad>, _ n: Int) -> Bool {
        let road = roads[index]
        guard !road.isUnnamed else { return false }
        for i in 1..<n where i != index {
            if Self.deviation(roads[i].angle, road.angle) > Self.straightAngle - Self.fuzzyAngleDifference
                && roads[i].name == road.name && roads[i].ref == road.ref && roads[i].roadClass == road.roadClass {
                return true
            }
        }
        return false
    }

    /// OSRM's `getInstructionForObvious`.
    func obviousInstruction(_ roadCount: Int, _ roads: UnsafeMutableBufferPointer<TurnRoad>, _ index: Int, throughStreet: Bool,
                            node: Int) -> TurnInstruction {
        let via = roads[0], road = roads[index]
        let type = basicTurnType(via, road)
        let direction = ManeuverModifier(osrmAngle: road.angle)
        if type == .onRamp { return TurnInstruction(kind: .onRamp, modifier: direction) }
        if Self.deviation(road.angle, 0) < 0.01 { return TurnInstruction(kind: .continue, modifier: .uturn) }
        let notification = StepJunction.isFerry(via.roadClass) != StepJunction.isFerry(road.roadClass)
        if type == .turn {
            if nameChanges(via, road) {
                if throughStreet {
                    if road.classification.isMotorwayClass {
                        return TurnInstruction(kind: .merge, modifier: road.angle > Self.straightAngle ? .slightRight : .slightLeft)
                    }
                    if via.classification.isRampClass && road.classification.isRampClass {
                        return TurnInstruction(kind: notification ? .notification : .suppressed, modifier: direction)
                    }
                    // Nearly straight onto a road that goes on a while: straight.
                    let far = data.shapes.point(road.edge, data.shapes.count(road.edge) - 1, direction: road.direction)
                    let here = data.shapes.point(road.edge, 0, direction: road.direction)
                    let meters = haversineMeters(GeoPoint(lon: Double(here.lonE7) / 1e7, lat: Double(here.latE7) / 1e7),
                                                GeoPoint(lon: Double(far.lonE7) / 1e7, lat: Double(far.latE7) / 1e7))
                    let straight = Self.deviation(road.angle, Self.straightAngle) < Self.narrowTurnAngle && meters > 2 * Self.maxCollapseDistance
                    return TurnInstruction(kind: .turn, modifier: straight ? .straight : direction)
                }
                return TurnInstruction(kind: notification ? .notification : .newName, modifier: direction)
            }
            return TurnInstruction(kind: notification ? .notification : (roadCount == 2 ? .noTurn : .suppressed), modifier: direction)
        }
        if notification { return TurnInstruction(kind: .notification, modifier: direction) }
        return TurnInstruction(kind: roadCount > 2 ? .suppressed : .noTurn, modifier: direction)
    }

    /// OSRM's `TurnHandler::operator()` for a junction of `n` roads (more than one).
    func assignTurnInstructions(_ roads: UnsafeMutableBufferPointer<TurnRoad>, _ n: Int, node: Int) {
        let via = roads[0]
        if n == 2 {
            roads[1].instruction = obviousInstruction(2, roads, 1, throughStreet: false, node: node)
            return
        }
        let obvious = findObviousTurn(roads, n)
        if n == 3 {
            handleThreeWayTurn(roads, obvious: obvious, node: node)
            return
        }
        let fork = findFork(roads, n)
        guard let straightmost = closestToStraight(roads, n, excluding: { _ in false }) else { return }
        if let o = obvious {
            roads[o].instruction = obviousInstruction(n, roads, o, throughStreet: isThroughStreet(o, roads, n), node: node)
            assignLeftTurns(roads, n, from: o)
            assignRightTurns(roads, n, upTo: o)
        } else if let fork {
            if fork.size == 2 {
                let l = roads[fork.left].classification, r = roads[fork.right].classification
                if RoadClassification.canBeSeenAsFork(l, r) {
                    assignFork(roads, left: fork.left, right: fork.right)
                } else if l.priority > r.priority {
                    roads[fork.right].instruction = obviousInstruction(n, roads, fork.right, throughStreet: false, node: node)
                    roads[fork.left].instruction = TurnInstruction(kind: basicTurnType(via, roads[fork.left]), modifier: .slightLeft)
                } else {
                    roads[fork.left].instruction = obviousInstruction(n, roads, fork.left, throughStreet: false, node: node)
                    roads[fork.right].instruction = TurnInstruction(kind: basicTurnType(via, roads[fork.right]), modifier: .slightRight)
                }
            } else {
                assignFork(roads, left: fork.left, center: fork.right + 1, right: fork.right)
            }
            assignLeftTurns(roads, n, from: fork.left)
            assignRightTurns(roads, n, upTo: fork.right)
        } else if Self.deviation(roads[straightmost].angle, Self.straightAngle) < Self.fuzzyAngleDifference && !roads[straightmost].entryAllowed {
            assignLeftTurns(roads, n, from: straightmost)
            assignRightTurns(roads, n, upTo: straightmost)
        } else if roads[straightmost].angle > 180 {
            assignLeftTurns(roads, n, from: straightmost - 1)
            assignRightTurns(roads, n, upTo: straightmost)
        } else if roads[straightmost].angle < 180 {
            assignLeftTurns(roads, n, from: straightmost)
            assignRightTurns(roads, n, upTo: straightmost + 1)
        } else {
            for i in 1..<n where roads[i].entryAllowed { roads[i].instruction = trivialInstruction(via, roads[i]) }
        }
    }

    /// OSRM's end of the road at three roads: the other two go right and left, each within a
    /// narrow turn of a right angle and far apart.
    private func isEndOfRoad(_ right: TurnRoad, _ left: TurnRoad) -> Bool {
        Self.deviation(right.angle, 90) < Self.narrowTurnAngle && Self.deviation(left.angle, 270) < Self.narrowTurnAngle
            && Self.deviation(right.angle, left.angle) > 2 * Self.narrowTurnAngle
    }

    /// OSRM's `handleThreeWayTurn`.
    private func handleThreeWayTurn(_ roads: UnsafeMutableBufferPointer<TurnRoad>, obvious: Int?, node: Int) {
        let via = roads[0]
        var allLinks = true
        for i in 0..<3 where !roads[i].classification.isLinkClass { allLinks = false }
        if let fork = findFork(roads, 3), allLinks || obvious == nil {
            assignFork(roads, left: fork.left, right: fork.right)
        } else if isEndOfRoad(roads[1], roads[2]) && obvious == nil {
            for i in 1...2 where roads[i].entryAllowed {
                let kind: TurnInstruction.Kind = basicTurnType(via, roads[i]) == .onRamp ? .onRamp : .endOfRoad
                roads[i].instruction = TurnInstruction(kind: kind, modifier: i == 1 ? .right : .left)
            }
        } else if let o = obvious {
            let one = ManeuverModifier(osrmAngle: roads[1].angle), two = ManeuverModifier(osrmAngle: roads[2].angle)
            let other = o == 1 ? 2 : 1
            roads[o].instruction = obviousInstruction(3, roads, o, throughStreet: isThroughStreet(o, roads, 3), node: node)
            var direction = o == 1 ? two : one
            if one == two && one == .straight { direction = o == 1 ? .slightLeft : .slightRight }
            roads[other].instruction = TurnInstruction(kind: basicTurnType(via, roads[other]), modifier: direction)
        } else {
            roads[1].instruction = trivialInstruction(via, roads[1])
            roads[2].instruction = trivialInstruction(via, roads[2])
        }
    }

    /// OSRM's `assignLeftTurns`: the right-turn rules on the mirrored junction, for the roads
    /// after `from`.
    private func assignLeftTurns(_ roads: UnsafeMutableBufferPointer<TurnRoad>, _ n: Int, from: Int) {
        func mirror() {
            for i in 0..<n { roads[i].mirror() }
            var i = 1, k = n - 1
            while i < k { roads.swapAt(i, k); i += 1; k -= 1 }
        }
        mirror()
        assignRightTurns(roads, n, upTo: n - from)
        mirror()
    }

    /// OSRM's `assignRightTurns`: the roads 1 ..< `upTo` (at most three of them).
    private func assignRightTurns(_ roads: UnsafeMutableBufferPointer<TurnRoad>, _ n: Int, upTo: Int) {
        let via = roads[0]
        var valid = 0
        if upTo > 1 { for i in 1..<upTo where roads[i].entryAllowed { valid += 1 } }
        guard upTo > 1, valid > 0 else { return }
        func trivial(_ range: Range<Int>) { for i in range where roads[i].entryAllowed { roads[i].instruction = trivialInstruction(via, roads[i]) } }
        if upTo == 2 {
            trivial(1..<2)
        } else if upTo == 3 {
            if ManeuverModifier(osrmAngle: roads[1].angle) == ManeuverModifier(osrmAngle: roads[2].angle) {
                handleDistinctConflict(roads, left: 2, right: 1)
            } else {
                trivial(1..<3)
            }
        } else if upTo == 4 {
            let first = ManeuverModifier(osrmAngle: roads[1].angle), second = ManeuverModifier(osrmAngle: roads[2].angle)
            let third = ManeuverModifier(osrmAngle: roads[3].angle)
            if first != second && second != third {
                trivial(1..<4)
            } else if valid <= 2 {
                if !roads[3].entryAllowed { handleDistinctConflict(roads, left: 2, right: 1) }
                else if !roads[1].entryAllowed { handleDistinctConflict(roads, left: 3, right: 2) }
                else { handleDistinctConflict(roads, left: 3, right: 1) }
            } else if Self.deviation(roads[1].angle, roads[2].angle) >= Self.narrowTurnAngle
                        && Self.deviation(roads[2].angle, roads[3].angle) >= Self.narrowTurnAngle {
                roads[1].instruction = TurnInstruction(kind: basicTurnType(via, roads[1]), modifier: .sharpRight)
                roads[2].instruction = TurnInstruction(kind: basicTurnType(via, roads[2]), modifier: .right)
                roads[3].instruction = TurnInstruction(kind: basicTurnType(via, roads[3]), modifier: .slightRight)
            } else if (first == second && second == third)
                        || (first == second && Self.deviation(roads[2].angle, roads[3].angle) < Self.osrmGroupAngle)
                        || (second == third && Self.deviation(roads[1].angle, roads[2].angle) < Self.osrmGroupAngle) {
                trivial(1..<upTo)
            } else if (first == second && Self.deviation(roads[2].angle, roads[3].angle) >= Self.osrmGroupAngle)
                        || (second == third && Self.deviation(roads[1].angle, roads[2].angle) >= Self.osrmGroupAngle) {
                if Self.deviation(roads[2].angle, roads[3].angle) >= Self.osrmGroupAngle {
                    handleDistinctConflict(roads, left: 2, right: 1)
                    roads[3].instruction = TurnInstruction(kind: basicTurnType(via, roads[3]), modifier: third)
                } else {
                    roads[1].instruction = TurnInstruction(kind: basicTurnType(via, roads[1]), modifier: first)
                    handleDistinctConflict(roads, left: 3, right: 2)
                }
            } else {
                trivial(1..<upTo)
            }
        } else {
            trivial(1..<upTo)
        }
    }

    /// OSRM's `handleDistinctConflict`: two roads whose angles say the same direction get
    /// different ones.
    private func handleDistinctConflict(_ roads: UnsafeMutableBufferPointer<TurnRoad>, left: Int, right: Int) {
        let via = roads[0]
        let l = roads[left], r = roads[right]
        if !l.entryAllowed || !r.entryAllowed || l.angle == r.angle {
            if l.entryAllowed { roads[left].instruction = trivialInstruction(via, l) }
            if r.entryAllowed { roads[right].instruction = trivialInstruction(via, r) }
            return
        }
        let leftDirection = ManeuverModifier(osrmAngle: l.angle), rightDirection = ManeuverModifier(osrmAngle: r.angle)
        if leftDirection == .straight || leftDirection == .slightLeft || rightDirection == .slightRight {
            if l.classification.priority > r.classification.priority {
                roads[right].instruction = obviousInstruction(4, roads, right, throughStreet: false, node: -1)
                roads[left].instruction = TurnInstruction(kind: basicTurnType(via, l), modifier: .slightLeft)
            } else {
                roads[left].instruction = obviousInstruction(4, roads, left, throughStreet: false, node: -1)
                roads[right].instruction = TurnInstruction(kind: basicTurnType(via, r), modifier: .slightRight)
            }
            return
        }
        let leftType = basicTurnType(via, l), rightType = basicTurnType(via, r)
        func set(_ lm: ManeuverModifier, _ rm: ManeuverModifier) {
            roads[left].instruction = TurnInstruction(kind: leftType, modifier: lm)
            roads[right].instruction = TurnInstruction(kind: rightType, modifier: rm)
        }
        let slack = Self.maximalAllowedNoTurnDeviation
        if Self.deviation(l.angle, 90) < slack { set(.right, .sharpRight) }
        else if Self.deviation(r.angle, 90) < slack { set(.slightRight, .right) }
        else if Self.deviation(l.angle, 270) < slack { set(.left, .slightLeft) }
        else if Self.deviation(r.angle, 270) < slack { set(.sharpLeft, .left) }
        else if leftDirection == .sharpLeft { set(.sharpLeft, .left) }
        else if rightDirection == .sharpRight { set(.right, .sharpRight) }
        // (OSRM then tests the left road's direction enum against 180, which always holds:
        // the two are told apart as right turns.)
        else if Self.deviation(l.angle, 85) >= Self.deviation(r.angle, 85) { set(.slightRight, .right) }
        else { set(.right, .sharpRight) }
    }
}
