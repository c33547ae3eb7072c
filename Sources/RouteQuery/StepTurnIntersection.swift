import RoutingGraph
import RoutingTiles

/// What OSRM's guidance says at one road of a junction (`TurnInstruction`): the step's type, or
/// that nothing is said (`noTurn`, `suppressed`), and its direction.
struct TurnInstruction: Equatable {
    enum Kind { case invalid, noTurn, suppressed, newName, turn, `continue`, merge, onRamp, offRamp, fork, endOfRoad, notification }
    var kind: Kind
    var modifier: ManeuverModifier

    static let invalid = TurnInstruction(kind: .invalid, modifier: .uturn)
}

/// One road at a junction as OSRM's turn rules see it (`ConnectedRoad`): its angle from the road
/// arrived on in OSRM's terms (0 back, 180 straight on, below 180 to the right), measured on
/// the roads' perceived bearings (`RoadShapeAhead`), whether it may be driven out of the
/// junction, and what it is.
struct TurnRoad {
    var angle: Double
    /// Perceived and first-segment bearings leaving the junction.
    var bearing: Double
    var initialBearing: Double
    var entryAllowed: Bool
    var edge: Int
    var direction: Int
    var name: UInt32
    var ref: UInt32
    var roadClass: UInt8
    var roundabout: Bool
    var instruction = TurnInstruction.invalid

    var classification: RoadClassification { RoadClassification(roadClass) }
    /// Neither name nor ref (OSRM's empty name id).
    var isUnnamed: Bool { name == 0 && ref == 0 }
    /// No name (OSRM's test of the name string alone).
    var isUnnamedName: Bool { name == 0 }

    /// Swaps left and right (OSRM's `mirror`), so rules for right turns serve left ones.
    mutating func mirror() {
        angle = angle == 0 ? 0 : 360 - angle
        instruction.modifier = instruction.modifier.mirrored
    }
}

/// OSRM's `RoadClassification` of a graph road class (its car profile's `guidance.lua` mapping).
struct RoadClassification: Equatable {
    /// `RoadPriorityClass`: 0 motorway … 9 tertiary link, 10 residential, 11 living street,
    /// 12 service (alley), 15 unclassified, 31 anything else.
    let priority: UInt8
    let isMotorwayClass: Bool   // motorway and trunk, not their links
    let isRampClass: Bool       // their links
    let isLinkClass: Bool
    let isLowPriority: Bool

    init(_ c: UInt8) {
        switch c {
        case 0...9: priority = c
        case 10: priority = 15
        case 11: priority = 10
        case 12: priority = 11
        case 13: priority = 12
        default: priority = 31
        }
        isLinkClass = StepJunction.isLink(c)
        isMotorwayClass = StepJunction.isHighway(c)
        isRampClass = c == 1 || c == 3
        isLowPriority = RoadShapeAhead.isLowPriority(roadClass: c)
    }

    /// OSRM's `getRoadGroup`.
    var group: UInt8 {
        switch priority {
        case 0, 1: return 0
        case 2, 3: return 1
        case 4...9: return 2
        case 10...13: return 3
        case 14, 15: return 4
        case 16: return 5
        case 18: return 6
        default: return 7
        }
    }

    /// OSRM's `strictlyLess`: a lower general category of road.
    func strictlyLess(than other: RoadClassification) -> Bool {
        if !isLowPriority && other.isLowPriority { return false }
        if isLowPriority && !other.isLowPriority { return true }
        return group > other.group
    }

    /// OSRM's `isLinkTo`: the link road of `road`'s class.
    func isLink(to road: RoadClassification) -> Bool {
        guard isLinkClass, !road.isLinkClass, priority <= 9 else { return false }
        return road.priority == priority - 1
    }

    /// OSRM's `canBeSeenAsFork`.
    static func canBeSeenAsFork(_ a: RoadClassification, _ b: RoadClassification) -> Bool {
        abs(Int(a.priority) - Int(b.priority)) <= 1
    }

    /// OSRM's `obviousByRoadClass`: `candidate` is the obvious way next to `other` by class alone.
    static func obviousByRoadClass(from incoming: RoadClassification, _ candidate: RoadClassification, over other: RoadClassification) -> Bool {
        let higherPriority = 1.75 * Double(candidate.priority) < Double(other.priority)
        return (higherPriority && incoming == candidate) || (!candidate.isLowPriority && !incoming.isLowPriority && other.isLowPriority)
    }
}

