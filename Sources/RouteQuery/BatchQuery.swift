import OffgridCore

/// One answer line of `route-query batch`: `{"id":…,"code":"Ok","distance_m":…,"duration_s":…}`,
/// with the whole route when asked for, or the code and message of the failure.
public struct BatchAnswer: Encodable, Sendable {
    /// The query's `id`, echoed as it was given (null when absent).
    public var id: JSONValue
    public var code: String
    public var message: String?
    public var distanceMeters: Double?
    public var durationSeconds: Double?
    /// The route response without its code (the answer carries it).
    public var route: RouteResponse?

    enum CodingKeys: String, CodingKey {
        case id, code, message, route
        case distanceMeters = "distance_m", durationSeconds = "duration_s"
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)   // always present, null included
        try c.encode(code, forKey: .code)
        try c.encodeIfPresent(message, forKey: .message)
        try c.encodeIfPresent(distanceMeters, forKey: .distanceMeters)
        try c.encodeIfPresent(durationSeconds, forKey: .durationSeconds)
        try c.encodeIfPresent(route, forKey: .route)
    }
}

/// A batch line's fields as a route request. Lenient where it always was: fields of the wrong
/// type are ignored (a non-array `via`, a non-string `geometries`), a non-number radius means
/// none, and a flag may be written 0 or 1.
enum BatchQuery {
    struct Problem: Error, CustomStringConvertible { let description: String }

    static func point(_ v: JSONValue?, _ name: String) throws -> (lon: Double, lat: Double) {
        guard let a = v?.arrayValue, a.count == 2, let lon = a[0].doubleValue, let lat = a[1].doubleValue else {
            throw Problem(description: "\"\(name)\" must be [lon, lat]")
        }
        return (lon, lat)
    }

    /// `true`/`false`, or the numbers 1 and 0 (which the Foundation parser used before read as booleans).
    static func flag(_ v: JSONValue?) -> Bool? {
        switch v {
        case .bool(let b)?: return b
        case let n? where n.doubleValue == 1: return true
        case let n? where n.doubleValue == 0: return false
        default: return nil
        }
    }

    static func request(_ q: JSONValue, defaults: RouteRequest) throws -> RouteRequest {
        var coordinates = [try point(q["from"], "from")]
        if let via = q["via"]?.arrayValue { coordinates += try via.map { try point($0, "via") } }
        coordinates.append(try point(q["to"], "to"))
        var r = defaults
        r.coordinates = coordinates
        if let s = flag(q["steps"]) { r.steps = s }
        if let v = flag(q["voice_instructions"]) { r.voiceInstructions = v }
        if let b = flag(q["banner_instructions"]) { r.bannerInstructions = b }
        if let g = q["geometries"]?.stringValue {
            guard let v = RouteRequest.Geometries(rawValue: g) else { throw Problem(description: "unknown geometries \(g)") }
            r.geometries = v
        }
        if let o = q["overview"]?.stringValue {
            guard let v = RouteRequest.Overview(rawValue: o) else { throw Problem(description: "unknown overview \(o)") }
            r.overview = v
        }
        if let b = q["bearings"]?.arrayValue {
            r.bearings = try b.map { item in
                if item.isNull { return nil }
                guard let p = item.arrayValue, p.count == 2, let d = p[0].doubleValue, let range = p[1].doubleValue else {
                    throw Problem(description: "bearings must be [deg, range] or null")
                }
                return (d, range)
            }
        }
        if let rs = q["radiuses"]?.arrayValue { r.radiuses = rs.map(\.doubleValue) }
        if let problem = r.validationProblem() { throw Problem(description: problem) }
        return r
    }
}
