/// Who travels: the mode decides which OSM keys speak to the traveller (the access hierarchy,
/// oneway tags, restriction forms), following OSRM's car, bicycle and foot profiles. Everything
/// else (speeds, lists of values, penalties) is the profile file's.
public enum TravelMode: String, CaseIterable, Sendable {
    case car, bicycle, foot

    /// The access keys, most specific first (each with its `:forward`/`:backward` form before it).
    var accessKeys: [WayTags.DirectionalKey] {
        switch self {
        case .car: return [.motorcar, .motorVehicle, .vehicle, .access]
        case .bicycle: return [.bicycle, .vehicle, .access]
        case .foot: return [.foot, .access]
        }
    }

    /// The same hierarchy on a node (no directional forms there).
    var nodeAccessKeys: [String] { accessKeys.map(\.osm) }

    /// `restriction:<suffix>` forms that speak to this mode, most specific first; `except=`
    /// values that exempt it. Walkers obey no turn restriction (as OSRM's foot profile).
    var restrictionSuffixes: [String] {
        switch self {
        case .car: return ["motorcar", "motor_vehicle", "vehicle"]
        case .bicycle: return ["bicycle", "vehicle"]
        case .foot: return []
        }
    }

    var exemptingValues: Set<String> {
        switch self {
        case .car: return ["motorcar", "motor_vehicle", "vehicle"]
        case .bicycle: return ["bicycle"]
        case .foot: return ["foot"]
        }
    }

    /// `highway=*` values this mode never uses, whatever their access tags (OSRM's `avoid`).
    var blockedHighways: Set<String> {
        switch self {
        case .car: return ["steps", "construction", "proposed", "area"]
        case .bicycle, .foot: return ["construction", "proposed"]
        }
    }
}
