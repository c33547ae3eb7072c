import LocationTraces
import MapMatching
import RouteQuery

extension OSRMQuery {
    /// OSRM's match options: timestamps, radiuses (each fix's standard deviation), gaps, tidy,
    /// waypoints, and the route options steps, geometries, overview, annotations. Bearings and
    /// hints are accepted as for every service and not used.
    static func match(_ coordinates: [(lon: Double, lat: Double)], _ s: inout QueryScanner,
                      _ shared: inout Common) throws(QueryFailure) -> MatchRequest {
        var m = MatchRequest(coordinates: coordinates)
        // OSRM's defaults where the library's differ.
        m.geometries = .polyline
        var timestamps: [Double]?
        try options(&s) { (key, s) throws(QueryFailure) in
            switch key {
            case "timestamps":
                var out: [Double] = []
                repeat { out.append(Double(try s.unsigned())) } while s.take(";")
                timestamps = out
            case "gaps": m.gaps = MatchRequest.Gaps(rawValue: try s.word(["split", "ignore"]))!
            case "tidy": m.tidy = try s.bool()
            case "waypoints":
                var out: [Int] = []
                repeat { out.append(try s.unsigned()) } while s.take(";")
                m.waypoints = out
            case "steps": m.steps = try s.bool()
            case "geometries": m.geometries = RouteRequest.Geometries(rawValue: try s.word(["polyline", "polyline6", "geojson"]))!
            case "overview": m.overview = RouteRequest.Overview(rawValue: try s.word(["simplified", "full", "false"]))!
            case "annotations": m.annotations = try s.annotationKinds()
            default: return try Self.common(key, &s, &shared)
            }
            return true
        }
        m.radiuses = shared.radiuses
        if let timestamps {
            guard timestamps.count == coordinates.count else {
                throw QueryFailure(code: "InvalidOptions",
                                   message: "Number of elements in timestamps size \(timestamps.count) does not match coordinate size \(coordinates.count)")
            }
            for i in m.fixes.indices { m.fixes[i].time = timestamps[i] }
            m.hasTimestamps = true
        }
        return m
    }
}
