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
/// (the scale in longitude depends on how far from the equator such points can be: the
/// caller's `SnapQuery.boundMetersPerDegreeLon(within: stop)`, which its ring search has).
struct ReachScale {
    private let latE7: Int64, lonE7: Int64
    private let e7PerMeterLat: Double, e7PerMeterLon: Double
    private let metersPerE7Lat: Double, metersPerE7Lon: Double
    /// False when a point within `stop` could lie across the antimeridian, where a plain
    /// difference of longitudes overstates the distance: then longitude bounds nothing.
    private let lonBounded: Bool

    init(_ q: SnapQuery, stop: Double) {
        self.init(q, stop: stop, metersPerDegreeLon: q.boundMetersPerDegreeLon(within: stop))
    }

    init(_ q: SnapQuery, stop: Double, metersPerDegreeLon perDegreeLon: Double) {
        latE7 = Int64((q.lat * 1e7).rounded())
        lonE7 = Int64((q.lon * 1e7).rounded())
        e7PerMeterLat = 1e7 / q.boundMetersPerDegreeLat
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
        let rLon = lonBounded && dLon < 4e9 ? Int64(dLon) + 2 : open
        return ReachBox(latLo: latE7 - rLat, latHi: latE7 + rLat, lonLo: lonE7 - rLon, lonHi: lonE7 + rLon)
    }

    /// A lower bound of the distance (m) to any point of a box given in 1e-7 degrees, valid for
    /// points within `stop`; the unit taken off each gap covers the rounding of the query.
    @inline(__always) func lowerBound(toBox b: (south: Int64, north: Int64, west: Int64, east: Int64)) -> Double {
        let dLat = max(0, b.south - latE7 - 1, latE7 - b.north - 1), dLon = max(0, b.west - lonE7 - 1, lonE7 - b.east - 1)
        return max(Double(dLat) * metersPerE7Lat, lonBounded ? Double(dLon) * metersPerE7Lon : 0)
    }
}
