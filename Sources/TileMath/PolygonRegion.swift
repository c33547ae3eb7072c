/// The geometry of one polygon feature.
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

/// A region made of polygons only, in planar lon/lat: what routing packs are cut by
/// (`RoutingGrid.tiles(intersecting:)` decides cells exactly against straight lon/lat edges).
/// Built from a `Region` whose parts are all Polygons or MultiPolygons.
///
/// Regions do not wrap across the antimeridian (split such areas into two polygons at ±180).
public struct PolygonRegion: Sendable {
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
        self.geoJSON = PolygonRegion.canonicalGeoJSON(geometries)
        self.flatPolygons = polygons.map(FlatPolygon.init)
    }

    /// The region's polygons; a circle or a corridor has no exact polygon form and is refused.
    public init(_ region: Region) throws {
        var geometries: [RegionGeometry] = []
        for part in region.parts {
            let polygons = part.shapes.compactMap { shape -> GeoPolygon? in
                if case .polygon(let p) = shape { return p }
                return nil
            }
            guard polygons.count == part.shapes.count, !polygons.isEmpty else {
                throw GeometryError("unsupported geometry type \"\(part.geometryType)\": a routing region must be a Polygon or MultiPolygon (or a Feature/FeatureCollection of them)")
            }
            geometries.append(part.geometryType == "Polygon" ? .polygon(polygons[0]) : .multiPolygon(polygons))
        }
        try self.init(geometries: geometries)
    }

    /// Parses GeoJSON with the one region parser, accepting Polygon and MultiPolygon geometries
    /// (bare, a Feature, or a FeatureCollection of them: the region is their union).
    public static func parse(geoJSON text: String) throws -> PolygonRegion {
        try PolygonRegion(Region.parse(geoJSON: text, polygonsOnly: true))
    }

    /// The rectangle as a one-polygon region (counter-clockwise outer ring, as RFC 7946 asks).
    /// The box must hold valid coordinates (see `BBox.init(parsing:)`).
    public init(bbox: BBox) throws {
        try self.init(Region.bbox(bbox))
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
