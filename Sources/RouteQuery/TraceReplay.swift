import Foundation
import TileMath
import OffgridCore

/// Replays a location trace against a route, as a navigation SDK's location provider would feed
/// it: progress per fix, off-route detection, and a reroute to the original destination from the
/// fix where the driver left the route, which then becomes the route followed.
public struct TraceReplay {
    let service: RouteService
    let fixes: [LocationFix]
    var route: [GeoPoint]
    let destination: (lon: Double, lat: Double)
    let offRouteMeters: Double
    let consecutiveFixes: Int
    let defaults: RouteRequest

    public init(data: RoutingData, routePath: String, tracePath: String, offRouteMeters: Double,
                consecutiveFixes: Int, defaults: RouteRequest) throws {
        service = try RouteService(data: data)
        fixes = try LocationTrace.read(path: tracePath)
        (route, destination) = try Self.readRoute(routePath)
        self.offRouteMeters = offRouteMeters
        self.consecutiveFixes = consecutiveFixes
        self.defaults = defaults
    }

    /// The first route of an OSRM route response (polyline6, polyline or GeoJSON geometry)
    /// and its last waypoint.
    static func readRoute(_ path: String) throws -> ([GeoPoint], (lon: Double, lat: Double)) {
        guard let data = FileManager.default.contents(atPath: path) else { throw InputError(file: path, "cannot read the route file") }
        guard let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw InputError(file: path, "not a JSON route response")
        }
        guard json["code"] as? String == "Ok", let route = (json["routes"] as? [[String: Any]])?.first,
              let last = (json["waypoints"] as? [[String: Any]])?.last, let loc = last["location"] as? [NSNumber], loc.count == 2 else {
            throw InputError(file: path, "no route in the file (code \(json["code"] as? String ?? "missing"))")
        }
        var points: [GeoPoint]
        if let encoded = route["geometry"] as? String {
            // polyline6 is the default output; fall back to precision 5 if that reads as nonsense.
            let six = try? Polyline.decode(encoded, precision: 6)
            if let six, six.allSatisfy({ abs($0.lat) <= 90 && abs($0.lon) <= 180 }) {
                points = six.map { GeoPoint(lon: $0.lon, lat: $0.lat) }
            } else {
                points = try Polyline.decode(encoded, precision: 5).map { GeoPoint(lon: $0.lon, lat: $0.lat) }
            }
        } else if let g = route["geometry"] as? [String: Any], let coords = g["coordinates"] as? [[NSNumber]] {
            points = coords.filter { $0.count >= 2 }.map { GeoPoint(lon: $0[0].doubleValue, lat: $0[1].doubleValue) }
        } else {
            throw InputError(file: path, "the route has no geometry (write it with --overview full)")
        }
        guard points.count >= 2 else { throw InputError(file: path, "the route geometry has fewer than two points") }
        return (points, (loc[0].doubleValue, loc[1].doubleValue))
    }

    /// NDJSON events, in order.
    public func run() -> [[String: Any]] {
        var events: [[String: Any]] = []
        var tracker = RouteProgressTracker(route: route, offRouteMeters: offRouteMeters, consecutiveFixes: consecutiveFixes)
        var reroutes = 0
        for (i, fix) in fixes.enumerated() {
            let p = tracker.update(fix)
            events.append(["event": "progress", "fix": i, "time": fix.time, "location": [round6(fix.lon), round6(fix.lat)],
                           "distanceAlong": round1(p.distanceAlongMeters), "distanceRemaining": round1(p.distanceRemainingMeters),
                           "distanceFromRoute": round1(p.distanceFromRouteMeters), "offRoute": p.isOffRoute])
            guard p.offRouteJustDetected else { continue }
            events.append(["event": "off-route", "fix": i, "time": fix.time, "location": [round6(fix.lon), round6(fix.lat)],
                           "distanceFromRoute": round1(p.distanceFromRouteMeters)])
            var request = defaults
            request.coordinates = [(fix.lon, fix.lat), destination]
            request.overview = .full
            request.geometries = .polyline6
            if let course = fix.course { request.bearings = [(course, 60), nil] }
            var response = service.route(request)
            if response["code"] as? String != "Ok", request.bearings.isEmpty == false {
                request.bearings = []   // the course may point off the road network: try without it
                response = service.route(request)
            }
            reroutes += 1
            events.append(["event": "reroute", "fix": i, "time": fix.time, "route": response])
            if let r = (response["routes"] as? [[String: Any]])?.first, let points = Self.points(r["geometry"]) {
                tracker.reset(route: points)
            }
        }
        events.append(["event": "done", "fixes": fixes.count, "reroutes": reroutes])
        return events
    }

    static func points(_ geometry: Any?) -> [GeoPoint]? {
        if let s = geometry as? String, let p = try? Polyline.decode(s, precision: 6) { return p.map { GeoPoint(lon: $0.lon, lat: $0.lat) } }
        if let g = geometry as? [String: Any], let c = g["coordinates"] as? [[Double]] { return c.map { GeoPoint(lon: $0[0], lat: $0[1]) } }
        return nil
    }
}
