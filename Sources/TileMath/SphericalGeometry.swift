import Foundation

/// Distances on the sphere of radius `earthMeanRadiusMeters` between points, great-circle arcs
/// and lon/lat rectangles (web-mercator tiles are lon/lat rectangles: two meridians, two
/// parallels). Angles are in radians; callers convert metres with `/ earthMeanRadiusMeters`.
///
/// Every function is closed-form (no sampling), so a tile cover built on them is exact up to
/// floating-point rounding of the distances themselves.
enum Sphere {
    static let degrees = Double.pi / 180

    struct Vec3 {
        var x: Double, y: Double, z: Double
        @inline(__always) static func + (a: Vec3, b: Vec3) -> Vec3 { Vec3(x: a.x + b.x, y: a.y + b.y, z: a.z + b.z) }
        @inline(__always) static func - (a: Vec3, b: Vec3) -> Vec3 { Vec3(x: a.x - b.x, y: a.y - b.y, z: a.z - b.z) }
        @inline(__always) static func * (s: Double, a: Vec3) -> Vec3 { Vec3(x: s * a.x, y: s * a.y, z: s * a.z) }
        @inline(__always) func dot(_ b: Vec3) -> Double { x * b.x + y * b.y + z * b.z }
        @inline(__always) func cross(_ b: Vec3) -> Vec3 {
            Vec3(x: y * b.z - z * b.y, y: z * b.x - x * b.z, z: x * b.y - y * b.x)
        }
        @inline(__always) var length: Double { (x * x + y * y + z * z).squareRoot() }
        @inline(__always) var normalized: Vec3 { let l = length; return Vec3(x: x / l, y: y / l, z: z / l) }
        /// Longitude and latitude in degrees of a unit vector.
        var lonLat: (lon: Double, lat: Double) {
            (atan2(y, x) / Sphere.degrees, atan2(z, (x * x + y * y).squareRoot()) / Sphere.degrees)
        }
    }

    @inline(__always) static func vector(lon: Double, lat: Double) -> Vec3 {
        let l = lon * degrees, p = lat * degrees
        let c = cos(p)
        return Vec3(x: c * cos(l), y: c * sin(l), z: sin(p))
    }

    /// Central angle between two points given in degrees (haversine: accurate for short distances).
    @inline(__always) static func angle(_ lon1: Double, _ lat1: Double, _ lon2: Double, _ lat2: Double) -> Double {
        let s1 = sin((lat2 - lat1) * degrees / 2)
        let s2 = sin((lon2 - lon1) * degrees / 2)
        let h = s1 * s1 + cos(lat1 * degrees) * cos(lat2 * degrees) * s2 * s2
        return 2 * asin(min(1, h.squareRoot()))
    }

    /// Central angle between unit vectors (atan2 form: accurate at every distance).
    @inline(__always) static func angle(_ a: Vec3, _ b: Vec3) -> Double {
        atan2(a.cross(b).length, a.dot(b))
    }

    /// A closed lon/lat rectangle, lon1 − lon0 in (0, 360], lat0 < lat1.
    struct Rect {
        var lon0: Double, lat0: Double, lon1: Double, lat1: Double

        /// Whether `lon` lies in [lon0, lon1] modulo 360.
        @inline(__always) func containsLongitude(_ lon: Double) -> Bool {
            if lon1 - lon0 >= 360 { return true }
            var d = (lon - lon0).truncatingRemainder(dividingBy: 360)
            if d < 0 { d += 360 }
            return d <= lon1 - lon0
        }

        /// Whether `lon` lies strictly inside (lon0, lon1) modulo 360.
        @inline(__always) func containsLongitudeStrictly(_ lon: Double) -> Bool {
            if lon1 - lon0 >= 360 { return true }
            var d = (lon - lon0).truncatingRemainder(dividingBy: 360)
            if d < 0 { d += 360 }
            return d > 0 && d < lon1 - lon0
        }

