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

/// A box around a query in the shape's own units (1e-7 degrees) outside which every point is
/// farther than a given distance. A segment with both ends beyond one side of it cannot hold a
/// nearer point, so it is skipped on four integer comparisons; once a near road is known that
/// is most segments of a cell, and projecting each one was most of a snap's time.
struct ReachBox {
    let latLo: Int64, latHi: Int64, lonLo: Int64, lonHi: Int64

    /// Whether segment a → b lies wholly beyond one side (a degenerate one included).
    @inline(__always) func excludes(aLat: Int32, aLon: Int32, bLat: Int32, bLon: Int32) -> Bool {
        let aLat = Int64(aLat), aLon = Int64(aLon), bLat = Int64(bLat), bLon = Int64(bLon)
        return (aLat < latLo && bLat < latLo) || (aLat > latHi && bLat > latHi)
            || (aLon < lonLo && bLon < lonLo) || (aLon > lonHi && bLon > lonHi)
    }
}

/// Turns distances into `ReachBox`es around one query, for points within `stop` metres of it
/// (the scale in longitude depends on how far from the equator such points can be).
struct ReachScale {
    private let latE7: Int64, lonE7: Int64
    private let e7PerMeterLat: Double, e7PerMeterLon: Double
    private let metersPerE7Lat: Double, metersPerE7Lon: Double
    /// False when a point within `stop` could lie across the antimeridian, where a plain
    /// difference of longitudes overstates the distance: then longitude bounds nothing.
    private let lonBounded: Bool

    init(_ q: SnapQuery, stop: Double) {
        latE7 = Int64((q.lat * 1e7).rounded())
        lonE7 = Int64((q.lon * 1e7).rounded())
        e7PerMeterLat = 1e7 / q.boundMetersPerDegreeLat
        let perDegreeLon = q.boundMetersPerDegreeLon(within: stop)
        e7PerMeterLon = perDegreeLon > 0 ? 1e7 / perDegreeLon : .infinity
        metersPerE7Lat = q.boundMetersPerDegreeLat * 1e-7
        metersPerE7Lon = perDegreeLon * 1e-7
        let reach = stop * e7PerMeterLon
        lonBounded = reach < 4e9 && Double(lonE7) - reach > -1.8e9 && Double(lonE7) + reach < 1.8e9
    }

    /// The box of points possibly within `meters` (at most `stop`): the degree bounds never
    /// overestimate a distance, and two units of margin cover the rounding of the query.
    @inline(__always) func box(within meters: Double) -> ReachBox {
        let open: Int64 = 1 << 40   // beyond any coordinate: that side excludes nothing
        let dLat = meters * e7PerMeterLat, dLon = meters * e7PerMeterLon
        let rLat = dLat < 4e9 ? Int64(dLat) + 2 : open
        var rLon = dLon < 4e9 ? Int64(dLon) + 2 : open
        // Across the antimeridian a plain difference of longitudes overstates the distance.
        if lonE7 - rLon < -1_800_000_000 || lonE7 + rLon > 1_800_000_000 { rLon = open }
        return ReachBox(latLo: latE7 - rLat, latHi: latE7 + rLat, lonLo: lonE7 - rLon, lonHi: lonE7 + rLon)
    }

    /// A lower bound of the distance (m) to any point of a box given in 1e-7 degrees, valid for
    /// points within `stop`; the unit taken off each gap covers the rounding of the query.
    @inline(__always) func lowerBound(toBox b: (south: Int64, north: Int64, west: Int64, east: Int64)) -> Double {
        let dLat = max(0, b.south - latE7 - 1, latE7 - b.north - 1), dLon = max(0, b.west - lonE7 - 1, lonE7 - b.east - 1)
        return max(Double(dLat) * metersPerE7Lat, lonBounded ? Double(dLon) * metersPerE7Lon : 0)
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
