/// What the car profile makes of a drivable way.
public struct WayAttributes: Equatable, Sendable {
    public var roadClass: RoadClass
    /// km/h along the way's node order; 0 when that direction is not drivable.
    public var speedKmh: Double
    /// km/h against the way's node order; 0 when that direction is not drivable.
    public var speedBackwardKmh: Double
    /// Drivable along the node order.
    public var forward: Bool
    /// Drivable against the node order.
    public var backward: Bool
    /// `junction=roundabout` or `junction=circular`.
    public var isRoundabout: Bool
    /// `name=*`, or "".
    public var name: String
    /// `ref=*`, or "".
    public var ref: String

    public init(roadClass: RoadClass, speedKmh: Double, speedBackwardKmh: Double, forward: Bool, backward: Bool,
                isRoundabout: Bool, name: String, ref: String) {
        self.roadClass = roadClass
        self.speedKmh = speedKmh
        self.speedBackwardKmh = speedBackwardKmh
        self.forward = forward
        self.backward = backward
        self.isRoundabout = isRoundabout
        self.name = name
        self.ref = ref
    }
}

extension CarProfile {
    /// Cheap pre-filter before building a tag dictionary: whether ways with this `highway=*`
    /// value can be drivable at all (the value names a class with a speed in this profile).
    @inline(__always)
    public func mightBeDrivable(highwayValue: String) -> Bool {
        guard let roadClass = RoadClass(highway: highwayValue) else { return false }
        return classSpeedsKmh[Int(roadClass.rawValue)] > 0
    }

    /// The way's attributes for cars, or nil when cars cannot use it. Rules, in order:
    ///
    /// 1. `highway=*` must be a class of `highwaySpeedsKmh`; `area=yes` excludes the way.
    /// 2. Access: the most specific of `motorcar`, `motor_vehicle`, `vehicle`, `access` that is
    ///    present decides; a value in `deniedAccessValues` (default no, private, …) excludes the
    ///    way, any other value allows it. So `access=no` + `motorcar=yes` is drivable and
    ///    `access=yes` + `motor_vehicle=private` is not.
    /// 3. Direction: the most specific of `oneway:motorcar`, `oneway:motor_vehicle`,
    ///    `oneway:vehicle`, `oneway` decides: yes/1/true → forward only; -1/reverse → backward
    ///    only; no/false/0 → both ways; reversible/alternating → excluded (time-dependent, cannot
    ///    be routed safely); absent or other values → implied: motorway, motorway_link and
    ///    `junction=roundabout`/`circular` are one-way forward, everything else two-way.
    /// 4. Speed per direction: `maxspeed:forward` / `maxspeed:backward` when numeric, else
    ///    `maxspeed` when numeric (see `Maxspeed.kmh`), times `maxspeedFactor`; otherwise the
    ///    class speed. (Like OSRM: the tagged limit replaces the class speed; OSRM scales it by
    ///    its `speed_reduction` 0.8, here `maxspeedFactor`, 1 by default.)
    public func evaluateWay(tags: [String: String]) -> WayAttributes? {
        // One pass over the tags instead of ~16 hashed lookups: ways carry few tags, and
        // comparing short keys is cheaper than hashing them.
        var t = WayTags()
        for (key, value) in tags { t.take(key, value) }

        guard let highway = t.highway, let roadClass = RoadClass(highway: highway) else { return nil }
        let classSpeed = classSpeedsKmh[Int(roadClass.rawValue)]
        guard classSpeed > 0 else { return nil }
        if t.area == "yes" { return nil }
        if let access = t.motorcar ?? t.motorVehicle ?? t.vehicle ?? t.access,
           settings.deniedAccessValues.contains(access) { return nil }

        let isRoundabout = t.junction == "roundabout" || t.junction == "circular"
        var forward = true, backward = true
        switch t.onewayMotorcar ?? t.onewayMotorVehicle ?? t.onewayVehicle ?? t.oneway {
        case "yes", "1", "true":
            backward = false
        case "-1", "reverse":
            forward = false
        case "no", "false", "0":
            break
        case "reversible", "alternating":
            return nil
        default:
            if isRoundabout || roadClass == .motorway || roadClass == .motorwayLink { backward = false }
        }

        let both = t.maxspeed.flatMap(Maxspeed.kmh)
        let forwardLimit = t.maxspeedForward.flatMap(Maxspeed.kmh) ?? both
        let backwardLimit = t.maxspeedBackward.flatMap(Maxspeed.kmh) ?? both
        let factor = settings.maxspeedFactor
        return WayAttributes(roadClass: roadClass,
                             speedKmh: forward ? forwardLimit.map { $0 * factor } ?? classSpeed : 0,
                             speedBackwardKmh: backward ? backwardLimit.map { $0 * factor } ?? classSpeed : 0,
                             forward: forward, backward: backward, isRoundabout: isRoundabout,
                             name: t.name ?? "", ref: t.ref ?? "")
    }
}

/// The tags `evaluateWay` reads, picked out of a way's tags in one pass.
private struct WayTags {
    var highway, area, junction, name, ref: String?
    var access, vehicle, motorVehicle, motorcar: String?
    var oneway, onewayVehicle, onewayMotorVehicle, onewayMotorcar: String?
    var maxspeed, maxspeedForward, maxspeedBackward: String?

    @inline(__always) mutating func take(_ key: String, _ value: String) {
        switch key {
        case "highway": highway = value
        case "name": name = value
        case "ref": ref = value
        case "oneway": oneway = value
        case "maxspeed": maxspeed = value
        case "access": access = value
        case "junction": junction = value
        case "area": area = value
        case "motor_vehicle": motorVehicle = value
        case "motorcar": motorcar = value
        case "vehicle": vehicle = value
        case "maxspeed:forward": maxspeedForward = value
        case "maxspeed:backward": maxspeedBackward = value
        case "oneway:vehicle": onewayVehicle = value
        case "oneway:motor_vehicle": onewayMotorVehicle = value
        case "oneway:motorcar": onewayMotorcar = value
        default: break
        }
    }
}
