import Foundation
import TileMath

/// Predictive caching: the areas a driver is likely to need next, derived from the route being
/// driven — a circle around the current location, a corridor along the route and a circle
/// around the destination — for map packs (exact shapes) and for routing packs (a MultiPolygon
/// containing them, since routing regions are polygons).
public enum PredictiveRegions {
    public struct Distances: Sendable {
        public var locationRadius: Double
        public var routeBuffer: Double
        public var destinationRadius: Double

        public init(locationRadius: Double = 2_000, routeBuffer: Double = 500, destinationRadius: Double = 5_000) {
            self.locationRadius = locationRadius
            self.routeBuffer = routeBuffer
            self.destinationRadius = destinationRadius
        }
    }

    /// The route's positions from GeoJSON (a LineString or MultiLineString geometry, Feature or
    /// FeatureCollection) or an OSRM route response (`routes[0].geometry` as GeoJSON or as an
    /// encoded polyline; `polylinePrecision` nil = 5, or 6 when 5 gives impossible coordinates).
    public static func parseRoute(_ text: String, polylinePrecision: Int? = nil) throws -> [GeoPoint] {
        guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)), let root = object as? [String: Any] else {
            throw GeometryError("route is not a JSON object (GeoJSON or an OSRM route response)")
        }
        var points: [GeoPoint] = []
        if let routes = root["routes"] as? [Any] {
            guard let first = routes.first as? [String: Any] else { throw GeometryError("OSRM response has no route") }
            if let encoded = first["geometry"] as? String {
                points = try decodePolyline(encoded, precision: polylinePrecision)
            } else if let g = first["geometry"] as? [String: Any] {
                points = try lineStrings(g).flatMap { $0 }
            } else {
                throw GeometryError("the OSRM route has no geometry (ask for overview=full)")
            }
        } else {
            switch root["type"] as? String {
            case "FeatureCollection":
                for f in root["features"] as? [Any] ?? [] {
                    if let g = (f as? [String: Any])?["geometry"] as? [String: Any] { points += try lineStrings(g).flatMap { $0 } }
                }
            case "Feature":
                guard let g = root["geometry"] as? [String: Any] else { throw GeometryError("route Feature has no geometry") }
                points = try lineStrings(g).flatMap { $0 }
            default:
                points = try lineStrings(root).flatMap { $0 }
            }
        }
        // Consecutive duplicates say nothing about the route.
        var route: [GeoPoint] = []
        for p in points where route.last != p { route.append(p) }
        guard route.count >= 2 else { throw GeometryError("route has fewer than 2 distinct positions") }
        for (i, p) in route.enumerated() { try MapRegion.checkPosition(p, "route position \(i)") }
        for i in 1..<route.count where abs(route[i].lon - route[i - 1].lon) >= 180 {
            throw GeometryError("route segment \(i - 1) spans 180° of longitude or more")
        }
        return route
    }

    static func lineStrings(_ g: [String: Any]) throws -> [[GeoPoint]] {
        func line(_ v: Any?) throws -> [GeoPoint] {
            guard let list = v as? [Any] else { throw GeometryError("route coordinates are not an array") }
            return try list.map { item in
                guard let n = item as? [Any], n.count >= 2, let lon = MapRegion.number(n[0]), let lat = MapRegion.number(n[1]) else {
                    throw GeometryError("route position is not [longitude, latitude]")
                }
                return GeoPoint(lon: lon, lat: lat)
            }
        }
        switch g["type"] as? String {
        case "LineString": return [try line(g["coordinates"])]
        case "MultiLineString": return try (g["coordinates"] as? [Any] ?? []).map(line)
        case let t: throw GeometryError("route geometry must be a LineString or MultiLineString, not \(t ?? "untyped")")
        }
    }

    /// Google's encoded polyline (lat first), as OSRM writes `polyline` (5) and `polyline6` (6).
    public static func decodePolyline(_ text: String, precision: Int?) throws -> [GeoPoint] {
        func decode(_ precision: Int) throws -> [GeoPoint] {
            let bytes = Array(text.utf8)
            var i = 0, lat = 0, lon = 0
            var out: [GeoPoint] = []
            func next() throws -> Int {
                var result = 0, shift = 0
                while true {
                    guard i < bytes.count else { throw GeometryError("polyline is truncated") }
                    let b = Int(bytes[i]) - 63
                    i += 1
                    guard b >= 0, b < 64, shift < 60 else { throw GeometryError("polyline has an invalid character") }
                    result |= (b & 0x1f) << shift
                    shift += 5
                    if b < 0x20 { break }
                }
                return (result & 1) != 0 ? ~(result >> 1) : (result >> 1)
            }
            let factor = pow(10, Double(precision))
            while i < bytes.count {
                lat += try next()
                lon += try next()
                out.append(GeoPoint(lon: Double(lon) / factor, lat: Double(lat) / factor))
            }
            return out
        }
        if let precision { return try decode(precision) }
        let five = try decode(5)
        if five.allSatisfy({ abs($0.lat) <= 90 && abs($0.lon) <= 180 }) { return five }
        return try decode(6)
    }

    /// The three areas as one map region (features: location circle, route corridor,
    /// destination circle).
    public static func mapRegion(route: [GeoPoint], location: GeoPoint?, distances: Distances) throws -> MapRegion {
        let here = location ?? route[0]
        try MapRegion.checkPosition(here, "--location")
        return try MapRegion(parts: [
            .init(geometryType: "Point", shapes: [.circle(center: here, radiusMeters: distances.locationRadius)]),
            .init(geometryType: "LineString", shapes: [.corridor(line: route, bufferMeters: distances.routeBuffer)]),
            .init(geometryType: "Point", shapes: [.circle(center: route[route.count - 1], radiusMeters: distances.destinationRadius)]),
        ])
    }

    /// A MultiPolygon (straight lon/lat edges) containing the three areas, for
    /// `tilepack-build routing --region`: circles become circumscribed 32-gons, the corridor
    /// one capsule (convex hull of two circumscribed 16-gons) per segment of the route
    /// simplified within a tenth of the buffer (the buffer grows by that tolerance). Every
    /// radius gets a 1 % + 1 m margin, so the polygons contain the curved shapes.
    public static func routingPolygons(route: [GeoPoint], location: GeoPoint?, distances: Distances) throws -> [GeoPolygon] {
        let here = location ?? route[0]
        var polygons: [GeoPolygon] = []
        polygons.append(try polygon(circle(here, distances.locationRadius, sides: 32)))
        let tolerance = distances.routeBuffer / 10
        let simplified = simplify(route, toleranceMeters: tolerance)
        let buffer = distances.routeBuffer + tolerance
        for i in 0..<(simplified.count - 1) {
            let hull = convexHull(circle(simplified[i], buffer, sides: 16) + circle(simplified[i + 1], buffer, sides: 16))
            polygons.append(try polygon(hull))
        }
        polygons.append(try polygon(circle(route[route.count - 1], distances.destinationRadius, sides: 32)))
        return polygons
    }

    /// GeoJSON Feature text of `routingPolygons` (canonical numbers), as `routing --region` reads it.
    public static func routingRegionGeoJSON(_ polygons: [GeoPolygon]) -> [String: Any] {
        let coordinates = polygons.map { p in p.rings.map { ring in ring.map { [$0.lon, $0.lat] } } }
        return ["type": "Feature", "properties": ["source": "tilepack-build predict"],
                "geometry": ["type": "MultiPolygon", "coordinates": coordinates]]
    }

    static func polygon(_ points: [GeoPoint]) throws -> GeoPolygon {
        try GeoPolygon(rings: [points + [points[0]]])
    }

    /// Vertices of a polygon circumscribing the circle (vertex distance r / cos(π/n), plus margin),
    /// counter-clockwise from east.
    static func circle(_ c: GeoPoint, _ radius: Double, sides: Int) -> [GeoPoint] {
        let r = (radius * 1.01 + 1) / cos(Double.pi / Double(sides))
        return (0..<sides).map { k in
            destination(c, bearing: 90 - Double(k) * 360 / Double(sides), meters: r)
        }
    }

    /// The point `meters` from `p` along the great circle leaving at `bearing` (degrees from north).
    static func destination(_ p: GeoPoint, bearing: Double, meters: Double) -> GeoPoint {
        let d = meters / earthMeanRadiusMeters, t = bearing * Sphere.degrees
        let phi1 = p.lat * Sphere.degrees, lambda1 = p.lon * Sphere.degrees
        let phi2 = asin(min(1, max(-1, sin(phi1) * cos(d) + cos(phi1) * sin(d) * cos(t))))
        let lambda2 = lambda1 + atan2(sin(t) * sin(d) * cos(phi1), cos(d) - sin(phi1) * sin(phi2))
        return GeoPoint(lon: min(180, max(-180, lambda2 / Sphere.degrees)), lat: min(90, max(-90, phi2 / Sphere.degrees)))
    }

    /// Andrew's monotone chain, counter-clockwise, in lon/lat.
    static func convexHull(_ points: [GeoPoint]) -> [GeoPoint] {
        let p = points.sorted { ($0.lon, $0.lat) < ($1.lon, $1.lat) }
        guard p.count > 2 else { return p }
        func cross(_ o: GeoPoint, _ a: GeoPoint, _ b: GeoPoint) -> Double {
            (a.lon - o.lon) * (b.lat - o.lat) - (a.lat - o.lat) * (b.lon - o.lon)
        }
        var lower: [GeoPoint] = [], upper: [GeoPoint] = []
        for q in p {
            while lower.count >= 2 && cross(lower[lower.count - 2], lower[lower.count - 1], q) <= 0 { lower.removeLast() }
            lower.append(q)
        }
        for q in p.reversed() {
            while upper.count >= 2 && cross(upper[upper.count - 2], upper[upper.count - 1], q) <= 0 { upper.removeLast() }
            upper.append(q)
        }
        return Array(lower.dropLast() + upper.dropLast())
    }

    /// Douglas–Peucker in an equirectangular projection (metres) scaled for the line's latitude
    /// nearest the equator, so projected distances never understate ground distances.
    static func simplify(_ line: [GeoPoint], toleranceMeters: Double) -> [GeoPoint] {
        guard line.count > 2 else { return line }
        let lat0 = line.map { abs($0.lat) }.min()! * Sphere.degrees
        let kx = cos(lat0) * earthMeanRadiusMeters * Sphere.degrees, ky = earthMeanRadiusMeters * Sphere.degrees
        let xy = line.map { ($0.lon * kx, $0.lat * ky) }
        var keep = [Bool](repeating: false, count: line.count)
        keep[0] = true
        keep[line.count - 1] = true
        var stack = [(0, line.count - 1)]
        while let (a, b) = stack.popLast() {
            guard b > a + 1 else { continue }
            let (ax, ay) = xy[a], (bx, by) = xy[b]
            let dx = bx - ax, dy = by - ay, len2 = dx * dx + dy * dy
            var worst = -1.0, worstIndex = a
            for i in (a + 1)..<b {
                let (px, py) = xy[i]
                var t = len2 > 0 ? ((px - ax) * dx + (py - ay) * dy) / len2 : 0
                t = min(1, max(0, t))
                let ex = ax + t * dx - px, ey = ay + t * dy - py
                let d = (ex * ex + ey * ey).squareRoot()
                if d > worst { worst = d; worstIndex = i }
            }
            if worst > toleranceMeters {
                keep[worstIndex] = true
                stack.append((a, worstIndex))
                stack.append((worstIndex, b))
            }
        }
        return zip(line, keep).filter(\.1).map(\.0)
    }
}
