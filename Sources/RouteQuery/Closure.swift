import Foundation
import OffgridCore
import TileMath

/// A closed place: every road with a part inside it is closed (both directions). A circle (a
/// GeoJSON Point with a `radius` in metres, Mapbox's `exclude=point(lon lat)`) or a polygon
/// (its outer ring and holes, GeoJSON's winding ignored).
public enum Closure: Hashable, Sendable {
    case circle(center: GeoPoint, radiusMeters: Double)
    case polygon(rings: [[GeoPoint]])

    /// The box that holds it, in degrees (west, south, east, north).
    var bounds: (west: Double, south: Double, east: Double, north: Double) {
        switch self {
        case .circle(let c, let r):
            let dLat = r / 111_195 + 1e-6
            let dLon = dLat / max(0.01, cos(c.lat * .pi / 180))
            return (c.lon - dLon, c.lat - dLat, c.lon + dLon, c.lat + dLat)
        case .polygon(let rings):
            let ring = rings[0]
            return (ring.map(\.lon).min()!, ring.map(\.lat).min()!, ring.map(\.lon).max()!, ring.map(\.lat).max()!)
        }
    }

    /// Whether the segment a–b has a point inside (planar in metres around the closure: the
    /// error is far below a road's width at the sizes closures have).
    public func touches(_ a: GeoPoint, _ b: GeoPoint) -> Bool {
        switch self {
        case .circle(let c, let r):
            let p = ClosurePlane(origin: c)
            let (ax, ay) = p.xy(a), (bx, by) = p.xy(b)
            let dx = bx - ax, dy = by - ay, l2 = dx * dx + dy * dy
            let t = l2 == 0 ? 0 : max(0, min(1, -(ax * dx + ay * dy) / l2))
            let x = ax + t * dx, y = ay + t * dy
            return x * x + y * y <= r * r
        case .polygon(let rings):
            if Self.inside(a, rings) || Self.inside(b, rings) { return true }
            for ring in rings {
                for i in 0..<(ring.count - 1) where Self.crosses(a, b, ring[i], ring[i + 1]) { return true }
            }
            return false
        }
    }

    /// Even-odd rule over all rings (holes subtract).
    static func inside(_ p: GeoPoint, _ rings: [[GeoPoint]]) -> Bool {
        var odd = false
        for ring in rings {
            for i in 0..<(ring.count - 1) {
                let a = ring[i], b = ring[i + 1]
                if (a.lat > p.lat) != (b.lat > p.lat) && p.lon < a.lon + (p.lat - a.lat) / (b.lat - a.lat) * (b.lon - a.lon) { odd.toggle() }
            }
        }
        return odd
    }

    static func crosses(_ p: GeoPoint, _ q: GeoPoint, _ r: GeoPoint, _ s: GeoPoint) -> Bool {
        func orient(_ a: GeoPoint, _ b: GeoPoint, _ c: GeoPoint) -> Double { (b.lon - a.lon) * (c.lat - a.lat) - (b.lat - a.lat) * (c.lon - a.lon) }
        let d1 = orient(r, s, p), d2 = orient(r, s, q), d3 = orient(p, q, r), d4 = orient(p, q, s)
        return (d1 * d2 <= 0) && (d3 * d4 <= 0) && !(d1 == 0 && d2 == 0 && d3 == 0 && d4 == 0)
    }
}

/// Metres east and north of an origin (equirectangular).
struct ClosurePlane {
    let origin: GeoPoint
    let perLon: Double, perLat = 111_195.0
    init(origin: GeoPoint) { self.origin = origin; perLon = 111_195 * cos(origin.lat * .pi / 180) }
    @inline(__always) func xy(_ p: GeoPoint) -> (Double, Double) { ((p.lon - origin.lon) * perLon, (p.lat - origin.lat) * perLat) }
}

extension Closure {
    /// The closures of a GeoJSON file: a FeatureCollection, a Feature or a bare geometry; Points
    /// (with a positive `radius` property in metres), Polygons and MultiPolygons. Anything else,
    /// an empty or unreadable file, a bad coordinate or more than `maxFileClosures` closures
    /// is an `InputError` naming the file and what is wrong.
    public static let maxFileClosures = 1000

    public static func read(geoJSON path: String) throws -> [Closure] {
        let root = try JSONReader.parse(file: path, maxBytes: 64 << 20)
        func bad(_ what: String) -> InputError { InputError(file: path, "closures: \(what)") }
        var features: [(JSONValue, radius: JSONValue?, label: String)] = []
        switch root["type"]?.stringValue {
        case "FeatureCollection":
            guard let list = root["features"]?.arrayValue else { throw bad("a FeatureCollection without a features array") }
            for (i, f) in list.enumerated() {
                guard f["type"]?.stringValue == "Feature", let g = f["geometry"], g.objectValue != nil else {
                    throw bad("feature \(i) is not a Feature with a geometry")
                }
                features.append((g, f["properties"]?["radius"], "feature \(i)"))
            }
        case "Feature":
            guard let g = root["geometry"], g.objectValue != nil else { throw bad("a Feature without a geometry") }
            features.append((g, root["properties"]?["radius"], "the feature"))
        case "Point", "Polygon", "MultiPolygon":
            features.append((root, nil, "the geometry"))
        default:
            throw bad("not GeoJSON (a FeatureCollection, Feature, Point, Polygon or MultiPolygon)")
        }
        guard !features.isEmpty else { throw bad("no closures (an empty FeatureCollection)") }
        var out: [Closure] = []
        for (g, radius, label) in features {
            func point(_ v: JSONValue) throws -> GeoPoint {
                guard let a = v.arrayValue, a.count >= 2, let lon = a[0].doubleValue, let lat = a[1].doubleValue,
                      (-180...180).contains(lon), (-90...90).contains(lat) else { throw bad("\(label) has a position that is not [lon, lat]") }
                return GeoPoint(lon: lon, lat: lat)
            }
            func polygon(_ v: JSONValue) throws -> Closure {
                guard let rings = v.arrayValue, !rings.isEmpty else { throw bad("\(label) has a polygon without rings") }
                let parsed = try rings.map { ring -> [GeoPoint] in
                    guard let ps = ring.arrayValue, ps.count >= 4 else { throw bad("\(label) has a ring of fewer than four positions") }
                    let points = try ps.map(point)
                    guard points.first == points.last else { throw bad("\(label) has a ring that is not closed (first and last positions differ)") }
                    return points
                }
                return .polygon(rings: parsed)
            }
            switch g["type"]?.stringValue {
            case "Point":
                guard let c = g["coordinates"] else { throw bad("\(label) is a Point without coordinates") }
                guard let r = radius?.doubleValue, r.isFinite, r > 0, r <= 100_000 else {
                    throw bad("\(label) is a Point without a \"radius\" property in metres (above 0, at most 100000)")
                }
                out.append(.circle(center: try point(c), radiusMeters: r))
            case "Polygon":
                out.append(try polygon(g["coordinates"] ?? .null))
            case "MultiPolygon":
                guard let polys = g["coordinates"]?.arrayValue, !polys.isEmpty else { throw bad("\(label) is a MultiPolygon without polygons") }
                out += try polys.map(polygon)
            default:
                throw bad("\(label) is a \(g["type"]?.stringValue ?? "geometry without a type"), not a Point, Polygon or MultiPolygon")
            }
        }
        guard out.count <= maxFileClosures else { throw bad("\(out.count) closures, at most \(maxFileClosures)") }
        return out
    }
}
