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
                try Region.checkPosition(p, "position \(i) of \(ringName)")
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

/// Where in a GeoJSON document a polygon or ring is, for error messages such as
/// "polygon ring 0 of feature 2 is not closed" or "ring 1 of polygon 3 of feature 0 …".
struct RegionLocation {
    /// Whose geometry this is: "" for a bare geometry or a lone Feature, " of feature 2",
    /// " of geometry 1 of feature 2".
    var owner = ""
    /// The polygon's index within a MultiPolygon.
    var polygon: Int?

    var polygonPhrase: String {
        (polygon.map { "polygon \($0)" } ?? "polygon") + owner
    }

    func ring(_ index: Int) -> String {
        if let polygon { return "ring \(index) of polygon \(polygon)" + owner }
        return "polygon ring \(index)" + owner
    }
}
