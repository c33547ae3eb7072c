import MapMatching
import RouteQuery

/// A parsed OSRM API request: one of the three services this server answers, with the
/// library's typed request. Parsing checks syntax only (`InvalidQuery`); `OSRMLimits.check`
/// then applies osrm-routed's option and size checks.
enum OSRMQuery {
    case route(RouteRequest)
    case table(TableQuery)
    case nearest(NearestQuery)
    case match(MatchRequest)

    /// OSRM's table request: all coordinates, and which are sources and destinations.
    struct TableQuery {
        var coordinates: [(lon: Double, lat: Double)]
        /// Indexes into `coordinates`; nil for all of them.
        var sources: [Int]?
        var destinations: [Int]?
        var durations = true
        var distances = false
        var bearings: [(degrees: Double, range: Double)?] = []
        var radiuses: [Double?] = []
        var avoidance = Avoidance()
    }

    struct NearestQuery {
        var coordinates: [(lon: Double, lat: Double)]
        var number = 1
        var bearings: [(degrees: Double, range: Double)?] = []
        var radiuses: [Double?] = []
        var avoidance = Avoidance()
    }

    /// What every service shares besides coordinates.
    struct Common {
        var bearings: [(degrees: Double, range: Double)?] = []
        var radiuses: [Double?] = []
        /// Counts of the lists this server accepts and ignores (hints, approaches), for the size checks.
        var hintCount = 0
        var approachCount = 0
    }

    init(_ url: OSRMURL) throws(QueryFailure) {
        var s = QueryScanner(url)
        let coordinates = try Self.coordinates(&s)
        _ = s.take(".json")
        var common = Common()
        switch url.service {
        case "route":
            var r = RouteRequest(coordinates: coordinates)
            // OSRM's defaults where the library's differ.
            r.geometries = .polyline
            // OSRM's car profile: `continue_straight_at_waypoint = true`, no U-turn at a via point.
            r.continueStraight = true
            try Self.options(&s) { (key, s) throws(QueryFailure) in
                switch key {
                case "alternatives":
                    if let c = s.peek, c >= 0x30 && c <= 0x39 { r.alternatives = try s.unsigned() } else { r.alternatives = try s.bool() ? 1 : 0 }
                case "steps": r.steps = try s.bool()
                case "geometries": r.geometries = RouteRequest.Geometries(rawValue: try s.word(["polyline", "polyline6", "geojson"]))!
                case "overview": r.overview = RouteRequest.Overview(rawValue: try s.word(["simplified", "full", "false"]))!
                case "continue_straight":
                    let w = try s.word(["default", "true", "false"])
                    r.continueStraight = w != "false"
                case "annotations": r.annotations = try s.annotationKinds()
                case "voice_instructions", "banner_instructions":
                    try Instructions.apply(key, try s.bool(), to: &r)
                case "exclude": r.avoidance = try s.exclude()
                default: return try Self.common(key, &s, &common)
                }
                return true
            }
            r.bearings = common.bearings
            r.radiuses = common.radiuses
            self = .route(r)
        case "table":
            var t = TableQuery(coordinates: coordinates)
            try Self.options(&s) { (key, s) throws(QueryFailure) in
                switch key {
                case "sources": t.sources = try Self.indexes(&s)
                case "destinations": t.destinations = try Self.indexes(&s)
                case "annotations":
                    var durations = false, distances = false
                    repeat {
                        if try s.word(["duration", "distance"]) == "duration" { durations = true } else { distances = true }
                    } while s.take(",")
                    t.durations = durations
                    t.distances = distances
                case "exclude": t.avoidance = try s.exclude()
                default: return try Self.common(key, &s, &common)
                }
                return true
            }
            t.bearings = common.bearings
            t.radiuses = common.radiuses
            self = .table(t)
        case "match":
            self = .match(try Self.match(coordinates, &s, &common))
        default:
            var n = NearestQuery(coordinates: coordinates)
            try Self.options(&s) { (key, s) throws(QueryFailure) in
                switch key {
                case "number": n.number = try s.unsigned()
                case "exclude": n.avoidance = try s.exclude()
                default: return try Self.common(key, &s, &common)
                }
                return true
            }
            n.bearings = common.bearings
            n.radiuses = common.radiuses
            self = .nearest(n)
        }
        // osrm-routed checks these list lengths first; hints and approaches go no further than here.
        for (name, count) in [("hints", common.hintCount), ("approaches", common.approachCount)] where count > 0 && count != coordinates.count {
            throw QueryFailure(code: "InvalidOptions",
                               message: "Number of elements in \(name) size \(count) does not match coordinate size \(coordinates.count)")
        }
    }

