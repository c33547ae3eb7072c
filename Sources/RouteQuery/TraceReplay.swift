import TileMath
import OffgridCore

/// Replays a location trace against a route, as a navigation SDK's location provider would feed
/// it: progress per fix, off-route detection, and a reroute to the original destination from the
/// fix where the driver left the route, which then becomes the route followed.
public struct TraceReplay {
    let service: RouteService
    let fixes: [LocationFix]
    var route: [GeoPoint]
    /// The followed route as JSON, for its steps' instructions.
    let routeJSON: JSONValue
    let destination: (lon: Double, lat: Double)
    let offRouteMeters: Double
    let consecutiveFixes: Int
    let defaults: RouteRequest

    public init(data: RoutingData, routePath: String, tracePath: String, offRouteMeters: Double,
                consecutiveFixes: Int, defaults: RouteRequest, avoiding: AvoidanceMetric? = nil) throws {
        try self.init(data: data, routePath: routePath, fixes: try LocationTrace.read(path: tracePath), offRouteMeters: offRouteMeters,
                      consecutiveFixes: consecutiveFixes, defaults: defaults, avoiding: avoiding)
    }

    /// `avoiding`: reroutes keep off those roads (the fixes are matched to every road: a driver
    /// may be on one).
    public init(data: RoutingData, routePath: String, fixes: [LocationFix], offRouteMeters: Double,
                consecutiveFixes: Int, defaults: RouteRequest, avoiding: AvoidanceMetric? = nil) throws {
        service = try RouteService(data: data, avoiding: avoiding)
        self.fixes = fixes
        (route, destination, routeJSON) = try Self.readRoute(routePath)
        self.offRouteMeters = offRouteMeters
        self.consecutiveFixes = consecutiveFixes
        self.defaults = defaults
    }

    /// The first route of an OSRM route response (polyline6, polyline or GeoJSON geometry)
    /// and its last waypoint.
    static func readRoute(_ path: String) throws -> ([GeoPoint], (lon: Double, lat: Double), JSONValue) {
        guard let bytes = try? FileTools.readFile(path, maxBytes: 1 << 30) else { throw InputError(file: path, "cannot read the route file") }
        guard let json = try? JSONReader.parse(bytes), json.objectValue != nil else {
            throw InputError(file: path, "not a JSON route response")
        }
        guard json["code"]?.stringValue == "Ok", let route = json["routes"]?.arrayValue?.first,
              let last = json["waypoints"]?.arrayValue?.last, let loc = numbers(last["location"]), loc.count == 2 else {
            throw InputError(file: path, "no route in the file (code \(json["code"]?.stringValue ?? "missing"))")
        }
        var points: [GeoPoint]
        if let encoded = route["geometry"]?.stringValue {
            // polyline6 is the default output; fall back to precision 5 if that reads as nonsense.
            let six = try? Polyline.decode(encoded, precision: 6)
            if let six, six.allSatisfy({ abs($0.lat) <= 90 && abs($0.lon) <= 180 }) {
                points = six.map { GeoPoint(lon: $0.lon, lat: $0.lat) }
            } else {
                points = try Polyline.decode(encoded, precision: 5).map { GeoPoint(lon: $0.lon, lat: $0.lat) }
            }
        } else if let coordinates = route["geometry"]?["coordinates"]?.arrayValue,
                  case let pairs = coordinates.compactMap(numbers), pairs.count == coordinates.count {
            points = pairs.filter { $0.count >= 2 }.map { GeoPoint(lon: $0[0], lat: $0[1]) }
        } else {
            throw InputError(file: path, "the route has no geometry (write it with --overview full)")
        }
        guard points.count >= 2 else { throw InputError(file: path, "the route geometry has fewer than two points") }
        return (points, (loc[0], loc[1]), route)
    }

    /// An array of numbers, or nil when it is not one.
    static func numbers(_ value: JSONValue?) -> [Double]? {
        guard let items = value?.arrayValue else { return nil }
        let numbers = items.compactMap(\.doubleValue)
        return numbers.count == items.count ? numbers : nil
    }

    /// The events, in order. `matched[i]`, when given, is fix i's position on the road network
    /// (a map matcher's, nil where it matched nothing): progress and off-route then follow it
    /// instead of the raw fix, so position noise neither moves progress nor looks like a detour.
    public func run(matched: [GeoPoint?]? = nil) -> [TraceEvent] {
        var events: [TraceEvent] = []
        var tracker = RouteProgressTracker(route: route, offRouteMeters: offRouteMeters, consecutiveFixes: consecutiveFixes)
        var instructions = InstructionTimeline(json: routeJSON, geometryMeters: tracker.routeLengthMeters)
        var reroutes = 0
        for (i, fix) in fixes.enumerated() {
            var followed = fix
            let onRoad = matched.flatMap { i < $0.count ? $0[i] : nil }
            if let onRoad { followed.lon = onRoad.lon; followed.lat = onRoad.lat }
            let p = tracker.update(followed)
            let location = LonLat.rounded(lon: fix.lon, lat: fix.lat)
            // Off the route, its instructions no longer apply.
            let due = p.isOffRoute ? (voice: nil, banner: nil) : instructions.due(along: p.distanceAlongMeters)
            events.append(.progress(fix: i, time: fix.time, location: location,
                                    matchedLocation: onRoad.map { LonLat.rounded(lon: $0.lon, lat: $0.lat) },
                                    distanceAlong: round1(p.distanceAlongMeters),
                                    distanceRemaining: round1(p.distanceRemainingMeters),
                                    distanceFromRoute: round1(p.distanceFromRouteMeters), offRoute: p.isOffRoute,
                                    voiceInstruction: due.voice, bannerInstruction: due.banner))
            guard p.offRouteJustDetected else { continue }
            events.append(.offRoute(fix: i, time: fix.time, location: location, distanceFromRoute: round1(p.distanceFromRouteMeters)))
            var request = defaults
            request.coordinates = [(fix.lon, fix.lat), destination]
            request.overview = .full
            request.geometries = .polyline6
            if let course = fix.course { request.bearings = [(course, 60), nil] }
            var answer = service.route(request)
            if answer.response == nil, request.bearings.isEmpty == false {
                request.bearings = []   // the course may point off the road network: try without it
                answer = service.route(request)
            }
            reroutes += 1
            events.append(.reroute(fix: i, time: fix.time, route: answer))
            if let points = answer.response?.routes.first?.geometry?.points {
                tracker.reset(route: points.map { GeoPoint(lon: $0.lon, lat: $0.lat) })
                instructions = InstructionTimeline(route: answer.response!.routes[0], geometryMeters: tracker.routeLengthMeters)
            }
        }
        events.append(.done(fixes: fixes.count, reroutes: reroutes))
        return events
    }
}