extension ManeuverModifier {
    /// OSRM's `getTurnDirection` of one of its angles (180 straight on, below it right).
    init(osrmAngle a: Double) {
        switch a {
        case let a where a > 0 && a < 60: self = .sharpRight
        case 60..<140: self = .right
        case 140..<160: self = .slightRight
        case 160...200: self = .straight
        case let a where a > 200 && a <= 220: self = .slightLeft
        case let a where a > 220 && a <= 300: self = .left
        case let a where a > 300 && a < 360: self = .sharpLeft
        default: self = .uturn
        }
    }

    var mirrored: ManeuverModifier {
        switch self {
        case .uturn: return .uturn
        case .sharpRight: return .sharpLeft
        case .right: return .left
        case .slightRight: return .slightLeft
        case .straight: return .straight
        case .slightLeft: return .slightRight
        case .left: return .right
        case .sharpLeft: return .sharpRight
        }
    }
}

extension StepBuilder {
    /// The most roads at a junction the OSRM rules are run for (beyond, the plain rules decide).
    static let maxTurnRoads = 16

    /// Fills `roads` with the junction's roads in OSRM's order (the road arrived on first, at
    /// angle 0, then counter-clockwise: sharpest right first) and returns how many, or nil when
    /// the junction is beyond `maxTurnRoads`. `endBearings[k]` is the first-segment bearing of
    /// the node's k-th road end; `perceived` scratch of one per end.
    func turnRoads(node: Int, from a: DrivenPiece, endBearings: UnsafeBufferPointer<Double>, into roads: UnsafeMutableBufferPointer<TurnRoad>,
                   perceived: UnsafeMutableBufferPointer<Double>, scratch: RoadScratch, at junction: JunctionLatitude) -> Int? {
        let first = data.ends(of: node).lowerBound, count = endBearings.count
        guard count <= Self.maxTurnRoads, count <= roads.count else { return nil }
        var inEnd = -1
        for k in 0..<count {
            let ed = Int(data.nodeEnds[first + k]), e = ed >> 1, d = ed & 1
            perceived[k] = count >= 3 ? perceivedBearing(e, d, initial: endBearings[k], junction: junction, scratch: scratch) : endBearings[k]
            if e == a.edge && d != a.direction && inEnd < 0 { inEnd = k }
        }
        guard inEnd >= 0 else { return nil }
        let incoming = perceived[inEnd] >= 180 ? perceived[inEnd] - 180 : perceived[inEnd] + 180
        let initialIncoming = endBearings[inEnd] >= 180 ? endBearings[inEnd] - 180 : endBearings[inEnd] + 180
        var n = 0
        for k in 0..<count {
            let ed = Int(data.nodeEnds[first + k]), e = ed >> 1, d = ed & 1
            let record = data.edges[e]
            var angle = k == inEnd ? 0 : (incoming - perceived[k] + 540).truncatingRemainder(dividingBy: 360)
            if k != inEnd {
                // OSRM's guard against noise in the perceived bearing: a road nearly back the
                // way it came whose first segment lies on the other side is a U-turn.
                let initialAngle = (initialIncoming - endBearings[k] + 540).truncatingRemainder(dividingBy: 360)
                if (angle < 15 && initialAngle > 180) || (angle > 345 && initialAngle < 180) { angle = 0 }
            }
            roads[n] = TurnRoad(angle: angle, bearing: perceived[k], initialBearing: endBearings[k],
                                entryAllowed: k != inEnd && data.edgeDirectionRank[ed] != UInt32.max,
                                edge: e, direction: d, name: record.name, ref: record.ref, roadClass: record.roadClass,
                                roundabout: record.flags & EdgeFlags.roundabout != 0)
            n += 1
        }
        // The road arrived on first, the others in the order of their angles at the junction
        // itself (OSRM keeps the mapped order: a perceived angle may not swap two roads), by
        // insertion (a handful).
        if inEnd != 0 { roads.swapAt(0, inEnd) }
        @inline(__always) func key(_ road: TurnRoad) -> Double {
            let initial = (initialIncoming - road.initialBearing + 540).truncatingRemainder(dividingBy: 360)
            if abs(initial) < Double.ulpOfOne { return road.angle > 180 ? 360 : 0 }
            if (road.angle > 270 && initial < 90) || (road.angle < 90 && initial > 270) { return road.angle }
            return initial
        }
        if n > 2 {
            for i in 2..<n {
                let road = roads[i], k = key(road)
                var j = i
                while j > 1 && (key(roads[j - 1]) > k || (key(roads[j - 1]) == k && roads[j - 1].angle > road.angle)) {
                    roads[j] = roads[j - 1]
                    j -= 1
                }
                roads[j] = road
            }
            // A perceived angle out of that order is set just past the one before it.
            for i in 2..<n where roads[i].angle < roads[i - 1].angle {
                roads[i].angle = roads[i - 1].angle + min(0.5, (360 - roads[i - 1].angle) / 2)
            }
        }
        return n
    }
}
