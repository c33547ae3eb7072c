import RouteQuery

/// OSRM's match response as typed values (field names OSRM's); the executable and the server
/// render them with the same exact JSON writer, so the CLI and `/match` give the same bytes.
public struct MatchResponse: Encodable, Sendable {
    public var code = "Ok"
    public var matchings: [Matching]
    /// One per input fix, in order: nil (JSON null) for a fix not matched.
    public var tracepoints: [Tracepoint?]

    enum CodingKeys: String, CodingKey { case code, matchings, tracepoints }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(code, forKey: .code)
        try c.encode(matchings, forKey: .matchings)
        var list = c.nestedUnkeyedContainer(forKey: .tracepoints)
        for t in tracepoints {
            if let t { try list.encode(t) } else { try list.encodeNil() }
        }
    }
}

/// `matchings[i]`: a route through one run of matched fixes, with how sure the match is.
public struct Matching: Encodable, Sendable {
    /// 0 … 1: how alike the trace's length and the matched route's are (docs/MATCHING.md).
    public var confidence: Double
    public var distance: Double
    public var duration: Double
    public var weight: Double
    public var weightName: String
    public var geometry: RouteGeometry?
    public var legs: [RouteLeg]

    enum CodingKeys: String, CodingKey {
        case confidence, distance, duration, weight, geometry, legs
        case weightName = "weight_name"
    }

    init(route: Route, confidence: Double) {
        self.confidence = confidence
        distance = route.distance
        duration = route.duration
        weight = route.weight
        weightName = route.weightName
        geometry = route.geometry
        legs = route.legs
    }
}

/// `tracepoints[i]`: where fix i was matched, in which matching and as which waypoint.
public struct Tracepoint: Encodable, Sendable {
    public var alternativesCount: Int
    /// Metres from the fix to the matched point.
    public var distance: Double
    public var hint = ""
    public var location: LonLat
    public var matchingsIndex: Int
    public var name: String
    /// Index among the matching's waypoints; nil for a fix that is not one (`waypoints=`).
    public var waypointIndex: Int?

    enum CodingKeys: String, CodingKey {
        case distance, hint, location, name
        case alternativesCount = "alternatives_count", matchingsIndex = "matchings_index", waypointIndex = "waypoint_index"
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(alternativesCount, forKey: .alternativesCount)
        try c.encode(distance, forKey: .distance)
        try c.encode(hint, forKey: .hint)
        try c.encode(location, forKey: .location)
        try c.encode(matchingsIndex, forKey: .matchingsIndex)
        try c.encode(name, forKey: .name)
        if let waypointIndex { try c.encode(waypointIndex, forKey: .waypointIndex) } else { try c.encodeNil(forKey: .waypointIndex) }
    }
}

/// What `match` answers: the response, or OSRM's failure (NoMatch, InvalidOptions, …).
public enum MatchAnswer: Encodable, Sendable {
    case matched(MatchResponse)
    case failure(QueryFailure)

    public func encode(to encoder: Encoder) throws {
        switch self {
        case .matched(let r): try r.encode(to: encoder)
        case .failure(let f): try f.encode(to: encoder)
        }
    }
}
