/// OSRM's maneuver vocabulary.
public enum ManeuverType: String {
    case depart, arrive, turn, newName = "new name", `continue`, merge, onRamp = "on ramp", offRamp = "off ramp"
    case fork, endOfRoad = "end of road", roundabout, exitRoundabout = "exit roundabout"
    /// A large named roundabout (OSRM's rotary: one name of its own, no road at it of that name,
    /// a radius over 15 m), entered and left.
    case rotary, exitRotary = "exit rotary"
    /// A small roundabout taken as one turn (OSRM's roundabout intersection): the turn it amounts
    /// to and the exit, with no exit step after it.
    case roundaboutTurn = "roundabout turn"
    /// Only the mode of travel changes (onto or off a ferry or a car train).
    case notification

    /// Entering a roundabout of any kind (the step that counts exits), as OSRM's `entersRoundabout`.
    public var entersRoundabout: Bool { self == .roundabout || self == .rotary || self == .roundaboutTurn }
    /// Entering a roundabout or rotary that an exit step of its own leaves (not a roundabout
    /// turn, which takes its exit in: it is said as a turn onto the road it leads to).
    public var hasExitStep: Bool { self == .roundabout || self == .rotary }
    /// Leaving one.
    public var exitsRoundabout: Bool { self == .exitRoundabout || self == .exitRotary }
    /// Entering or leaving a roundabout or rotary (steps the collapse leaves alone).
    public var isRoundabout: Bool { entersRoundabout || exitsRoundabout }
}

public enum ManeuverModifier: String {
    case uturn, sharpRight = "sharp right", right, slightRight = "slight right", straight
    case slightLeft = "slight left", left, sharpLeft = "sharp left"

    /// From a turn angle: 0 straight, positive to the right, ±180 back. OSRM's bands
    /// (`getTurnDirection`, on its angle 180 − this): straight up to 20°, slight to 40°, plain
    /// to 120°, sharp beyond, a U-turn only straight back (within half a degree).
    public init(angle: Double) {
        let a = abs(angle)
        switch a {
        case ...20: self = .straight
        case ...40: self = angle > 0 ? .slightRight : .slightLeft
        case ...120: self = angle > 0 ? .right : .left
        case ..<179.5: self = angle > 0 ? .sharpRight : .sharpLeft
        default: self = .uturn
        }
    }
}

/// A turn angle in −180…180 from the arriving and leaving bearings (positive: right).
@inline(__always) func turnAngle(arriving: Double, leaving: Double) -> Double {
    var a = leaving - arriving
    // Below 360 either way (bearings lie in 0 ..< 360) the remainder is `a` itself: no libm call.
    if !(abs(a) < 360) { a = a.truncatingRemainder(dividingBy: 360) }
    if a > 180 { a -= 360 }
    if a <= -180 { a += 360 }
    return a
}
