/// The tags `evaluateWay` reads, picked out of a way's tags in one pass: one hash per tag the
/// way has, instead of one per key the rules ask about (most of which a way lacks), and no key
/// strings built per way.
struct WayTags {
    /// Keys read as they are.
    enum Key: Int, CaseIterable {
        case highway, route, area, oneway, onewayMotorcar, onewayMotorVehicle, onewayVehicle, impassable, status
        case service, construction, junction, name, ref, duration, narrow, hov, surface, tracktype, smoothness
        case onewayBicycle, onewayFoot, cycleway, cyclewayLeft, cyclewayRight, cyclewayBoth, railway, publicTransport, manMade

        var osm: String {
            switch self {
            case .onewayMotorcar: return "oneway:motorcar"
            case .onewayMotorVehicle: return "oneway:motor_vehicle"
            case .onewayVehicle: return "oneway:vehicle"
            case .onewayBicycle: return "oneway:bicycle"
            case .onewayFoot: return "oneway:foot"
            case .cyclewayLeft: return "cycleway:left"
            case .cyclewayRight: return "cycleway:right"
            case .cyclewayBoth: return "cycleway:both"
            case .publicTransport: return "public_transport"
            case .manMade: return "man_made"
            default: return "\(self)"
            }
        }
    }

    /// Keys read by direction: `key:forward` / `key:backward` before `key` (OSRM's
    /// `get_forward_backward_by_set`), in the order each rule asks them.
    enum DirectionalKey: Int, CaseIterable {
        case motorcar, motorVehicle, vehicle, access
        case maxheightPhysical, maxheight, maxwidthPhysical, maxwidth, width, estWidth, maxlength
        case maxweightrating, maxweight, maxspeedAdvisory, maxspeed, hovLanes, bicycle, foot

        var osm: String {
            switch self {
            case .motorVehicle: return "motor_vehicle"
            case .maxheightPhysical: return "maxheight:physical"
            case .maxwidthPhysical: return "maxwidth:physical"
            case .estWidth: return "est_width"
            case .maxspeedAdvisory: return "maxspeed:advisory"
            case .hovLanes: return "hov:lanes"
            default: return "\(self)"
            }
        }
    }

    /// Slot of every key read: plain keys first, then three per directional key (plain,
    /// forward, backward).
    private static let slots: [String: Int] = {
        var slots: [String: Int] = [:]
        for k in Key.allCases { slots[k.osm] = k.rawValue }
        for k in DirectionalKey.allCases {
            let base = Key.allCases.count + 3 * k.rawValue
            slots[k.osm] = base
            slots[k.osm + ":forward"] = base + 1
            slots[k.osm + ":backward"] = base + 2
        }
        return slots
    }()
    private static let slotCount = Key.allCases.count + 3 * DirectionalKey.allCases.count

    private var values: [String?]

    init(_ tags: [String: String]) {
        values = [String?](repeating: nil, count: Self.slotCount)
        for (key, value) in tags {
            if let slot = Self.slots[key] { values[slot] = value }
        }
    }

    subscript(_ key: Key) -> String? { values[key.rawValue] }

    /// The first value present for each direction among `keys`, in order.
    func directional(_ keys: [DirectionalKey]) -> (forward: String?, backward: String?) {
        var forward: String?, backward: String?
        for key in keys {
            let base = Key.allCases.count + 3 * key.rawValue
            if forward == nil { forward = values[base + 1] }
            if backward == nil { backward = values[base + 2] }
            if forward == nil { forward = values[base] }
            if backward == nil { backward = values[base] }
            if forward != nil && backward != nil { break }
        }
        return (forward, backward)
    }

    /// The first numeric speed (`Maxspeed.kmh`) for direction `forward` among `keys`, the
    /// directional value before the plain one.
    func speed(_ keys: [DirectionalKey], forward: Bool) -> Double? {
        for key in keys {
            let base = Key.allCases.count + 3 * key.rawValue
            if let v = values[base + (forward ? 1 : 2)].flatMap(Maxspeed.kmh) ?? values[base].flatMap(Maxspeed.kmh) { return v }
        }
        return nil
    }
}
