/// The classes of routable ways, with stable codes that graph files store in one byte: the
/// drivable `highway=*` classes, then ferries, shuttle trains, any other `highway=*` value a
/// way's access tags open, and the ways of cyclists and walkers. Codes are part of the graph
/// format: never renumber, only append.
public enum RoadClass: UInt8, CaseIterable, Sendable {
    case motorway = 0
    case motorwayLink = 1
    case trunk = 2
    case trunkLink = 3
    case primary = 4
    case primaryLink = 5
    case secondary = 6
    case secondaryLink = 7
    case tertiary = 8
    case tertiaryLink = 9
    case unclassified = 10
    case residential = 11
    case livingStreet = 12
    case service = 13
    /// `route=ferry`.
    case ferry = 14
    /// `route=shuttle_train` (car trains).
    case shuttleTrain = 15
    /// Any other `highway=*` value whose access tags allow cars (`highway=runway` + `access=yes`).
    case otherHighway = 16
    /// Roads built on snow or ice in winter (OSRM's car profile drives them).
    case winterRoad = 17
    case iceRoad = 18
    case track = 19
    case path = 20
    case cycleway = 21
    case footway = 22
    case pedestrian = 23
    case steps = 24
    case bridleway = 25
    /// `highway=platform`, `railway=platform`, `public_transport=platform`.
    case platform = 26
    /// `man_made=pier`.
    case pier = 27

    /// The classes named by a `highway=*` value, in code order: the keys of `highwaySpeedsKmh`.
    public static let highwayClasses: [RoadClass] = allCases.filter { !$0.isFerry && $0 != .otherHighway }

    /// Ferries and shuttle trains: the traveller rides, the mode is not driving.
    public var isFerry: Bool { self == .ferry || self == .shuttleTrain }

    /// The OSM `highway=*` value.
    public var osmValue: String {
        switch self {
        case .motorway: return "motorway"
        case .motorwayLink: return "motorway_link"
        case .trunk: return "trunk"
        case .trunkLink: return "trunk_link"
        case .primary: return "primary"
        case .primaryLink: return "primary_link"
        case .secondary: return "secondary"
        case .secondaryLink: return "secondary_link"
        case .tertiary: return "tertiary"
        case .tertiaryLink: return "tertiary_link"
        case .unclassified: return "unclassified"
        case .residential: return "residential"
        case .livingStreet: return "living_street"
        case .service: return "service"
        case .ferry: return "ferry"
        case .shuttleTrain: return "shuttle_train"
        case .otherHighway: return "other"
        case .winterRoad: return "winter_road"
        case .iceRoad: return "ice_road"
        case .track: return "track"
        case .path: return "path"
        case .cycleway: return "cycleway"
        case .footway: return "footway"
        case .pedestrian: return "pedestrian"
        case .steps: return "steps"
        case .bridleway: return "bridleway"
        case .platform: return "platform"
        case .pier: return "pier"
        }
    }

    /// The class of a `highway=*` value among `highwayClasses`, or nil for other values
    /// (construction, road, …).
    public init?(highway value: String) {
        switch value {
        case "motorway": self = .motorway
        case "motorway_link": self = .motorwayLink
        case "trunk": self = .trunk
        case "trunk_link": self = .trunkLink
        case "primary": self = .primary
        case "primary_link": self = .primaryLink
        case "secondary": self = .secondary
        case "secondary_link": self = .secondaryLink
        case "tertiary": self = .tertiary
        case "tertiary_link": self = .tertiaryLink
        case "unclassified": self = .unclassified
        case "residential": self = .residential
        case "living_street": self = .livingStreet
        case "service": self = .service
        case "winter_road": self = .winterRoad
        case "ice_road": self = .iceRoad
        case "track": self = .track
        case "path": self = .path
        case "cycleway": self = .cycleway
        case "footway": self = .footway
        case "pedestrian": self = .pedestrian
        case "steps": self = .steps
        case "bridleway": self = .bridleway
        case "platform": self = .platform
        case "pier": self = .pier
        default: return nil
        }
    }
}
