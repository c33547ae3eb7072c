/// Traffic controls at a node that delay every passage through it. Bits match
/// `NodeControlFlags` in the routing tiles.
public struct NodeControl: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let trafficSignals = NodeControl(rawValue: 1)
    public static let stop = NodeControl(rawValue: 2)
    public static let giveWay = NodeControl(rawValue: 4)
    public static let none: NodeControl = []

    /// The byte stored in tiles.
    public var flags: UInt8 { rawValue }
}

extension CarProfile {
    /// The control a node's tags describe:
    /// - `highway=traffic_signals` → traffic signals;
    /// - `highway=crossing` with `crossing=traffic_signals` or `crossing:signals=yes` → traffic
    ///   signals (a signalised pedestrian crossing stops cars too, as in OSRM);
    /// - `highway=stop` → stop sign; `highway=give_way` → give-way sign.
    /// Direction tags (`direction`, `traffic_signals:direction`) are not interpreted: the delay
    /// applies in both directions.
    public func nodeControl(tags: [String: String]) -> NodeControl {
        guard let highway = tags["highway"] else { return .none }
        switch highway {
        case "traffic_signals":
            return .trafficSignals
        case "stop":
            return .stop
        case "give_way":
            return .giveWay
        case "crossing" where tags["crossing"] == "traffic_signals" || tags["crossing:signals"] == "yes":
            return .trafficSignals
        default:
            return .none
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