    /// `lon,lat;lon,lat…`, `polyline(…)` or `polyline6(…)`.
    static func coordinates(_ s: inout QueryScanner) throws(QueryFailure) -> [(lon: Double, lat: Double)] {
        for (prefix, precision) in [("polyline6(", 6), ("polyline(", 5)] where s.take(prefix) {
            let start = s.i
            while let c = s.peek, c != UInt8(ascii: ")") { s.i += 1 }
            let text = String(decoding: s.bytes[start..<s.i], as: UTF8.self)
            guard s.i > start, let points = try? Polyline.decode(text, precision: precision) else { throw s.malformed() }
            try s.expect(")")
            return points.map { (lon: $0.lon, lat: $0.lat) }
        }
        var out: [(lon: Double, lat: Double)] = []
        repeat {
            let lon = try s.double()
            try s.expect(",")
            out.append((lon, try s.double()))
        } while s.take(";")
        return out
    }

    /// `?key=value&key=value`: each value read by `handle` (which returns false for a key it
    /// does not know); nothing may be left over.
    static func options(_ s: inout QueryScanner,
                        _ handle: (String, inout QueryScanner) throws(QueryFailure) -> Bool) throws(QueryFailure) {
        guard !s.atEnd else { return }
        try s.expect("?")
        repeat {
            let start = s.i
            let key = try s.key()
            guard try handle(key, &s) else { s.i = start; throw s.malformed() }
            guard s.atValueEnd else { throw s.malformed() }
        } while s.take("&")
        guard s.atEnd else { throw s.malformed() }
    }

    /// Options every service takes: bearings, radiuses, and those accepted and ignored.
    static func common(_ key: String, _ s: inout QueryScanner, _ c: inout Common) throws(QueryFailure) -> Bool {
        switch key {
        case "bearings":
            c.bearings = try s.list { (s) throws(QueryFailure) -> (degrees: Double, range: Double) in
                let d = try s.short()
                try s.expect(",")
                return (Double(d), Double(try s.short()))
            }
        case "radiuses":
            c.radiuses = try s.list { (s) throws(QueryFailure) -> Double in
                s.take("unlimited") ? .infinity : try s.double()
            }
        case "hints":
            // Hints speed up osrm-routed's snapping; this server snaps every time and writes "" hints.
            let start = s.i
            s.skipValue()
            c.hintCount = s.bytes[start..<s.i].split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: false).count
        case "approaches":
            let items = try s.list { (s) throws(QueryFailure) -> String in try s.word(["unrestricted", "curb", "opposite"]) }
            guard items.allSatisfy({ $0 == nil || $0 == "unrestricted" }) else {
                throw QueryFailure(code: "InvalidOptions", message: "approaches other than unrestricted are not supported")
            }
            c.approachCount = items.count
        case "generate_hints", "skip_waypoints":
            _ = try s.bool()
        default:
            return false
        }
        return true
    }

    /// `all` (nil) or `i;j;…`.
    static func indexes(_ s: inout QueryScanner) throws(QueryFailure) -> [Int]? {
        if s.take("all") { return nil }
        var out: [Int] = []
        repeat { out.append(try s.unsigned()) } while s.take(";")
        return out
    }
}

extension QueryScanner {
    /// OSRM's `exclude=` (classes, comma-separated) with Mapbox's `point(lon lat)` items. An
    /// unknown class is osrm-routed's answer to a combination its profile did not prepare
    /// (InvalidValue); a malformed item is reported at the value's start (InvalidQuery).
    mutating func exclude() throws(QueryFailure) -> Avoidance {
        let start = i
        skipValue()
        do {
            return try Avoidance.parseExclude(String(decoding: bytes[start..<i], as: UTF8.self))
        } catch .unknownClass {
            throw QueryFailure(code: "InvalidValue", message: "Exclude flag combination is not supported.")
        } catch {
            i = start
            throw malformed()
        }
    }

    /// OSRM's `annotations=` value (`true`, `false` or a comma list of kinds); a bad one is
    /// reported at its start.
    mutating func annotationKinds() throws(QueryFailure) -> LegAnnotation.Kinds {
        let start = i
        skipValue()
        guard let kinds = LegAnnotation.Kinds(parsing: Substring(decoding: bytes[start..<i], as: UTF8.self)) else {
            i = start
            throw malformed()
        }
        return kinds
    }
}
