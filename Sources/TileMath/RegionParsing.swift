import Foundation

extension Region {
    /// Parses a region from GeoJSON text: a bare Polygon or MultiPolygon geometry, a Feature
    /// holding one, or a FeatureCollection of such Features (the region is their union).
    /// Positions are [lon, lat] or [lon, lat, altitude]; the altitude is ignored.
    ///
    /// Errors say what is wrong and where, e.g. "polygon ring 0 of feature 2 is not closed".
    public static func parse(geoJSON text: String) throws -> Region {
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: Data(text.utf8))
        } catch {
            throw GeometryError("region is not valid JSON: \(jsonErrorReason(error))")
        }
        guard let root = object as? [String: Any] else {
            throw GeometryError("region GeoJSON must be a JSON object")
        }
        let type = try typeName(of: root, what: "region GeoJSON")
        switch type {
        case "FeatureCollection":
            guard let features = root["features"] as? [Any] else {
                throw GeometryError("FeatureCollection has no \"features\" array")
            }
            guard !features.isEmpty else { throw GeometryError("FeatureCollection has no features") }
            var geometries: [RegionGeometry] = []
            for (i, item) in features.enumerated() {
                guard let feature = item as? [String: Any], (feature["type"] as? String) == "Feature" else {
                    throw GeometryError("feature \(i) of the FeatureCollection is not a GeoJSON Feature object")
                }
                geometries.append(try geometry(ofFeature: feature, index: i))
            }
            return try Region(geometries: geometries)
        case "Feature":
            return try Region(geometries: [geometry(ofFeature: root, index: nil)])
        default:
            return try Region(geometries: [geometry(root, feature: nil)])
        }
    }

    private static func geometry(ofFeature feature: [String: Any], index: Int?) throws -> RegionGeometry {
        let name = index.map { "feature \($0)" } ?? "feature"
        guard let value = feature["geometry"], !(value is NSNull) else {
            throw GeometryError("\(name) has no geometry")
        }
        guard let object = value as? [String: Any] else {
            throw GeometryError("geometry of \(name) is not a JSON object")
        }
        return try geometry(object, feature: index)
    }

    private static func geometry(_ object: [String: Any], feature: Int?) throws -> RegionGeometry {
        let suffix = feature.map { " of feature \($0)" } ?? ""
        let type = try typeName(of: object, what: "geometry" + suffix)
        switch type {
        case "Polygon":
            let location = RegionLocation(feature: feature, polygon: nil)
            guard let rings = object["coordinates"] as? [Any] else {
                throw GeometryError("Polygon\(suffix) has no \"coordinates\" array")
            }
            return .polygon(try polygon(rings, location: location))
        case "MultiPolygon":
            guard let polygons = object["coordinates"] as? [Any] else {
                throw GeometryError("MultiPolygon\(suffix) has no \"coordinates\" array")
            }
            guard !polygons.isEmpty else { throw GeometryError("MultiPolygon\(suffix) has no polygons") }
            var result: [GeoPolygon] = []
            for (p, item) in polygons.enumerated() {
                let location = RegionLocation(feature: feature, polygon: p)
                guard let rings = item as? [Any] else {
                    throw GeometryError("\(location.polygonPhrase) is not an array of rings")
                }
                result.append(try polygon(rings, location: location))
            }
            return .multiPolygon(result)
        default:
            throw GeometryError("unsupported geometry type \"\(type)\"\(suffix): a routing region must be a Polygon or MultiPolygon (or a Feature/FeatureCollection of them)")
        }
    }

    private static func polygon(_ rings: [Any], location: RegionLocation) throws -> GeoPolygon {
        var parsed: [[GeoPoint]] = []
        for (r, item) in rings.enumerated() {
            guard let positions = item as? [Any] else {
                throw GeometryError("\(location.ring(r)) is not an array of positions")
            }
            var ring: [GeoPoint] = []
            ring.reserveCapacity(positions.count)
            for (i, position) in positions.enumerated() {
                guard let numbers = position as? [Any], numbers.count == 2 || numbers.count == 3,
                      let lon = number(numbers[0]), let lat = number(numbers[1]),
                      numbers.count == 2 || number(numbers[2]) != nil else {
                    throw GeometryError("position \(i) of \(location.ring(r)) is not [longitude, latitude] numbers")
                }
                ring.append(GeoPoint(lon: lon, lat: lat))
            }
            parsed.append(ring)
        }
        return try GeoPolygon(rings: parsed, location: location)
    }

    /// A JSON number as Double; booleans (which Foundation also bridges to NSNumber) are not numbers.
    private static func number(_ value: Any) -> Double? {
        guard let n = value as? NSNumber else { return nil }
        // Foundation gives JSON true/false the Objective-C type "c" (char).
        if String(cString: n.objCType) == "c" { return nil }
        return n.doubleValue
    }

    private static func typeName(of object: [String: Any], what: String) throws -> String {
        guard let type = object["type"] as? String else {
            throw GeometryError("\(what) has no \"type\" string")
        }
        return type
    }

    private static func jsonErrorReason(_ error: Error) -> String {
        let ns = error as NSError
        if let detail = ns.userInfo[NSDebugDescriptionErrorKey] as? String { return detail }
        return ns.localizedDescription
    }
}
