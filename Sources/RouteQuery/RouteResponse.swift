import RoutingProfile

/// OSRM's route response as typed values. Field names are OSRM's (CodingKeys); the executable
/// renders these with OffgridCore's exact JSON writer (sorted keys), so the bytes match OSRM-shaped
/// output written before these types existed. Numbers are already rounded as OSRM prints them.

/// A position, written as OSRM writes one: `[lon, lat]`.
public struct LonLat: Encodable, Equatable, Sendable {
    public var lon: Double
    public var lat: Double

    public init(lon: Double, lat: Double) { self.lon = lon; self.lat = lat }

    /// Rounded to 1e-6 degrees, as every location in a response is.
    static func rounded(lon: Double, lat: Double) -> LonLat { LonLat(lon: round6(lon), lat: round6(lat)) }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.unkeyedContainer()
        try c.encode(lon)
        try c.encode(lat)
    }
}

/// A route's or a step's shape: an encoded polyline (precision 5 or 6) or a GeoJSON LineString.
public enum RouteGeometry: Encodable, Equatable, Sendable {
    case polyline(EncodedPolyline)
    case lineString([LonLat])

    enum CodingKeys: String, CodingKey { case type, coordinates }

    public func encode(to encoder: Encoder) throws {
        switch self {
        case .polyline(let text):
            var c = encoder.singleValueContainer()
            try c.encode(text.string)
        case .lineString(let points):
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode("LineString", forKey: .type)
            try c.encode(points, forKey: .coordinates)
        }
    }

    /// The points, whichever the spelling (polyline text is read at precision 6).
    public var points: [LonLat]? {
        switch self {
        case .polyline(let text): return (try? Polyline.decode(text.string, precision: 6))?.map { LonLat(lon: $0.lon, lat: $0.lat) }
        case .lineString(let points): return points
        }
    }
}

/// `waypoints[i]` (and a table's sources/destinations): where a coordinate snapped to.
public struct Waypoint: Encodable, Sendable {
    public var location: LonLat
    public var name: String
    /// Metres from the requested coordinate to the road.
    public var distance: Double
    public var hint = ""
}

public struct RouteManeuver: Encodable, Sendable {
    public var type: String
    public var modifier: String?
    public var bearingBefore: Int
    public var bearingAfter: Int
    public var location: LonLat
    /// Roundabouts: which exit to take.
    public var exit: Int?

    enum CodingKeys: String, CodingKey {
        case type, modifier, location, exit
        case bearingBefore = "bearing_before", bearingAfter = "bearing_after"
    }
}

public struct RouteIntersection: Encodable, Sendable {
    public var location: LonLat
    public var bearings: IntersectionBearings
    /// Index in `bearings` of the road arrived on, and of the road taken.
    public var `in`: Int?
    public var out: Int?

    /// Which roads are entered: the one taken (worked out when written, not stored per step).
    public var entry: [Bool] { bearings.indices.map { $0 == out } }

    enum CodingKeys: String, CodingKey { case location, bearings, entry, `in`, out }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(location, forKey: .location)
        try c.encode(bearings, forKey: .bearings)
        try c.encode(entry, forKey: .entry)
        try c.encodeIfPresent(`in`, forKey: .in)
        try c.encodeIfPresent(out, forKey: .out)
    }
}

/// `legs[i].steps[j]`.
public struct RouteStepResponse: Encodable, Sendable {
    public var distance: Double
    public var duration: Double
    public var weight: Double
    public var name: String
    public var ref: String
    public var mode = "driving"
    public var drivingSide = "right"
    public var geometry: RouteGeometry
    public var maneuver: RouteManeuver
    /// The maneuver's intersection: the one a step lists (the junctions passed on the way are
    /// not), kept as a value rather than in a one-element array allocated per step.
    public var intersection: RouteIntersection
    /// A rotary's own name, on the step entering it (OSRM's `rotary_name`).
    public var rotaryName: String?
    /// Only when asked for (absent otherwise, so plain responses keep their bytes).
    public var voiceInstructions: [VoiceInstruction]?
    public var bannerInstructions: [BannerInstruction]?

