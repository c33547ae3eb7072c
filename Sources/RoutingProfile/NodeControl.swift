/// Traffic controls at a node that delay every passage through it. Bits match
/// `NodeControlFlags` in the routing tiles.
public struct NodeControl: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let trafficSignals = NodeControl(rawValue: 1)
    public static let stop = NodeControl(rawValue: 2)
    public static let giveWay = NodeControl(rawValue: 4)
    /// A barrier cars cannot pass (bollard, wall, a node closed by its access tags): routes
    /// may reach it and turn back, never go through.
    public static let barrier = NodeControl(rawValue: 8)
    /// A place made for turning round (`highway=turning_circle`, `turning_loop`,
    /// `mini_roundabout`): U-turns are allowed there under the profile's `notAtIntersections` rule.
    public static let turningPlace = NodeControl(rawValue: 16)
    public static let none: NodeControl = []

    /// The byte stored in tiles.
    public var flags: UInt8 { rawValue }
}

extension TravelProfile {
    /// The control a node's tags describe:
    /// - `highway=traffic_signals` → traffic signals;
    /// - `highway=crossing` with `crossing=traffic_signals` or `crossing:signals=yes` → traffic
    ///   signals (a signalised pedestrian crossing stops cars too, as in OSRM);
    /// - `highway=stop` → stop sign; `highway=give_way` → give-way sign;
    /// - `highway=turning_circle`, `turning_loop`, `mini_roundabout` → a turning place;
    /// Direction tags (`direction`, `traffic_signals:direction`) are not interpreted: the delay
    /// applies in both directions.
    /// - a barrier (`isBarrier`).
    public func nodeControl(tags: [String: String]) -> NodeControl {
        var control: NodeControl = isBarrier(tags: tags) ? .barrier : .none
        switch tags["highway"] {
        case "traffic_signals":
            control.insert(.trafficSignals)
        case "stop":
            control.insert(.stop)
        case "give_way":
            control.insert(.giveWay)
        case "crossing" where tags["crossing"] == "traffic_signals" || tags["crossing:signals"] == "yes":
            control.insert(.trafficSignals)
        case "turning_circle", "turning_loop", "mini_roundabout":
            control.insert(.turningPlace)
        default:
            break
        }
        return control
    }

    /// OSRM's car `process_node`: an access tag of the hierarchy (motorcar → motor_vehicle →
    /// vehicle → access) decides when present: closed only when denied (restricted values such as
    /// private pass). Otherwise `barrier=*` blocks unless its value is in `passableBarriers`,
    /// with OSRM's exceptions: a rising bollard, a lowered or flush kerb or one on a crossing, an
    /// audible fence; a height restrictor blocks when its maxheight is below the vehicle's.
    public func isBarrier(tags: [String: String]) -> Bool {
        if let access = settings.mode.nodeAccessKeys.lazy.compactMap({ tags[$0] }).first {
            return accessVerdict(access) == .denied
        }
        guard let barrier = tags["barrier"] else { return false }
        if barrier == "height_restrictor", let h = tags["maxheight"].flatMap(PhysicalLimit.metres),
           h < settings.vehicleHeightM { return true }
        let audibleFence = barrier == "fence" && (tags["sensory"] == "audible" || tags["sensory"] == "audio")
        if settings.blockingBarriers.contains(barrier) { return !audibleFence }
        if settings.passableBarriers.isEmpty || settings.passableBarriers.contains(barrier) { return false }
        switch barrier {
        case "bollard": return tags["bollard"] != "rising"
        case "kerb": return !(tags["kerb"] == "lowered" || tags["kerb"] == "flush" || tags["highway"] == "crossing")
        case "fence": return !audibleFence
        default: return true
        }
    }

    /// Seconds added to each passage through a node with these controls (the sum when several
    /// are set): `nodeDelaysSeconds` of the profile.
    public func nodeDelaySeconds(_ control: NodeControl) -> Double {
        var seconds = 0.0
        if control.contains(.trafficSignals) { seconds += settings.trafficSignalsDelaySeconds }
        if control.contains(.stop) { seconds += settings.stopDelaySeconds }
        if control.contains(.giveWay) { seconds += settings.giveWayDelaySeconds }
        return seconds
    }
}
