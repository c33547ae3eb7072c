/// OSRM's turn analysis at one junction (`TurnAnalysis::AssignTurnTypes`, without roundabouts,
/// which `StepRoundabouts` handles, and without its sliproad and driveway handlers): the
/// junction's roads with their perceived angles, the motorway handler or the turn handler, and
/// from a motorway an on ramp is an off ramp.
extension StepBuilder {
    /// The maneuver OSRM's rules give the road taken at junction j (b, after a; `junction` its
    /// latitude terms, `RoutingData.junctionLatitude`): its type,
    /// nil when nothing is said, and its direction. Nil altogether when they cannot be run
    /// (a junction of more than `maxTurnRoads` roads).
    func analyseTurn(_ j: StepJunction, from a: DrivenPiece, to b: DrivenPiece, at junction: JunctionLatitude,
                     endBearings: UnsafeBufferPointer<Double>) -> (type: ManeuverType?, modifier: ManeuverModifier)? {
        let count = endBearings.count
        guard count <= Self.maxTurnRoads else { return nil }
        return withUnsafeTemporaryAllocation(of: TurnRoad.self, capacity: count) { roads in
            withUnsafeTemporaryAllocation(of: Double.self, capacity: count + RoadShapeAhead.maxPoints) { numbers in
                withUnsafeTemporaryAllocation(of: LocalPoint.self, capacity: RoadShapeAhead.maxPoints) { points in
                    let perceived = UnsafeMutableBufferPointer(rebasing: numbers[0..<count])
                    let scratch = RoadScratch(points: points, lengths: UnsafeMutableBufferPointer(rebasing: numbers[count...]))
                    guard let n = turnRoads(node: j.node, from: a, endBearings: endBearings, into: roads, perceived: perceived,
                                            scratch: scratch, at: junction),
                          n >= 2
                    else { return nil }
                    var taken = -1
                    for i in 1..<n where roads[i].edge == b.edge && roads[i].direction == b.direction { taken = i }
                    guard taken > 0 else { return nil }
                    // OSRM's defaults before the handlers: a turn the way the angle points.
                    for i in 1..<n where roads[i].entryAllowed {
                        roads[i].instruction = TurnInstruction(kind: .turn, modifier: ManeuverModifier(osrmAngle: roads[i].angle))
                    }
                    // OSRM's suppress-mode handler: where every way is a ferry (or every one a
                    // car train), nothing is said.
                    if StepJunction.isFerry(roads[0].roadClass),
                       (0..<n).allSatisfy({ roads[$0].roadClass == roads[0].roadClass }) {
                        return (nil, roads[taken].instruction.modifier)
                    }
                    if n >= 4, isEndOfRoad(node: j.node, from: a, arriving: reversed(roads[0].initialBearing), bearings: endBearings) {
                        // A divided road's two halves, which OSRM sees as one road: an end of
                        // the road at three roads (`StepEndOfRoad`).
                        let angle = roads[taken].angle
                        return (.endOfRoad, angle < Self.straightAngle ? .right : .left)
                    }
                    if isDrivewayJunction(roads, n) {
                        assignDrivewayInstructions(roads, n)
                    } else if isMotorwayJunction(roads, n) {
                        assignMotorwayInstructions(roads, n, node: j.node)
                    } else {
                        assignTurnInstructions(roads, n, node: j.node)
                    }
                    var instruction = roads[taken].instruction
                    if roads[0].classification.isMotorwayClass && instruction.kind == .onRamp { instruction.kind = .offRamp }
                    return (Self.maneuverType(instruction.kind), instruction.modifier)
                }
            }
        }
    }

    /// OSRM's driveway handler: from a road that is no service way, with one road of its kind
    /// going on and only low-priority ways (driveways, service ways) besides.
    private func isDrivewayJunction(_ roads: UnsafeMutableBufferPointer<TurnRoad>, _ n: Int) -> Bool {
        guard n > 2, !roads[0].classification.isLowPriority else { return false }
        var low = 0
        for i in 0..<n where roads[i].classification.isLowPriority { low += 1 }
        return low + 2 == n
    }

    /// Going on along the road of its kind needs no word (or a new name); the driveways keep
    /// their plain turns, none of them said to be straight on beside the road going on.
    private func assignDrivewayInstructions(_ roads: UnsafeMutableBufferPointer<TurnRoad>, _ n: Int) {
        guard let road = (1..<n).first(where: { !roads[$0].classification.isLowPriority }),
              roads[road].instruction != .invalid else { return }
        let via = roads[0]
        let sameName = !via.isUnnamedName && !roads[road].isUnnamedName && !nameChanges(via, roads[road])
        roads[road].instruction.kind = sameName ? .noTurn : .newName
        guard roads[road].instruction.modifier == .straight else { return }
        for i in 1..<n where i != road && roads[i].instruction.modifier == .straight {
            roads[i].instruction.modifier = i < road ? .slightRight : .slightLeft
        }
    }

    @inline(__always) private func reversed(_ bearing: Double) -> Double { bearing >= 180 ? bearing - 180 : bearing + 180 }

    /// The step type of an OSRM instruction; nil for those that say nothing.
    static func maneuverType(_ kind: TurnInstruction.Kind) -> ManeuverType? {
        switch kind {
        case .invalid, .noTurn, .suppressed: return nil
        case .newName: return .newName
        case .turn: return .turn
        case .continue: return .continue
        case .merge: return .merge
        case .onRamp: return .onRamp
        case .offRamp: return .offRamp
        case .fork: return .fork
        case .endOfRoad: return .endOfRoad
        case .notification: return .notification
        }
    }
}