        @inline(__always) func contains(lon: Double, lat: Double) -> Bool {
            lat >= lat0 && lat <= lat1 && containsLongitude(lon)
        }

        var corners: [(Double, Double)] { [(lon0, lat0), (lon1, lat0), (lon1, lat1), (lon0, lat1)] }
    }

    /// Smallest central angle from the point to the closed rectangle (0 inside).
    static func distance(lon: Double, lat: Double, to r: Rect) -> Double {
        if r.containsLongitude(lon) {
            if lat > r.lat1 { return (lat - r.lat1) * degrees }
            if lat < r.lat0 { return (r.lat0 - lat) * degrees }
            return 0
        }
        // Outside the longitude range the nearest point of either parallel edge is a corner, so
        // the two meridian edges (corners included) decide.
        return min(distance(lon: lon, lat: lat, toMeridian: r.lon0, r.lat0, r.lat1),
                   distance(lon: lon, lat: lat, toMeridian: r.lon1, r.lat0, r.lat1))
    }

    /// Smallest central angle from the point to the meridian segment at `m` between two latitudes.
    /// Along the meridian cos(distance) = R·cos(φ − φ*) with φ* = atan2(sin φc, cos φc·cos Δλ): the
    /// nearest point is φ* when it lies in the segment, else an end.
    static func distance(lon: Double, lat: Double, toMeridian m: Double, _ lat0: Double, _ lat1: Double) -> Double {
        let phi = lat * degrees
        let best = atan2(sin(phi), cos(phi) * cos((lon - m) * degrees)) / degrees
        var d = min(angle(lon, lat, m, lat0), angle(lon, lat, m, lat1))
        if best > lat0 && best < lat1 { d = min(d, angle(lon, lat, m, best)) }
        return d
    }

    /// Largest central angle from the point to the rectangle when every corner is within π/2 and
    /// the antipodal meridian does not cross the rectangle's interior; nil otherwise. (Caps
    /// smaller than a hemisphere are convex and meridian edges are minor arcs, so the corners
    /// then decide; along a parallel the distance grows with the longitude difference.)
    static func maxDistanceIfCornersDecide(lon: Double, lat: Double, to r: Rect) -> Double? {
        var antipode = lon + 180
        if antipode > 180 { antipode -= 360 }
        if r.containsLongitudeStrictly(antipode) { return nil }
        var d = 0.0
        for (cl, cp) in r.corners {
            d = max(d, angle(lon, lat, cl, cp))
        }
        return d < Double.pi / 2 ? d : nil
    }

    /// A minor great-circle arc between two points (the shorter way, never across the
    /// antimeridian: callers refuse segments spanning 180° of longitude or more).
    struct Arc {
        let lonA: Double, latA: Double, lonB: Double, latB: Double
        let a: Vec3, b: Vec3
        /// Unit normal a × b, or nil when the ends coincide (a point).
        let normal: Vec3?
        /// The arc's points of extreme latitude other than its ends (the great circle's
        /// northernmost and southernmost points when they lie on the arc).
        let vertices: [(lon: Double, lat: Double)]
        let minLon: Double, maxLon: Double, minLat: Double, maxLat: Double

        init(lonA: Double, latA: Double, lonB: Double, latB: Double) {
            self.lonA = lonA; self.latA = latA; self.lonB = lonB; self.latB = latB
            a = vector(lon: lonA, lat: latA)
            b = vector(lon: lonB, lat: latB)
            let c = a.cross(b)
            let len = c.length
            var vs: [(lon: Double, lat: Double)] = []
            if len > 1e-15 {
                let n = c.normalized
                normal = n
                // Northernmost point of the great circle: ẑ projected onto its plane.
                let up = Vec3(x: 0, y: 0, z: 1) - n.z * n
                if up.length > 1e-12 {
                    let v = up.normalized
                    for w in [v, -1 * v] where Arc.onArc(w, a, b, n) {
                        let ll = w.lonLat
                        vs.append((ll.lon, ll.lat))
                    }
                }
            } else {
                normal = nil
            }
            vertices = vs
            minLon = min(lonA, lonB); maxLon = max(lonA, lonB)
            var lo = min(latA, latB), hi = max(latA, latB)
            for v in vs { lo = min(lo, v.lat); hi = max(hi, v.lat) }
            minLat = lo; maxLat = hi
        }

