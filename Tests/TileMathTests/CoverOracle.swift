import Foundation
import TileMath

/// A deliberately plain, independent answer to "does the shape meet the tile's open interior?"
/// for the cover property tests. It shares no code with `TileCover`: polygon edges are clipped
/// parametrically (Liang–Barsky) instead of by orientation tests, insideness is a floating-point
/// crossing count, and distances come from dense sampling refined by golden-section search
/// instead of closed forms. Answers within `tolerance` of the radius are reported as undecided.
enum CoverOracle {
    typealias Box = (lon0: Double, lat0: Double, lon1: Double, lat1: Double)
    static let R = earthMeanRadiusMeters
    static let rad = Double.pi / 180

    static func box(_ t: TileCoordinate) -> Box {
        let b = WebMercator.bounds(zoom: t.z, x: t.x, y: t.y)
        return (b.minLon, b.minLat, b.maxLon, b.maxLat)
    }

    // MARK: Polygons

    /// Whether the closed segment has a point strictly inside the open box.
    static func segmentInOpenBox(_ a: (Double, Double), _ b: (Double, Double), _ q: Box) -> Bool {
        var lo = 0.0, hi = 1.0
        for (p0, d, m0, m1) in [(a.0, b.0 - a.0, q.lon0, q.lon1), (a.1, b.1 - a.1, q.lat0, q.lat1)] {
            if d == 0 {
                if !(p0 > m0 && p0 < m1) { return false }
                continue
            }
            var t0 = (m0 - p0) / d, t1 = (m1 - p0) / d
            if t0 > t1 { swap(&t0, &t1) }
            lo = max(lo, t0); hi = min(hi, t1)
        }
        return lo < hi || (lo == hi && lo > 0 && lo < 1)
    }

    static func insideRings(_ rings: [[(Double, Double)]], _ x: Double, _ y: Double) -> Bool {
        var crossings = 0
        for ring in rings {
            for i in 0..<(ring.count - 1) {
                let (ax, ay) = ring[i], (bx, by) = ring[i + 1]
                if (ay > y) != (by > y) {
                    let xAtY = ax + (y - ay) / (by - ay) * (bx - ax)
                    if xAtY > x { crossings += 1 }
                }
            }
        }
        return crossings % 2 == 1
    }

    static func polygon(_ rings: [[(Double, Double)]], meets q: Box) -> Bool {
        for ring in rings {
            for i in 0..<(ring.count - 1) where segmentInOpenBox(ring[i], ring[i + 1], q) { return true }
        }
        return insideRings(rings, (q.lon0 + q.lon1) / 2, (q.lat0 + q.lat1) / 2)
    }

    // MARK: Distances

    static func haversine(_ lon1: Double, _ lat1: Double, _ lon2: Double, _ lat2: Double) -> Double {
        let a = sin((lat2 - lat1) * rad / 2), b = sin((lon2 - lon1) * rad / 2)
        return 2 * asin(min(1, (a * a + cos(lat1 * rad) * cos(lat2 * rad) * b * b).squareRoot()))
    }

    /// Minimum over t in [0, 1] of f, by sampling and golden-section refinement of the best samples.
    static func minimize(_ f: (Double) -> Double, samples: Int) -> Double {
        var values: [(Double, Double)] = []
        for i in 0...samples {
            let t = Double(i) / Double(samples)
            values.append((f(t), t))
        }
        var best = values.map(\.0).min()!
        for (_, t) in values.sorted(by: { $0.0 < $1.0 }).prefix(3) {
            var a = max(0, t - 1 / Double(samples)), b = min(1, t + 1 / Double(samples))
            let g = (5.0.squareRoot() - 1) / 2
            var c = b - g * (b - a), d = a + g * (b - a)
            var fc = f(c), fd = f(d)
            for _ in 0..<80 {
                if fc < fd { b = d; d = c; fd = fc; c = b - g * (b - a); fc = f(c) } else { a = c; c = d; fc = fd; d = a + g * (b - a); fd = f(d) }
            }
            best = min(best, fc, fd)
        }
        return best
    }

