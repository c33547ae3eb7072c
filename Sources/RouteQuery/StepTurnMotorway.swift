/// OSRM's motorway handler (`motorway_handler.cpp`): at a junction of motorways (and trunks)
/// and their links only, every way out within 60° of straight on, the motorway going on needs
/// no word, leaving it is an off ramp, motorways splitting are forks, and a ramp joining is a
/// merge.
extension StepBuilder {
    /// OSRM's `isRampClass` in the motorway handler: motorway links, and from a motorway any link.
    private func isRamp(_ road: TurnRoad, fromMotorway: Bool) -> Bool {
        let c = road.classification
        return c.isRampClass || (fromMotorway && c.isLinkClass)
    }

    /// OSRM's `MotorwayHandler::canProcess`.
    func isMotorwayJunction(_ roads: UnsafeMutableBufferPointer<TurnRoad>, _ n: Int) -> Bool {
        let fromMotorway = roads[0].classification.isMotorwayClass
        var hasMotorway = false
        for i in 0..<n {
            let road = roads[i]
            if road.entryAllowed && Self.deviation(road.angle, Self.straightAngle) > 60 { return false }
            if road.classification.isMotorwayClass {
                if road.entryAllowed { hasMotorway = true }
            } else if !isRamp(road, fromMotorway: fromMotorway) {
                return false
            }
        }
        return hasMotorway || fromMotorway
    }

    /// OSRM's `MotorwayHandler::operator()`.
    func assignMotorwayInstructions(_ roads: UnsafeMutableBufferPointer<TurnRoad>, _ n: Int, node: Int) {
        if roads[0].classification.isMotorwayClass {
            fromMotorway(roads, n, node: node)
            for i in 0..<n where roads[i].instruction.kind == .onRamp { roads[i].instruction.kind = .offRamp }
        } else {
            fromRamp(roads, n, node: node)
        }
    }

    private func fromMotorway(_ roads: UnsafeMutableBufferPointer<TurnRoad>, _ n: Int, node: Int) {
        let via = roads[0]
        // The angle going on along the motorway: the same name, else the straightest motorway.
        var continueAngle = roads[0].angle
        for i in 0..<n where roads[i].entryAllowed && roads[i].angle != 0 && via.name != 0 && roads[i].name != 0
            && !nameChanges(via, roads[i]) && roads[i].classification.isMotorwayClass {
            continueAngle = roads[i].angle
            break
        }
        if continueAngle == roads[0].angle {
            var best = 180.0
            for i in 0..<n where roads[i].classification.isMotorwayClass && Self.deviation(roads[i].angle, Self.straightAngle) < best {
                best = Self.deviation(roads[i].angle, Self.straightAngle)
                continueAngle = roads[i].angle
            }
        }
        var enterable = 0, exitingMotorways = 0
        for i in 0..<n where roads[i].entryAllowed {
            enterable += 1
            if roads[i].classification.isMotorwayClass { exitingMotorways += 1 }
        }
        if continueAngle == roads[0].angle {
            // The motorway ends without an obvious way on.
            if n == 2 {
                roads[1].instruction = TurnInstruction(kind: .noTurn, modifier: ManeuverModifier(osrmAngle: roads[1].angle))
            } else if n == 3 {
                if roads[1].entryAllowed && roads[2].entryAllowed {
                    assignFork(roads, left: 2, right: 1)
                } else {
                    let i = roads[1].entryAllowed ? 1 : 2
                    roads[i].instruction = TurnInstruction(kind: .noTurn, modifier: ManeuverModifier(osrmAngle: roads[i].angle))
                }
            } else if n == 4 && roads[1].roadClass == roads[2].roadClass && roads[2].roadClass == roads[3].roadClass {
                assignFork(roads, left: 3, center: 2, right: 1)
            } else if enterable > 0 {
                motorwayFallback(roads, n)
            }
        } else if exitingMotorways == 0 {
            // Ending in ramps.
            for i in 0..<n where roads[i].entryAllowed {
                roads[i].instruction = TurnInstruction(kind: .suppressed, modifier: ManeuverModifier(osrmAngle: roads[i].angle))
            }
        } else if exitingMotorways == 1 || exitingMotorways != enterable {
            // Passing ramps, or merging onto another motorway.
            if n == 2 {
                roads[1].instruction = obviousInstruction(n, roads, 1, throughStreet: isThroughStreet(1, roads, n), node: node)
            } else {
                for i in 0..<n where roads[i].entryAllowed {
                    let road = roads[i]
                    if road.angle == continueAngle {
                        roads[i].instruction = obviousInstruction(n, roads, i, throughStreet: isThroughStreet(1, roads, n), node: node)
                    } else {
                        let kind: TurnInstruction.Kind = isRamp(road, fromMotorway: true) ? .offRamp : .turn
                        let modifier: ManeuverModifier = road.angle < continueAngle
                            ? (road.angle < 145 ? .right : .slightRight) : (road.angle > 215 ? .left : .slightLeft)
                        roads[i].instruction = TurnInstruction(kind: kind, modifier: modifier)
                    }
                }
            }
        } else if exitingMotorways == 2 || exitingMotorways == 3 {
            // Motorways splitting: a fork of the two (or three), right to left.
            var found = (-1, -1, -1), count = 0
            for i in 0..<n where count < exitingMotorways && roads[i].entryAllowed && roads[i].classification.isMotorwayClass {
                switch count {
                case 0: found.0 = i
                case 1: found.1 = i
                default: found.2 = i
                }
                count += 1
            }
            if count == 2 { assignFork(roads, left: found.1, right: found.0) }
            else { assignFork(roads, left: found.2, center: found.1, right: found.0) }
        } else {
            motorwayFallback(roads, n)
        }
    }

