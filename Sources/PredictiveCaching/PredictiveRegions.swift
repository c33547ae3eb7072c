import Foundation
import OffgridCore
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

    /// The three areas as one map region (features: location circle, route corridor,
    /// destination circle).
    public static func mapRegion(route: [GeoPoint], location: GeoPoint?, distances: Distances) throws -> Region {
        let here = location ?? route[0]
        try Region.checkPosition(here, "--location")
        return try Region(parts: [
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

    /// GeoJSON Feature of `routingPolygons` (canonical numbers once written with `JSONWriter`),
    /// as `routing --region` reads it.
    public static func routingRegionGeoJSON(_ polygons: [GeoPolygon]) -> JSONValue {
        let coordinates = polygons.map { p -> JSONValue in
            .array(p.rings.map { ring in .array(ring.map { [.double($0.lon), .double($0.lat)] }) })
        }
        return ["type": "Feature", "properties": ["source": "tilepack-build predict"],
                "geometry": ["type": "MultiPolygon", "coordinates": .array(coordinates)]]
    }

    /// Radians per degree.
    static let degrees = Double.pi / 180

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
        let d = meters / earthMeanRadiusMeters, t = bearing * degrees
        let phi1 = p.lat * degrees, lambda1 = p.lon * degrees
        let phi2 = asin(min(1, max(-1, sin(phi1) * cos(d) + cos(phi1) * sin(d) * cos(t))))
        let lambda2 = lambda1 + atan2(sin(t) * sin(d) * cos(phi1), cos(d) - sin(phi1) * sin(phi2))
        return GeoPoint(lon: min(180, max(-180, lambda2 / degrees)), lat: min(90, max(-90, phi2 / degrees)))
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
        let lat0 = line.map { abs($0.lat) }.min()! * degrees
        let kx = cos(lat0) * earthMeanRadiusMeters * degrees, ky = earthMeanRadiusMeters * degrees
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
