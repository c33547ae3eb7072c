/// A polygon with optional holes: `rings[0]` is the outer boundary, the rest are holes. Every
/// ring is closed (first position == last) and has at least 4 positions.
///
/// Inside is decided by the even-odd rule over all rings, and the rings themselves belong to the
/// polygon (it is a closed set), so ring orientation does not matter.
public struct GeoPolygon: Hashable, Sendable {
    public let rings: [[GeoPoint]]
    public let bbox: BBox

    /// Validates ring closure, length and coordinate ranges.
    public init(rings: [[GeoPoint]]) throws {
        try self.init(rings: rings, location: RegionLocation())
    }

    init(rings: [[GeoPoint]], location: RegionLocation) throws {
        guard !rings.isEmpty else { throw GeometryError("\(location.polygonPhrase) has no rings") }
        for (r, ring) in rings.enumerated() {
            let ringName = location.ring(r)
            guard ring.count >= 4 else {
                throw GeometryError("\(ringName) has \(ring.count) position\(ring.count == 1 ? "" : "s"); a closed ring needs at least 4")
            }
            for (i, p) in ring.enumerated() {
                guard p.lon.isFinite, p.lat.isFinite else {
                    throw GeometryError("position \(i) of \(ringName) is not a finite number")
                }
                guard abs(p.lon) <= 180 else {
                    throw GeometryError("position \(i) of \(ringName): longitude \(shortestDecimal(p.lon)) is outside -180…180")
                }
                guard abs(p.lat) <= 90 else {
                    throw GeometryError("position \(i) of \(ringName): latitude \(shortestDecimal(p.lat)) is outside -90…90")
                }
            }
            guard ring[0] == ring[ring.count - 1] else {
                throw GeometryError("\(ringName) is not closed (first and last positions differ)")
            }
        }
        self.rings = rings
        var box = BBox(minLon: rings[0][0].lon, minLat: rings[0][0].lat, maxLon: rings[0][0].lon, maxLat: rings[0][0].lat)
        for ring in rings {
            for p in ring {
                box.minLon = min(box.minLon, p.lon); box.maxLon = max(box.maxLon, p.lon)
                box.minLat = min(box.minLat, p.lat); box.maxLat = max(box.maxLat, p.lat)
            }
        }
        bbox = box
    }
}

/// The geometry of one region feature.
public enum RegionGeometry: Hashable, Sendable {
    case polygon(GeoPolygon)
    case multiPolygon([GeoPolygon])

    public var polygons: [GeoPolygon] {
        switch self {
        case .polygon(let p): return [p]
        case .multiPolygon(let ps): return ps
        }
    }
}

/// An area to build routing tiles for: the union of one or more polygons, in planar lon/lat.
///
/// Regions do not wrap across the antimeridian (split such areas into two polygons at ±180).
public struct Region: Sendable {
    /// One entry per input feature (a bare geometry or Feature gives one), in input order.
    public let geometries: [RegionGeometry]
    /// All polygons of all geometries; the region is their union.
    public let polygons: [GeoPolygon]
    public let bbox: BBox
    /// The geometry as canonical compact GeoJSON: keys sorted, no whitespace, shortest exact
    /// numbers, altitudes dropped. One geometry is written as itself (Polygon or MultiPolygon);
    /// several features as one MultiPolygon of all their polygons. Equal regions give equal text.
    public let geoJSON: String
    /// The polygons in the flat form the exact predicates use, built once.
    let flatPolygons: [FlatPolygon]

    public init(geometries: [RegionGeometry]) throws {
        let polygons = geometries.flatMap(\.polygons)
        guard let first = polygons.first else { throw GeometryError("region has no polygons") }
        self.geometries = geometries
        self.polygons = polygons
        self.bbox = polygons.dropFirst().reduce(first.bbox) { $0.union($1.bbox) }
        self.geoJSON = Region.canonicalGeoJSON(geometries)
        self.flatPolygons = polygons.map(FlatPolygon.init)
    }

    /// The rectangle as a one-polygon region (counter-clockwise outer ring, as RFC 7946 asks).
    /// The box must hold valid coordinates (see `BBox.init(parsing:)`).
    public init(bbox: BBox) throws {
        let ring = [GeoPoint(lon: bbox.minLon, lat: bbox.minLat), GeoPoint(lon: bbox.maxLon, lat: bbox.minLat),
                    GeoPoint(lon: bbox.maxLon, lat: bbox.maxLat), GeoPoint(lon: bbox.minLon, lat: bbox.maxLat),
                    GeoPoint(lon: bbox.minLon, lat: bbox.minLat)]
        try self.init(geometries: [.polygon(try GeoPolygon(rings: [ring]))])
    }

    /// Whether the point is in the region; points on a boundary ring count as inside.
    public func contains(_ point: GeoPoint) -> Bool {
        guard point.lon.isFinite, point.lat.isFinite, bbox.contains(point) else { return false }
        return flatPolygons.contains { $0.contains(point.lon, point.lat) }
    }

    static func canonicalGeoJSON(_ geometries: [RegionGeometry]) -> String {
        func ring(_ r: [GeoPoint]) -> String {
            "[" + r.map { "[\(shortestDecimal($0.lon)),\(shortestDecimal($0.lat))]" }.joined(separator: ",") + "]"
        }
        func polygon(_ p: GeoPolygon) -> String { "[" + p.rings.map(ring).joined(separator: ",") + "]" }
        if geometries.count == 1, case .polygon(let p) = geometries[0] {
            return "{\"coordinates\":\(polygon(p)),\"type\":\"Polygon\"}"
        }
        let all = geometries.flatMap(\.polygons)
        return "{\"coordinates\":[\(all.map(polygon).joined(separator: ","))],\"type\":\"MultiPolygon\"}"
    }
}

/// Where in a GeoJSON document a polygon or ring is, for error messages such as
/// "polygon ring 0 of feature 2 is not closed" or "ring 1 of polygon 3 of feature 0 …".
struct RegionLocation {
    var feature: Int?
    var polygon: Int?

    private var featureSuffix: String { feature.map { " of feature \($0)" } ?? "" }

    var polygonPhrase: String {
        (polygon.map { "polygon \($0)" } ?? "polygon") + featureSuffix
    }

    func ring(_ index: Int) -> String {
        if let polygon { return "ring \(index) of polygon \(polygon)" + featureSuffix }
        return "polygon ring \(index)" + featureSuffix
    }
}