    private func fromRamp(_ roads: UnsafeMutableBufferPointer<TurnRoad>, _ n: Int, node: Int) {
        var enterable = 0
        for i in 0..<n where roads[i].entryAllowed { enterable += 1 }
        if n == 2 && enterable == 1 {
            roads[1].instruction = obviousInstruction(n, roads, 1, throughStreet: isThroughStreet(1, roads, n), node: node)
        } else if n == 3 {
            let sameName = !nameChanges(roads[2], roads[1])
            if enterable == 1 {
                // Merging onto a passing motorway, or passing the end of one.
                let i = roads[1].entryAllowed ? 1 : 2
                if roads[i].classification.isMotorwayClass && roads[2].name != 0 && roads[1].name != 0 && sameName {
                    let modifier: ManeuverModifier = Self.deviation(roads[i].angle, Self.straightAngle) < 2 * Self.narrowTurnAngle
                        ? (i == 1 ? .slightLeft : .slightRight) : ManeuverModifier(osrmAngle: roads[i].angle)
                    roads[i].instruction = TurnInstruction(kind: .merge, modifier: modifier)
                } else {
                    roads[i].instruction = obviousInstruction(n, roads, i, throughStreet: isThroughStreet(i, roads, n), node: node)
                }
            } else if roads[1].classification.isMotorwayClass && roads[2].classification.isMotorwayClass {
                assignFork(roads, left: 2, right: 1)
            } else if roads[1].classification.isMotorwayClass {
                // The ramp goes on past a motorway's entry.
                roads[1].instruction = TurnInstruction(kind: .turn, modifier: .slightRight)
                roads[2].instruction = TurnInstruction(kind: .continue, modifier: .slightLeft)
            } else {
                assignFork(roads, left: 2, right: 1)
            }
        } else if n == 4 {
            // On and off ramps at a passing motorway.
            var passedEntry = false
            for i in 0..<n {
                let road = roads[i]
                if !road.entryAllowed && road.classification.isMotorwayClass {
                    passedEntry = true
                } else if road.classification.isMotorwayClass {
                    roads[i].instruction = TurnInstruction(kind: .merge, modifier: passedEntry ? .slightRight : .slightLeft)
                } else {
                    roads[i].instruction = TurnInstruction(kind: .offRamp, modifier: ManeuverModifier(osrmAngle: road.angle))
                }
            }
        } else {
            motorwayFallback(roads, n)
        }
    }

    private func motorwayFallback(_ roads: UnsafeMutableBufferPointer<TurnRoad>, _ n: Int) {
        for i in 0..<n where roads[i].entryAllowed {
            let angle = roads[i].angle
            if roads[i].classification.isMotorwayClass {
                roads[i].instruction = TurnInstruction(kind: .merge, modifier: angle < Self.straightAngle ? .slightLeft : .slightRight)
            } else if Self.deviation(angle, Self.straightAngle) < Self.fuzzyAngleDifference {
                roads[i].instruction = TurnInstruction(kind: .turn, modifier: .straight)
            } else {
                roads[i].instruction = TurnInstruction(kind: .turn, modifier: angle > Self.straightAngle ? .slightLeft : .slightRight)
            }
        }
    }
}