        /// Whether a point of the arc's great circle lies between the ends (on the minor arc).
        @inline(__always) static func onArc(_ p: Vec3, _ a: Vec3, _ b: Vec3, _ n: Vec3) -> Bool {
            a.cross(p).dot(n) >= 0 && p.cross(b).dot(n) >= 0
        }

        /// Latitude of the great circle at a longitude (n.z ≠ 0).
        @inline(__always) func latitude(atLon lon: Double, normal n: Vec3) -> Double {
            let l = lon * degrees
            return atan(-(n.x * cos(l) + n.y * sin(l)) / n.z) / degrees
        }

        /// Whether the arc meets the closed rectangle.
        func intersects(_ r: Rect) -> Bool {
            if r.contains(lon: lonA, lat: latA) || r.contains(lon: lonB, lat: latB) { return true }
            guard let n = normal else { return false }
            // The part of the arc within the rectangle's longitudes (longitude is monotonic
            // along a minor arc that does not pass a pole).
            let lo = max(minLon, r.lon0), hi = min(maxLon, r.lon1)
            guard lo <= hi else { return false }
            if abs(n.z) < 1e-15 || minLon == maxLon {
                // A meridian arc: its latitudes at this longitude.
                return minLat <= r.lat1 && maxLat >= r.lat0
            }
            var latLo = latitude(atLon: lo, normal: n), latHi = latLo
            for l in [hi] {
                let v = latitude(atLon: l, normal: n)
                latLo = min(latLo, v); latHi = max(latHi, v)
            }
            for v in vertices where v.lon > lo && v.lon < hi {
                latLo = min(latLo, v.lat); latHi = max(latHi, v.lat)
            }
            return latLo <= r.lat1 && latHi >= r.lat0
        }

        /// Smallest central angle from a point (unit vector) to the arc.
        func distance(to p: Vec3) -> Double {
            guard let n = normal else { return angle(p, a) }
            let s = p.dot(n)
            let foot = p - s * n
            if foot.length > 1e-15, Arc.onArc(foot, a, b, n) {
                return atan2(abs(s), foot.length)
            }
            return min(angle(p, a), angle(p, b))
        }

        /// The point of the arc nearest to `p`.
        func nearestPoint(to p: Vec3) -> Vec3 {
            guard let n = normal else { return a }
            let foot = p - p.dot(n) * n
            if foot.length > 1e-15, Arc.onArc(foot, a, b, n) { return foot.normalized }
            return angle(p, a) <= angle(p, b) ? a : b
        }

        /// Smallest central angle between the arc and the closed rectangle. If they do not meet,
        /// the nearest pair has an arc end, a rectangle corner, or an arc vertex (extreme
        /// latitude) facing a parallel edge: two minor arcs that do not cross are nearest at an
        /// end of one of them, and an interior point of the arc nearest to an interior point of
        /// a parallel is a latitude extremum of the arc.
        func distance(to r: Rect) -> Double {
            if intersects(r) { return 0 }
            var d = min(Sphere.distance(lon: lonA, lat: latA, to: r), Sphere.distance(lon: lonB, lat: latB, to: r))
            for (cl, cp) in r.corners {
                d = min(d, distance(to: vector(lon: cl, lat: cp)))
            }
            for v in vertices {
                d = min(d, Sphere.distance(lon: v.lon, lat: v.lat, to: r))
            }
            return d
        }
    }
}