    /// Distance (radians) from a point to the closed box, by searching each edge.
    static func pointToBox(_ lon: Double, _ lat: Double, _ q: Box) -> Double {
        var inLon = lon >= q.lon0 && lon <= q.lon1
        if q.lon1 - q.lon0 >= 360 { inLon = true }
        if inLon && lat >= q.lat0 && lat <= q.lat1 { return 0 }
        let edges: [(Double) -> (Double, Double)] = [
            { (q.lon0 + $0 * (q.lon1 - q.lon0), q.lat0) }, { (q.lon0 + $0 * (q.lon1 - q.lon0), q.lat1) },
            { (q.lon0, q.lat0 + $0 * (q.lat1 - q.lat0)) }, { (q.lon1, q.lat0 + $0 * (q.lat1 - q.lat0)) },
        ]
        var best = Double.infinity
        for e in edges {
            best = min(best, minimize({ t in let p = e(t); return haversine(lon, lat, p.0, p.1) }, samples: 24))
        }
        return best
    }

    /// Distance (radians) from a point to the closed box by vector geometry: the latitude gap
    /// when the point is within the box's longitudes, else the nearer meridian edge (the foot of
    /// the perpendicular on that meridian's great circle, clamped to the edge, or an end).
    static func pointToBoxByVectors(_ lon: Double, _ lat: Double, _ q: Box) -> Double {
        if (lon >= q.lon0 && lon <= q.lon1) || q.lon1 - q.lon0 >= 360 {
            if lat > q.lat1 { return (lat - q.lat1) * rad }
            if lat < q.lat0 { return (q.lat0 - lat) * rad }
            return 0
        }
        let p = vec(lon, lat)
        var best = Double.infinity
        for m in [q.lon0, q.lon1] {
            best = min(best, haversine(lon, lat, m, q.lat0), haversine(lon, lat, m, q.lat1))
            let n: V = (-sin(m * rad), cos(m * rad), 0)
            let s = p.0 * n.0 + p.1 * n.1 + p.2 * n.2
            let f: V = (p.0 - s * n.0, p.1 - s * n.1, p.2 - s * n.2)
            let footLon = atan2(f.1, f.0) / rad
            var dl = abs(footLon - m).truncatingRemainder(dividingBy: 360)
            if dl > 180 { dl = 360 - dl }
            if dl < 1 {
                let footLat = atan2(f.2, (f.0 * f.0 + f.1 * f.1).squareRoot()) / rad
                best = min(best, haversine(lon, lat, m, min(q.lat1, max(q.lat0, footLat))))
            }
        }
        return best
    }

    typealias V = (Double, Double, Double)
    static func vec(_ lon: Double, _ lat: Double) -> V { (cos(lat * rad) * cos(lon * rad), cos(lat * rad) * sin(lon * rad), sin(lat * rad)) }

    /// Point at fraction t along the minor great-circle arc (slerp).
    static func slerp(_ a: V, _ b: V, _ t: Double) -> (Double, Double) {
        let dot = min(1, max(-1, a.0 * b.0 + a.1 * b.1 + a.2 * b.2))
        let w = acos(dot)
        var p: V
        if w < 1e-12 { p = a } else {
            let s0 = sin((1 - t) * w) / sin(w), s1 = sin(t * w) / sin(w)
            p = (s0 * a.0 + s1 * b.0, s0 * a.1 + s1 * b.1, s0 * a.2 + s1 * b.2)
        }
        return (atan2(p.1, p.0) / rad, atan2(p.2, (p.0 * p.0 + p.1 * p.1).squareRoot()) / rad)
    }

    /// nil when undecided (the distance is within tolerance of the limit).
    static func decide(_ d: Double, limit: Double) -> Bool? {
        if abs(d - limit) < 1e-7 * limit + 1e-12 { return nil }
        return d < limit
    }

    static func circle(lon: Double, lat: Double, radius: Double, meets q: Box) -> Bool? {
        decide(pointToBox(lon, lat, q), limit: radius / R)
    }

    static func corridor(_ line: [GeoPoint], buffer: Double, meets q: Box) -> Bool? {
        let limit = buffer / R
        var best = Double.infinity
        let tileSize = min(q.lon1 - q.lon0, q.lat1 - q.lat0) * rad
        for i in 0..<(line.count - 1) {
            let a = vec(line[i].lon, line[i].lat), b = vec(line[i + 1].lon, line[i + 1].lat)
            let length = haversine(line[i].lon, line[i].lat, line[i + 1].lon, line[i + 1].lat)
            let samples = min(600, max(16, Int(length / max(1e-9, min(tileSize, limit) / 3))))
            best = min(best, minimize({ t in let p = slerp(a, b, t); return pointToBoxByVectors(p.0, p.1, q) }, samples: samples))
            if best < limit * 0.999 { break }
        }
        return decide(best, limit: limit)
    }
}
