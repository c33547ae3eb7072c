import Foundation
import OffgridCore
import RoutingGraph
import TileMath

/// What a traveller asks to avoid: classes of road (`--exclude`, OSRM's and Mapbox's `exclude=`)
/// and closed places (`--avoid closures.geojson`, Mapbox's `exclude=point(lon lat)`). Roads it
/// names are removed from the graph for the query: never snapped onto, never driven (`AvoidanceMetric`).
public struct Avoidance: Hashable, Sendable {
    /// A class of road that can be excluded.
    public enum RoadClassGroup: String, CaseIterable, Sendable, Comparable {
        /// `highway=motorway` and `motorway_link` (road classes 0, 1).
        case motorway
        /// `toll=yes` (`EdgeAttributes.toll`).
        case toll
        /// `route=ferry` and `route=shuttle_train` (road classes 14, 15).
        case ferry
        /// Unpaved surfaces (`EdgeAttributes.unpaved`).
        case unpaved
        /// Tunnels (`EdgeAttributes.tunnel`).
        case tunnel

        public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }

        /// Whether an edge belongs to the class.
        @inline(__always) func contains(_ edge: EdgeRecord) -> Bool {
            switch self {
            case .motorway: return edge.roadClass <= 1
            case .ferry: return edge.roadClass == 14 || edge.roadClass == 15
            case .toll: return edge.attributes & EdgeAttributes.toll != 0
            case .unpaved: return edge.attributes & EdgeAttributes.unpaved != 0
            case .tunnel: return edge.attributes & EdgeAttributes.tunnel != 0
            }
        }
    }

    public var classes: Set<RoadClassGroup> = []
    public var closures: [Closure] = []

    public init(classes: Set<RoadClassGroup> = [], closures: [Closure] = []) {
        self.classes = classes
        self.closures = closures
    }

    /// Nothing to avoid: the graph's own hierarchy answers.
    public var isEmpty: Bool { classes.isEmpty && closures.isEmpty }

    /// The radius a Mapbox `point(lon lat)` closes roads within, in metres.
    public static let pointRadiusMeters = 20.0
    /// The most points and polygons one request may close (Mapbox's limit for `exclude` points).
    public static let maxClosures = 50

    /// An `exclude` value: classes and `point(lon lat)` items, comma-separated (`motorway,toll`,
    /// `ferry,point(9.52 47.14)`). Throws `AvoidanceError` naming the first item it cannot read:
    /// an unknown class is `unknownClass` (OSRM's InvalidValue), an empty item, one of other
    /// characters than letters and digits, or a malformed point `malformed` (InvalidQuery).
    public static func parseExclude(_ text: String) throws(AvoidanceError) -> Avoidance {
        var out = Avoidance()
        for raw in text.split(separator: ",", omittingEmptySubsequences: false) {
            let item = raw.trimmingCharacters(in: .whitespaces)
            if item.hasPrefix("point(") {
                guard item.hasSuffix(")") else { throw .malformed("exclude item '\(item)' is not point(LON LAT)") }
                let inner = item.dropFirst(6).dropLast().split(whereSeparator: { $0 == " " || $0 == "+" })
                guard inner.count == 2, let lon = Double(inner[0]), let lat = Double(inner[1]),
                      (-180...180).contains(lon), (-90...90).contains(lat) else {
                    throw .malformed("exclude item '\(item)' is not point(LON LAT) with a valid longitude and latitude")
                }
                out.closures.append(.circle(center: GeoPoint(lon: lon, lat: lat), radiusMeters: pointRadiusMeters))
            } else if let c = RoadClassGroup(rawValue: item) {
                out.classes.insert(c)
            } else if item.isEmpty || !item.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7A) }) {
                // OSRM's grammar: a class is letters and digits (anything else does not parse).
                throw .malformed("exclude item '\(item)' is neither a class (letters and digits) nor point(LON LAT)")
            } else {
                throw .unknownClass(item)
            }
        }
        guard out.closures.count <= maxClosures else { throw .malformed("exclude has \(out.closures.count) points, at most \(maxClosures)") }
        return out
    }

    /// The classes, sorted and comma-separated (a cache key and what answers echo).
    public var classList: String { classes.sorted().map(\.rawValue).joined(separator: ",") }

    /// Both lists together.
    public func adding(_ other: Avoidance) -> Avoidance {
        Avoidance(classes: classes.union(other.classes), closures: closures + other.closures)
    }
}

/// Why an exclusion could not be read.
public enum AvoidanceError: Error, CustomStringConvertible, Equatable {
    case unknownClass(String)
    case malformed(String)

    public var description: String {
        switch self {
        case .unknownClass(let c):
            let known = Avoidance.RoadClassGroup.allCases.map(\.rawValue).joined(separator: ", ")
            return "unknown exclude class '\(c)' (known: \(known), point(LON LAT))"
        case .malformed(let m): return m
        }
    }
}
