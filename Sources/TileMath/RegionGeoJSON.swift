import OffgridCore

/// The region written back as GeoJSON (into region.json and pack headers): canonical, so the
/// same region always gives the same bytes (`JSONWriter`: sorted keys, shortest exact numbers).
extension Region {
    /// A canonical GeoJSON FeatureCollection: one Feature per part, circles and corridors
    /// carrying `radius_m` / `buffer_m` properties.
    public var geoJSON: JSONValue {
        var features: [JSONValue] = []
        for part in parts {
            var properties: [String: JSONValue] = [:]
            for shape in part.shapes {
                switch shape {
                case .circle(_, let r): properties["radius_m"] = .double(r)
                case .corridor(_, let b): properties["buffer_m"] = .double(b)
                case .polygon: break
                }
            }
            features.append(["type": "Feature", "properties": .object(properties), "geometry": part.geometryJSON])
        }
        return ["type": "FeatureCollection", "features": .array(features)]
    }

    static func position(_ p: GeoPoint) -> JSONValue { .array([.double(p.lon), .double(p.lat)]) }
    static func line(_ line: [GeoPoint]) -> JSONValue { .array(line.map(position)) }
    static func polygon(_ p: GeoPolygon) -> JSONValue { .array(p.rings.map(line)) }
}

extension Region.Part {
    /// The part's GeoJSON geometry, canonical (shortest exact numbers, altitudes dropped).
    public var geometryJSON: JSONValue {
        var coordinates: [JSONValue] = []
        for shape in shapes {
            switch shape {
            case .circle(let c, _): coordinates.append(Region.position(c))
            case .corridor(let l, _): coordinates.append(Region.line(l))
            case .polygon(let p): coordinates.append(Region.polygon(p))
            }
        }
        // Single geometries are their first (only) shape; Multi forms list them all.
        let single = ["Point", "LineString", "Polygon"].contains(geometryType)
        let value: JSONValue = single ? (coordinates.first ?? .array([])) : .array(coordinates)
        return ["type": .string(geometryType), "coordinates": value]
    }
}
