import OffgridCore

extension Region {
    /// The one GeoJSON region parser: a geometry, a Feature or a FeatureCollection, with Point,
    /// MultiPoint, LineString, MultiLineString, Polygon (holes allowed), MultiPolygon or
    /// GeometryCollection geometries. A point's radius comes from its feature's `radius_m`
    /// property, else `defaultRadius`; a line's buffer from `buffer_m`, else `defaultBuffer`.
    /// Positions are [lon, lat] or [lon, lat, altitude] (the altitude is ignored). A line
    /// segment may not span 180° of longitude or more (split lines at the antimeridian).
    ///
    /// `polygonsOnly` (routing regions) accepts only Polygon and MultiPolygon geometries.
    /// Errors say what is wrong and where, e.g. "polygon ring 0 of feature 2 is not closed".
    public static func parse(geoJSON text: String, defaultRadius: Double? = nil, defaultBuffer: Double? = nil,
                             polygonsOnly: Bool = false) throws -> Region {
        let root: JSONValue
        do {
            root = try JSONReader.parse(text)
        } catch let e as JSONReader.ParseError {
            throw GeometryError("region is not valid JSON: \(e.message) at byte \(e.offset)")
        }
        var parser = GeoJSONRegionParser(defaultRadius: defaultRadius, defaultBuffer: defaultBuffer, polygonsOnly: polygonsOnly)
        try parser.document(root)
        return try Region(parts: parser.parts)
    }
}

/// Walks a GeoJSON document into region parts, naming the place of every error.
struct GeoJSONRegionParser {
    let defaultRadius: Double?
    let defaultBuffer: Double?
    let polygonsOnly: Bool
    var parts: [Region.Part] = []

    mutating func document(_ root: JSONValue) throws {
        guard let object = root.objectValue else { throw GeometryError("region GeoJSON must be a JSON object") }
        guard let type = object["type"]?.stringValue else { throw GeometryError("region GeoJSON has no \"type\" string") }
        switch type {
        case "FeatureCollection":
            guard let features = object["features"]?.arrayValue else {
                throw GeometryError("FeatureCollection has no \"features\" array")
            }
            guard !features.isEmpty else { throw GeometryError("FeatureCollection has no features") }
            for (i, item) in features.enumerated() {
                guard let feature = item.objectValue, feature["type"]?.stringValue == "Feature" else {
                    throw GeometryError("feature \(i) of the FeatureCollection is not a GeoJSON Feature object")
                }
                try self.feature(feature, index: i)
            }
        case "Feature":
            try feature(object, index: nil)
        default:
            try geometry(object, owner: "", feature: "geometry", properties: [:])
        }
    }

    mutating func feature(_ f: [String: JSONValue], index: Int?) throws {
        let name = index.map { "feature \($0)" } ?? "feature"
        guard let g = f["geometry"], !g.isNull else { throw GeometryError("\(name) has no geometry") }
        guard let geometry = g.objectValue else { throw GeometryError("geometry of \(name) is not a JSON object") }
        let properties = f["properties"]?.objectValue ?? [:]
        try self.geometry(geometry, owner: index.map { " of feature \($0)" } ?? "", feature: name, properties: properties)
    }

