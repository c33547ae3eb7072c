#if canImport(Glibc)
import Glibc
#endif
import TileMath

/// A local equirectangular projection around a point: metres east and north of it. Within a
/// few kilometres its distances are within 0.1 % of the great circle — enough to find the
/// closest point of a segment; callers measure the distance to it with haversine.
struct LocalProjection {
    let lon0: Double, lat0: Double
    let metersPerDegreeLon: Double, metersPerDegreeLat: Double

    init(lon: Double, lat: Double) {
        lon0 = lon
        lat0 = lat
        metersPerDegreeLat = earthMeanRadiusMeters * Double.pi / 180
        metersPerDegreeLon = metersPerDegreeLat * cos(lat * Double.pi / 180)
    }

    /// The closest point of segment a → b to the origin: its fraction t along the segment
    /// and its squared projected distance (m²).
    @inline(__always) func closest(aLon: Double, aLat: Double, bLon: Double, bLat: Double) -> (t: Double, squaredMeters: Double) {
        let ax = (aLon - lon0) * metersPerDegreeLon, ay = (aLat - lat0) * metersPerDegreeLat
        let dx = (bLon - aLon) * metersPerDegreeLon, dy = (bLat - aLat) * metersPerDegreeLat
        let lengthSquared = dx * dx + dy * dy
        let t = lengthSquared > 0 ? min(1, max(0, -(ax * dx + ay * dy) / lengthSquared)) : 0
        let px = ax + t * dx, py = ay + t * dy
        return (t, px * px + py * py)
    }
}

/// One query's fixed inputs.
struct SnapQuery {
    let lon: Double, lat: Double
    let point: GeoPoint
    let limit: Double
    let bearing: (degrees: Double, range: Double)?
    let projection: LocalProjection
    /// Metres per degree of latitude, a little under, so it never overestimates a distance.
    let boundMetersPerDegreeLat: Double
    /// Relative error of the local projection per metre from the query: 2 tan(lat) / R.
    let projectionDrift: Double

    /// Metres per degree of longitude that never overestimate the great-circle distance to a
    /// point within `d` metres: the cosine at the latitude farthest from the equator it can
    /// have. Bounded by the current best rather than the radius, so an unlimited radius does
    /// not make every column look close.
    func boundMetersPerDegreeLon(within d: Double) -> Double {
        let reachDegrees = min(90, abs(lat) + min(d, 2e7) / (earthMeanRadiusMeters * Double.pi / 180))
        return boundMetersPerDegreeLat * max(0, cos(reachDegrees * Double.pi / 180))
    }

    init?(lon: Double, lat: Double, radiusMeters: Double?, bearing: (degrees: Double, range: Double)?) {
        guard lon.isFinite, lat.isFinite, abs(lon) <= 180, abs(lat) <= 90 else { return nil }
        let limit = radiusMeters ?? Snapper.defaultSearchCapMeters
        guard limit >= 0, !limit.isNaN else { return nil }
        if let bearing, !(bearing.degrees.isFinite && bearing.range.isFinite) { return nil }
        self.lon = lon
        self.lat = lat
        point = GeoPoint(lon: lon, lat: lat)
        self.limit = limit
        // A range of 180° or more lets every direction through: no filter.
        self.bearing = bearing.flatMap { $0.range >= 180 ? nil : $0 }
        projection = LocalProjection(lon: lon, lat: lat)
        // 0.999: the sphere's great circles are a hair shorter than these straight-line figures.
        boundMetersPerDegreeLat = earthMeanRadiusMeters * Double.pi / 180 * 0.999
        projectionDrift = 2 * tan(min(89, abs(lat)) * Double.pi / 180) / earthMeanRadiusMeters
    }
}

/// A set of edge ids for one query at a time: open addressing with a query stamp per slot, so
/// starting a new query clears nothing and memory follows the largest query, not the graph
/// (an array of stamps per edge would cost 4 bytes × edges for every Snapper).
final class EdgeVisitSet {
    private var keys: UnsafeMutableBufferPointer<UInt32>
    private var stamps: UnsafeMutableBufferPointer<UInt32>
    private var stamp: UInt32 = 0
    private var count = 0
    private var shift: UInt32 = 32 - 10

    init() {
        keys = .allocate(capacity: 1 << 10)
        keys.initialize(repeating: 0)
        stamps = .allocate(capacity: 1 << 10)
        stamps.initialize(repeating: 0)
    }

    deinit {
        keys.deallocate()
        stamps.deallocate()
    }

    func startQuery() {
        count = 0
        if stamp == UInt32.max {
            stamps.update(repeating: 0)
            stamp = 0
        }
        stamp += 1
    }

    /// Adds e; false when it was already there this query.
    @inline(__always) func insert(_ e: UInt32) -> Bool {
        let mask = keys.count - 1
        // Fibonacci hashing: the top bits of e × 2³²/φ.
        var i = Int((e &* 0x9E37_79B9) >> shift)
        while stamps[i] == stamp {
            if keys[i] == e { return false }
            i = (i + 1) & mask
        }
        keys[i] = e
        stamps[i] = stamp
        count += 1
        if count * 2 > keys.count { grow() }
        return true
    }

    /// Doubles the table, keeping this query's entries.
    private func grow() {
        let oldKeys = keys, oldStamps = stamps
        keys = .allocate(capacity: oldKeys.count * 2)
        keys.initialize(repeating: 0)
        stamps = .allocate(capacity: oldKeys.count * 2)
        stamps.initialize(repeating: 0)
        shift -= 1
        let current = stamp
        stamp = 1
        count = 0
        for i in 0..<oldKeys.count where oldStamps[i] == current { _ = insert(oldKeys[i]) }
        oldKeys.deallocate()
        oldStamps.deallocate()
    }
}
