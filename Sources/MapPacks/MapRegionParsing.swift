import Foundation
import TileMath

extension MapRegion {
    /// Parses GeoJSON: a geometry, a Feature or a FeatureCollection, with Point, MultiPoint,
    /// LineString, MultiLineString, Polygon (holes allowed), MultiPolygon or GeometryCollection
    /// geometries. A point's radius comes from its feature's `radius_m` property, else
    /// `defaultRadius`; a line's buffer from `buffer_m`, else `defaultBuffer`. Positions are
    /// [lon, lat] or [lon, lat, altitude]. A line segment may not span 180° of longitude or more
    /// (split lines at the antimeridian).
    public static func parse(geoJSON text: String, defaultRadius: Double? = nil, defaultBuffer: Double? = nil) throws -> MapRegion {
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: Data(text.utf8))
        } catch {
            throw GeometryError("region is not valid JSON: \((error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "\(error)")")
        }
        guard let root = object as? [String: Any] else { throw GeometryError("region GeoJSON must be a JSON object") }
        var parser = Parser(defaultRadius: defaultRadius, defaultBuffer: defaultBuffer)
        switch root["type"] as? String {
        case "FeatureCollection":
            guard let features = root["features"] as? [Any] else { throw GeometryError("FeatureCollection has no \"features\" array") }
            guard !features.isEmpty else { throw GeometryError("FeatureCollection has no features") }
            for (i, item) in features.enumerated() {
                guard let feature = item as? [String: Any], feature["type"] as? String == "Feature" else {
                    throw GeometryError("feature \(i) of the FeatureCollection is not a GeoJSON Feature object")
                }
                try parser.feature(feature, index: i)
            }
        case "Feature":
            try parser.feature(root, index: nil)
        case .some:
            try parser.geometry(root, where: "geometry", properties: [:])
        case nil:
            throw GeometryError("region GeoJSON has no \"type\" string")
        }
        return try MapRegion(parts: parser.parts)
    }

    private struct Parser {
        let defaultRadius: Double?
        let defaultBuffer: Double?
        var parts: [Part] = []

        mutating func feature(_ f: [String: Any], index: Int?) throws {
            let name = index.map { "feature \($0)" } ?? "feature"
            guard let g = f["geometry"], !(g is NSNull) else { throw GeometryError("\(name) has no geometry") }
            guard let geometry = g as? [String: Any] else { throw GeometryError("geometry of \(name) is not a JSON object") }
            let properties = f["properties"] as? [String: Any] ?? [:]
            try self.geometry(geometry, where: name, properties: properties)
        }

        func distance(_ properties: [String: Any], _ key: String, _ fallback: Double?, _ where: String, _ what: String, _ flag: String) throws -> Double {
            if let v = properties[key] {
                guard let n = number(v) else { throw GeometryError("\(key) of \(`where`) is not a number") }
                return n
            }
            guard let fallback else {
                throw GeometryError("\(what) of \(`where`) needs a distance in metres: a \"\(key)\" property or \(flag)")
            }
            return fallback
        }

        mutating func geometry(_ g: [String: Any], where name: String, properties: [String: Any]) throws {
            guard let type = g["type"] as? String else { throw GeometryError("geometry of \(name) has no \"type\" string") }
            if type == "GeometryCollection" {
                guard let list = g["geometries"] as? [Any] else { throw GeometryError("GeometryCollection of \(name) has no \"geometries\" array") }
                for (i, item) in list.enumerated() {
                    guard let sub = item as? [String: Any] else { throw GeometryError("geometry \(i) of \(name) is not an object") }
                    try geometry(sub, where: "geometry \(i) of \(name)", properties: properties)
                }
                return
            }
            let coords = g["coordinates"]
            let here = "\(type) of \(name)"
            var shapes: [Shape] = []
            switch type {
            case "Point":
                let r = try distance(properties, "radius_m", defaultRadius, name, "the Point", "--radius")
                shapes = [.circle(center: try position(coords, here), radiusMeters: r)]
            case "MultiPoint":
                let r = try distance(properties, "radius_m", defaultRadius, name, "the MultiPoint", "--radius")
                shapes = try array(coords, here).enumerated().map { .circle(center: try position($1, "position \($0) of \(here)"), radiusMeters: r) }
            case "LineString":
                let b = try distance(properties, "buffer_m", defaultBuffer, name, "the LineString", "--buffer")
                shapes = [.corridor(line: try line(coords, here), bufferMeters: b)]
            case "MultiLineString":
                let b = try distance(properties, "buffer_m", defaultBuffer, name, "the MultiLineString", "--buffer")
                shapes = try array(coords, here).enumerated().map { .corridor(line: try line($1, "line \($0) of \(here)"), bufferMeters: b) }
            case "Polygon":
                shapes = [.polygon(try polygon(coords, here))]
            case "MultiPolygon":
                shapes = try array(coords, here).enumerated().map { .polygon(try polygon($1, "polygon \($0) of \(here)")) }
            default:
                throw GeometryError("unsupported geometry type \"\(type)\" in \(name)")
            }
            guard !shapes.isEmpty else { throw GeometryError("\(here) is empty") }
            parts.append(Part(geometryType: type, shapes: shapes))
        }

        func array(_ v: Any?, _ what: String) throws -> [Any] {
            guard let a = v as? [Any] else { throw GeometryError("\(what) has no \"coordinates\" array") }
            return a
        }

        func position(_ v: Any?, _ what: String) throws -> GeoPoint {
            guard let numbers = v as? [Any], numbers.count == 2 || numbers.count == 3,
                  let lon = number(numbers[0]), let lat = number(numbers[1]),
                  numbers.count == 2 || number(numbers[2]) != nil else {
                throw GeometryError("\(what) is not a [longitude, latitude] position")
            }
            let p = GeoPoint(lon: lon, lat: lat)
            try MapRegion.checkPosition(p, what)
            return p
        }

        func line(_ v: Any?, _ what: String) throws -> [GeoPoint] {
            let items = try array(v, what)
            guard items.count >= 2 else { throw GeometryError("\(what) has \(items.count) position\(items.count == 1 ? "" : "s"); a line needs at least 2") }
            let points = try items.enumerated().map { try position($1, "position \($0) of \(what)") }
            for i in 1..<points.count where abs(points[i].lon - points[i - 1].lon) >= 180 {
                throw GeometryError("segment \(i - 1) of \(what) spans 180° of longitude or more; split lines at the antimeridian")
            }
            return points
        }

        func polygon(_ v: Any?, _ what: String) throws -> GeoPolygon {
            let rings = try array(v, what)
            var parsed: [[GeoPoint]] = []
            for (r, item) in rings.enumerated() {
                guard let positions = item as? [Any] else { throw GeometryError("ring \(r) of \(what) is not an array of positions") }
                parsed.append(try positions.enumerated().map { try position($1, "position \($0) of ring \(r) of \(what)") })
            }
            do {
                return try GeoPolygon(rings: parsed)
            } catch let e as GeometryError {
                throw GeometryError("\(what): \(e.message)")
            }
        }
    }

    /// A JSON number as Double (booleans are not numbers).
    static func number(_ value: Any) -> Double? {
        guard let n = value as? NSNumber else { return nil }
        if String(cString: n.objCType) == "c" { return nil }
        return n.doubleValue
    }
}

private func number(_ value: Any) -> Double? { MapRegion.number(value) }