    /// OSRM's `intersections`.
    public var intersections: [RouteIntersection] { [intersection] }

    enum CodingKeys: String, CodingKey {
        case distance, duration, weight, name, ref, mode, geometry, maneuver, intersections
        case voiceInstructions, bannerInstructions
        case drivingSide = "driving_side"
        case rotaryName = "rotary_name"
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(distance, forKey: .distance)
        try c.encode(duration, forKey: .duration)
        try c.encode(weight, forKey: .weight)
        try c.encode(name, forKey: .name)
        try c.encode(ref, forKey: .ref)
        try c.encode(mode, forKey: .mode)
        try c.encode(drivingSide, forKey: .drivingSide)
        try c.encode(geometry, forKey: .geometry)
        try c.encode(maneuver, forKey: .maneuver)
        try c.encode(intersections, forKey: .intersections)
        try c.encodeIfPresent(voiceInstructions, forKey: .voiceInstructions)
        try c.encodeIfPresent(bannerInstructions, forKey: .bannerInstructions)
        try c.encodeIfPresent(rotaryName, forKey: .rotaryName)
    }
}

/// `routes[i].legs[j]`: the way between two consecutive waypoints.
public struct RouteLeg: Encodable, Sendable {
    public var distance: Double
    public var duration: Double
    public var weight: Double
    /// The names of the two roads driven longest.
    public var summary: String
    /// Empty unless steps were asked for (OSRM writes `[]`).
    public var steps: [RouteStepResponse]
    /// Per-segment values, when `annotations` were asked for.
    public var annotation: LegAnnotation?
}

/// `routes[i]`.
public struct Route: Encodable, Sendable {
    public var distance: Double
    public var duration: Double
    public var weight: Double
    public var weightName = "duration"
    /// Absent with `overview=false`.
    public var geometry: RouteGeometry?
    public var legs: [RouteLeg]

    enum CodingKeys: String, CodingKey {
        case distance, duration, weight, geometry, legs
        case weightName = "weight_name"
    }
}

/// The answer to a route request: `{"code":"Ok","routes":…,"waypoints":…}`.
public struct RouteResponse: Encodable, Sendable {
    /// "Ok"; nil where the response is embedded in another answer that carries the code (batch).
    public var code: String?
    /// The best route first, then alternatives.
    public var routes: [Route]
    public var waypoints: [Waypoint]
}

/// A failed request, as OSRM spells it: `{"code":"NoSegment","message":…}`.
public struct QueryFailure: Error, Encodable, Sendable {
    public var code: String
    public var message: String

    public init(code: String, message: String) { self.code = code; self.message = message }
}

/// What `route` prints: the OSRM response, the GeoJSON rendering of it, or a failure.
public enum RouteAnswer: Encodable, Sendable {
    case routes(RouteResponse)
    case featureCollection(RouteFeatureCollection)
    case failure(QueryFailure)

    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .routes(let r): try c.encode(r)
        case .featureCollection(let f): try c.encode(f)
        case .failure(let f): try c.encode(f)
        }
    }

    /// The OSRM response code ("Ok" for a feature collection).
    public var code: String {
        switch self {
        case .routes(let r): return r.code ?? "Ok"
        case .featureCollection: return "Ok"
        case .failure(let f): return f.code
        }
    }

    /// The response when it is OSRM-shaped and succeeded.
    public var response: RouteResponse? { if case .routes(let r) = self { return r }; return nil }
}

extension TravelMode {
    /// OSRM's step `mode` for the traveller (ferries say `ferry` whoever rides them), also the
    /// profile name OSRM's URLs use for it.
    public var stepMode: String {
        switch self {
        case .car: return "driving"
        case .bicycle: return "cycling"
        case .foot: return "walking"
        }
    }
}
