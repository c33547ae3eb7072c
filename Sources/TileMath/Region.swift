import Foundation
import OffgridCore

/// An area on the ground: the union of polygons (edges straight in lon/lat, as GeoJSON has
/// them), circles around points and corridors along lines, with radii and buffers measured in
/// metres on the ground (great-circle distance on the sphere of radius `earthMeanRadiusMeters`;
/// a line's segments are great-circle arcs).
///
/// The one region model: map packs, predictive caching and the store use it as it is; routing
/// packs take its polygon-only form, `PolygonRegion`.
public struct Region: Sendable {
    public enum Shape: Hashable, Sendable {
        case polygon(GeoPolygon)
        /// All points within `radiusMeters` of the centre.
        case circle(center: GeoPoint, radiusMeters: Double)
        /// All points within `bufferMeters` of the line (≥ 2 positions).
        case corridor(line: [GeoPoint], bufferMeters: Double)
    }

    /// One input geometry (a feature) and the shapes it became, in input order.
    public struct Part: Hashable, Sendable {
        /// The GeoJSON geometry type: Point, MultiPoint, LineString, MultiLineString, Polygon or MultiPolygon.
        public var geometryType: String
        public var shapes: [Shape]

        public init(geometryType: String, shapes: [Shape]) {
            self.geometryType = geometryType
            self.shapes = shapes
        }
    }

    public let parts: [Part]
    public var shapes: [Shape] { parts.flatMap(\.shapes) }

    /// Radii and buffers are limited so that every circle stays well within a hemisphere.
    public static let maxDistanceMeters = 2_000_000.0

    public init(parts: [Part]) throws {
        guard parts.contains(where: { !$0.shapes.isEmpty }) else { throw GeometryError("region has no geometry") }
        for part in parts {
            for shape in part.shapes {
                switch shape {
                case .polygon: break
                case .circle(_, let r):
                    guard r.isFinite, r > 0, r <= Region.maxDistanceMeters else {
                        throw GeometryError("radius \(shortestDecimal(r)) m must be more than 0 and at most \(Int(Region.maxDistanceMeters)) m")
                    }
                case .corridor(let line, let b):
                    guard b.isFinite, b > 0, b <= Region.maxDistanceMeters else {
                        throw GeometryError("buffer \(shortestDecimal(b)) m must be more than 0 and at most \(Int(Region.maxDistanceMeters)) m")
                    }
                    guard line.count >= 2 else { throw GeometryError("a line needs at least 2 positions") }
                }
            }
        }
        self.parts = parts
    }

    /// A rectangle (as a polygon, counter-clockwise outer ring as RFC 7946 asks). The box must
    /// hold valid coordinates (see `BBox.init(parsing:)`).
    public static func bbox(_ box: BBox) throws -> Region {
        let ring = [GeoPoint(lon: box.minLon, lat: box.minLat), GeoPoint(lon: box.maxLon, lat: box.minLat),
                    GeoPoint(lon: box.maxLon, lat: box.maxLat), GeoPoint(lon: box.minLon, lat: box.maxLat),
                    GeoPoint(lon: box.minLon, lat: box.minLat)]
        return try Region(parts: [Part(geometryType: "Polygon", shapes: [.polygon(try GeoPolygon(rings: [ring]))])])
    }

    /// A circle around a point.
    public static func around(_ center: GeoPoint, radiusMeters: Double) throws -> Region {
        try checkPosition(center, "--around")
        return try Region(parts: [Part(geometryType: "Point", shapes: [.circle(center: center, radiusMeters: radiusMeters)])])
    }

    /// A lon/lat box holding every shape with its radius or buffer (for corridors: the line's
    /// box grown by the buffer), clamped to ±180° (shapes near the antimeridian reach across it).
    public var bbox: BBox {
        var box: BBox?
        func add(_ b: BBox) { box = box.map { $0.union(b) } ?? b }
        for shape in shapes {
            switch shape {
            case .polygon(let p): add(p.bbox)
            case .circle(let c, let r): add(Region.grow(BBox(minLon: c.lon, minLat: c.lat, maxLon: c.lon, maxLat: c.lat), r))
            case .corridor(let line, let b):
                var lb = BBox(minLon: line[0].lon, minLat: line[0].lat, maxLon: line[0].lon, maxLat: line[0].lat)
                for p in line { lb = lb.union(BBox(minLon: p.lon, minLat: p.lat, maxLon: p.lon, maxLat: p.lat)) }
                add(Region.grow(lb, b))
            }
        }
        return box ?? BBox(minLon: 0, minLat: 0, maxLon: 0, maxLat: 0)
    }

    /// The box grown by a distance on the ground: latitudes by the angle, longitudes by the
    /// widest longitude half-extent of a circle centred in the box (asin(sin δ / cos φ) at the
    /// box's latitude farthest from the equator; all longitudes when the circle reaches a pole).
    static func grow(_ b: BBox, _ meters: Double) -> BBox {
        let delta = meters / earthMeanRadiusMeters
        let dLat = delta / Sphere.degrees
        let far = max(abs(b.minLat), abs(b.maxLat))
        var dLon = 360.0
        if far + dLat < 90 {
            dLon = asin(min(1, sin(delta) / cos(far * Sphere.degrees))) / Sphere.degrees
        }
        return BBox(minLon: max(-180, b.minLon - dLon), minLat: max(-90, b.minLat - dLat),
                    maxLon: min(180, b.maxLon + dLon), maxLat: min(90, b.maxLat + dLat))
    }

    /// Finite, longitude within −180…180, latitude within −90…90; `what` names the position in the error.
    public static func checkPosition(_ p: GeoPoint, _ what: String) throws {
        guard p.lon.isFinite, p.lat.isFinite else { throw GeometryError("\(what) is not a finite position") }
        guard abs(p.lon) <= 180 else { throw GeometryError("\(what): longitude \(shortestDecimal(p.lon)) is outside -180…180") }
        guard abs(p.lat) <= 90 else { throw GeometryError("\(what): latitude \(shortestDecimal(p.lat)) is outside -90…90") }
    }
}