    /// `owner` names the geometry's place (" of feature 2", or "" alone); `feature` names the
    /// feature whose properties give distances.
    mutating func geometry(_ g: [String: JSONValue], owner: String, feature: String, properties: [String: JSONValue]) throws {
        guard let type = g["type"]?.stringValue else { throw GeometryError("geometry\(owner) has no \"type\" string") }
        if polygonsOnly && type != "Polygon" && type != "MultiPolygon" {
            throw GeometryError("unsupported geometry type \"\(type)\"\(owner): a routing region must be a Polygon or MultiPolygon (or a Feature/FeatureCollection of them)")
        }
        if type == "GeometryCollection" {
            guard let list = g["geometries"]?.arrayValue else {
                throw GeometryError("GeometryCollection\(owner) has no \"geometries\" array")
            }
            for (i, item) in list.enumerated() {
                guard let sub = item.objectValue else { throw GeometryError("geometry \(i)\(owner) is not a JSON object") }
                try geometry(sub, owner: " of geometry \(i)\(owner)", feature: feature, properties: properties)
            }
            return
        }
        let here = "\(type)\(owner)"
        var shapes: [Region.Shape] = []
        switch type {
        case "Point":
            let r = try distance(properties, "radius_m", defaultRadius, feature, here, "--radius")
            shapes = [.circle(center: try position(g["coordinates"], here), radiusMeters: r)]
        case "MultiPoint":
            let r = try distance(properties, "radius_m", defaultRadius, feature, here, "--radius")
            shapes = try coordinates(g, here).enumerated().map {
                .circle(center: try position($1, "position \($0) of \(here)"), radiusMeters: r)
            }
        case "LineString":
            let b = try distance(properties, "buffer_m", defaultBuffer, feature, here, "--buffer")
            shapes = [.corridor(line: try line(coordinates(g, here), here), bufferMeters: b)]
        case "MultiLineString":
            let b = try distance(properties, "buffer_m", defaultBuffer, feature, here, "--buffer")
            shapes = try coordinates(g, here).enumerated().map { i, item in
                let what = "line \(i) of \(here)"
                guard let positions = item.arrayValue else { throw GeometryError("\(what) is not an array of positions") }
                return .corridor(line: try line(positions, what), bufferMeters: b)
            }
        case "Polygon":
            shapes = [.polygon(try polygon(coordinates(g, here), RegionLocation(owner: owner)))]
        case "MultiPolygon":
            let list = try coordinates(g, here)
            guard !list.isEmpty else { throw GeometryError("MultiPolygon\(owner) has no polygons") }
            shapes = try list.enumerated().map { p, item in
                let location = RegionLocation(owner: owner, polygon: p)
                guard let rings = item.arrayValue else { throw GeometryError("\(location.polygonPhrase) is not an array of rings") }
                return .polygon(try polygon(rings, location))
            }
        default:
            throw GeometryError("unsupported geometry type \"\(type)\"\(owner)")
        }
        guard !shapes.isEmpty else { throw GeometryError("\(here) is empty") }
        parts.append(Region.Part(geometryType: type, shapes: shapes))
    }

    func distance(_ properties: [String: JSONValue], _ key: String, _ fallback: Double?, _ feature: String,
                  _ what: String, _ flag: String) throws -> Double {
        if let v = properties[key] {
            guard let n = v.doubleValue else { throw GeometryError("\(key) of \(feature) is not a number") }
            return n
        }
        guard let fallback else {
            throw GeometryError("the \(what) needs a distance in metres: a \"\(key)\" property or \(flag)")
        }
        return fallback
    }

    func coordinates(_ g: [String: JSONValue], _ what: String) throws -> [JSONValue] {
        guard let a = g["coordinates"]?.arrayValue else { throw GeometryError("\(what) has no \"coordinates\" array") }
        return a
    }

    /// [lon, lat] or [lon, lat, altitude], numbers only (not booleans or strings).
    func point(_ v: JSONValue?) -> GeoPoint? {
        guard let n = v?.arrayValue, n.count == 2 || n.count == 3,
              let lon = n[0].doubleValue, let lat = n[1].doubleValue,
              n.count == 2 || n[2].doubleValue != nil else { return nil }
        return GeoPoint(lon: lon, lat: lat)
    }

    func position(_ v: JSONValue?, _ what: String) throws -> GeoPoint {
        guard let p = point(v) else { throw GeometryError("\(what) is not [longitude, latitude] numbers") }
        try Region.checkPosition(p, what)
        return p
    }

    func line(_ items: [JSONValue], _ what: String) throws -> [GeoPoint] {
        guard items.count >= 2 else {
            throw GeometryError("\(what) has \(items.count) position\(items.count == 1 ? "" : "s"); a line needs at least 2")
        }
        let points = try items.enumerated().map { try position($1, "position \($0) of \(what)") }
        for i in 1..<points.count where abs(points[i].lon - points[i - 1].lon) >= 180 {
            throw GeometryError("segment \(i - 1) of \(what) spans 180° of longitude or more; split lines at the antimeridian")
        }
        return points
    }

    /// Positions are read here and checked (ring length first, then ranges, then closure) by
    /// `GeoPolygon`, so every polygon error names its ring the same way.
    func polygon(_ rings: [JSONValue], _ location: RegionLocation) throws -> GeoPolygon {
        var parsed: [[GeoPoint]] = []
        parsed.reserveCapacity(rings.count)
        for (r, item) in rings.enumerated() {
            guard let positions = item.arrayValue else { throw GeometryError("\(location.ring(r)) is not an array of positions") }
            var ring: [GeoPoint] = []
            ring.reserveCapacity(positions.count)
            for (i, position) in positions.enumerated() {
                guard let p = point(position) else {
                    throw GeometryError("position \(i) of \(location.ring(r)) is not [longitude, latitude] numbers")
                }
                ring.append(p)
            }
            parsed.append(ring)
        }
        return try GeoPolygon(rings: parsed, location: location)
    }
}
