/// What the car profile makes of a routable way.
public struct WayAttributes: Equatable, Sendable {
    public var roadClass: RoadClass
    /// km/h along the way's node order; 0 when that direction is not drivable. For a ferry with
    /// a `duration`, the route speed until the tile builder knows the way's length.
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
    /// Only for reaching a place on it (access=destination, private, delivery, customers, or all
    /// lanes HOV): entering it from a road without the restriction costs the profile's penalty.
    public var restrictedForward = false
    public var restrictedBackward = false
    /// Whether a route may start or end on the way (not on ferries, nor on private service roads).
    public var isStartpoint = true
    /// Seconds to cross the whole way, from `duration=*` (ferries and shuttle trains).
    public var durationSeconds: Double?

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

extension TravelProfile {
    /// Cheap pre-filter before building a tag dictionary: whether ways with this `highway=*`
    /// value are routable without any access tag (the value names a class with a speed).
    @inline(__always)
    public func mightBeDrivable(highwayValue: String) -> Bool {
        guard let roadClass = RoadClass(highway: highwayValue) else { return false }
        return classSpeedsKmh[Int(roadClass.rawValue)] > 0
    }


    /// The way's attributes for the profile's traveller (`TravelMode`), or nil when they cannot
    /// use it. OSRM's car, bicycle and foot profiles' handlers, in their order (profiles/README.md
    /// tells each rule):
    ///
    /// 1. blocked: `area=yes`, the mode's blocked `highway=*` values (`steps` for cars and
    ///    `construction|proposed` for all), `construction=*` other than no/widening/minor,
    ///    `oneway=reversible`, `impassable=yes`, `status=impassable`, `service=emergency_access`;
    /// 2. physical limits per direction against the profile's vehicle;
    /// 3. access per direction: the mode's hierarchy (motorcar → motor_vehicle → vehicle → access;
    ///    bicycle → vehicle → access; foot → access), each with its `:forward`/`:backward` form
    ///    first; lists (`yes;no`) take their most permissive value; restricted values
    ///    (destination, private…) keep a highway class open at a penalty;
    /// 4. oneway: the mode's keys (`onewayValue`); implied for motorways, roundabouts and
    ///    circular junctions but for walkers;
    /// 5. ferries and shuttle trains (`route=*`) at their duration or route speed;
    /// 6. speed: the class speed, or the profile's other-highway speed where access tags open an
    ///    unknown `highway=*` value; capped by surface, tracktype and smoothness; for cars replaced
    ///    by a numeric maxspeed (advisory first) times `maxspeedFactor`, and `oneway=alternating` at 40 %.
    public func evaluateWay(tags dictionary: [String: String]) -> WayAttributes? {
        let tags = WayTags(dictionary)
        let highway = tags[.highway]
        let route = tags[.route]
        let s = settings

        // 1. Blocked ways.
        if tags[.area] == "yes" || tags[.oneway] == "reversible" || tags[.impassable] == "yes"
            || tags[.status] == "impassable" || tags[.service] == "emergency_access" {
            return nil
        }
        if let highway, s.mode.blockedHighways.contains(highway) { return nil }
        if let c = tags[.construction], c != "no" && c != "widening" && c != "minor" { return nil }

        var roadClass: RoadClass
        var ferrySpeed = 0.0
        if route == "ferry" && s.ferrySpeedKmh > 0 {
            roadClass = .ferry; ferrySpeed = s.ferrySpeedKmh
        } else if route == "shuttle_train" && s.shuttleTrainSpeedKmh > 0 {
            roadClass = .shuttleTrain; ferrySpeed = s.shuttleTrainSpeedKmh
        } else if let highway, let c = RoadClass(highway: highway), classSpeedsKmh[Int(c.rawValue)] > 0 {
            roadClass = c
        } else if highway == nil, tags[.railway] == "platform" || tags[.publicTransport] == "platform",
                  classSpeedsKmh[Int(RoadClass.platform.rawValue)] > 0 {
            roadClass = .platform
        } else if highway == nil, tags[.manMade] == "pier", classSpeedsKmh[Int(RoadClass.pier.rawValue)] > 0 {
            roadClass = .pier
        } else if highway != nil {
            roadClass = .otherHighway
        } else {
            return nil
        }

        // 2. Physical limits.
        let height = tags.directional([.maxheightPhysical, .maxheight])
        let width = tags.directional([.maxwidthPhysical, .maxwidth, .width, .estWidth])
        let length = tags.directional([.maxlength])
        let weight = tags.directional([.maxweightrating, .maxweight])
        let narrow = tags[.narrow] == "yes"
        var forward = vehicleFits(height: height.forward, width: width.forward, narrow: narrow,
                                  length: length.forward, weight: weight.forward)
        var backward = vehicleFits(height: height.backward, width: width.backward, narrow: narrow,
                                   length: length.backward, weight: weight.backward)

        // 3. Access.
        let access = tags.directional(s.mode.accessKeys)
        let forwardAccess = access.forward.map(accessVerdict)
        let backwardAccess = access.backward.map(accessVerdict)
        let restrictable = roadClass != .otherHighway
        var attributes = WayAttributes(roadClass: roadClass, speedKmh: 0, speedBackwardKmh: 0, forward: false, backward: false,
                                       isRoundabout: false, name: tags[.name] ?? "", ref: tags[.ref] ?? "")
        func opens(_ verdict: AccessVerdict?, restricted: inout Bool) -> Bool {
            switch verdict {
            case .denied: return false
            case .restricted:
                restricted = true
                return restrictable
            default: return true
            }
        }
        if !opens(forwardAccess, restricted: &attributes.restrictedForward) { forward = false }
        if !opens(backwardAccess, restricted: &attributes.restrictedBackward) { backward = false }
        if roadClass == .otherHighway {
            // An unknown highway value carries cars only where an access tag says so.
            if forwardAccess == nil { forward = false }
            if backwardAccess == nil { backward = false }
        }

        // 4. Oneway.
        let junction = tags[.junction]
        attributes.isRoundabout = junction == "roundabout" || junction == "circular"
        let oneway = onewayValue(tags)
        switch oneway {
        case "-1", "reverse":
            forward = false
        case "yes", "1", "true":
            backward = false
        default:
            let explicitlyTwoWay = oneway == "no" || oneway == "false" || oneway == "0"
            // Walkers go both ways round a roundabout and along a motorway's verge alike.
            if !explicitlyTwoWay && s.mode != .foot && (roadClass == .motorway || attributes.isRoundabout) { backward = false }
        }
        guard forward || backward else { return nil }

        // 5–6. Speed.
        var speed: Double
        if roadClass.isFerry {
            speed = ferrySpeed
            if let d = tags[.duration].flatMap(Duration.seconds) { attributes.durationSeconds = max(d, 1) }
            attributes.isStartpoint = false
        } else {
            speed = roadClass == .otherHighway ? s.otherHighwaySpeedKmh : classSpeedsKmh[Int(roadClass.rawValue)]
            if let v = tags[.surface], let cap = s.surfaceSpeedsKmh[v] { speed = min(speed, cap) }
            if let v = tags[.tracktype], let cap = s.tracktypeSpeedsKmh[v] { speed = min(speed, cap) }
            if let v = tags[.smoothness], let cap = s.smoothnessSpeedsKmh[v] { speed = min(speed, cap) }
        }
        var forwardSpeed = speed, backwardSpeed = speed
        // A speed limit says how fast a car may go, not a bicycle or a walker.
        if !roadClass.isFerry && s.mode == .car {
            // The first numeric value, a directional one before its plain key: a symbolic
            // `maxspeed:backward=DE:urban` leaves `maxspeed=80` in force.
            if let v = tags.speed([.maxspeedAdvisory, .maxspeed], forward: true) { forwardSpeed = v * s.maxspeedFactor }
            if let v = tags.speed([.maxspeedAdvisory, .maxspeed], forward: false) { backwardSpeed = v * s.maxspeedFactor }
            if oneway == "alternating" { forwardSpeed *= 0.4; backwardSpeed *= 0.4 }
        }
        attributes.forward = forward && forwardSpeed > 0
        attributes.backward = backward && backwardSpeed > 0
        guard attributes.forward || attributes.backward else { return nil }
        attributes.speedKmh = attributes.forward ? forwardSpeed : 0
        attributes.speedBackwardKmh = attributes.backward ? backwardSpeed : 0

        if s.mode == .car && tags[.hov] == "designated" {
            attributes.restrictedForward = true
            attributes.restrictedBackward = true
        }
        let hovLanes = tags.directional([.hovLanes])
        if s.mode == .car && allLanesDesignated(hovLanes.forward) { attributes.restrictedForward = true }
        if s.mode == .car && allLanesDesignated(hovLanes.backward) { attributes.restrictedBackward = true }
        if !attributes.forward { attributes.restrictedForward = false }
        if !attributes.backward { attributes.restrictedBackward = false }
        if highway == "service", let a = access.forward, a == "private" { attributes.isStartpoint = false }
        return attributes
    }

    /// The oneway value that speaks to the mode: a car's `oneway:motorcar|motor_vehicle|vehicle`
    /// then `oneway`; a bicycle's `oneway:bicycle`, two-way where a contraflow cycleway runs
    /// (`cycleway*=opposite*`, OSRM's bicycle profile), then `oneway`; a walker's `oneway:foot` only.
    private func onewayValue(_ tags: WayTags) -> String? {
        switch settings.mode {
        case .car:
            return tags[.onewayMotorcar] ?? tags[.onewayMotorVehicle] ?? tags[.onewayVehicle] ?? tags[.oneway]
        case .bicycle:
            if let v = tags[.onewayBicycle] { return v }
            let contraflow = [tags[.cycleway], tags[.cyclewayLeft], tags[.cyclewayRight], tags[.cyclewayBoth]]
                .contains { $0?.hasPrefix("opposite") == true }
            return contraflow ? "no" : tags[.oneway]
        case .foot:
            return tags[.onewayFoot]
        }
    }

    private func allLanesDesignated(_ lanes: String?) -> Bool {
        guard let lanes else { return false }
        return lanes.split(separator: "|", omittingEmptySubsequences: false).allSatisfy { $0 == "designated" }
    }
}
