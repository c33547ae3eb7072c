import Foundation
import OffgridCore
import TileMath

extension PredictiveRegions {
    /// The route's positions from GeoJSON (a LineString or MultiLineString geometry, Feature or
    /// FeatureCollection) or an OSRM route response (`routes[0].geometry` as GeoJSON or as an
    /// encoded polyline; `polylinePrecision` nil = 5, or 6 when 5 gives impossible coordinates).
    public static func parseRoute(_ text: String, polylinePrecision: Int? = nil) throws -> [GeoPoint] {
        guard let root = (try? JSONReader.parse(text))?.objectValue else {
            throw GeometryError("route is not a JSON object (GeoJSON or an OSRM route response)")
        }
        var points: [GeoPoint] = []
        if let routes = root["routes"]?.arrayValue {
            guard let first = routes.first?.objectValue else { throw GeometryError("OSRM response has no route") }
            if let encoded = first["geometry"]?.stringValue {
                points = try decodePolyline(encoded, precision: polylinePrecision)
            } else if let g = first["geometry"]?.objectValue {
                points = try lineStrings(g).flatMap { $0 }
            } else {
                throw GeometryError("the OSRM route has no geometry (ask for overview=full)")
            }
        } else {
            switch root["type"]?.stringValue {
            case "FeatureCollection":
                for f in root["features"]?.arrayValue ?? [] {
                    if let g = f["geometry"]?.objectValue { points += try lineStrings(g).flatMap { $0 } }
                }
            case "Feature":
                guard let g = root["geometry"]?.objectValue else { throw GeometryError("route Feature has no geometry") }
                points = try lineStrings(g).flatMap { $0 }
            default:
                points = try lineStrings(root).flatMap { $0 }
            }
        }
        // Consecutive duplicates say nothing about the route.
        var route: [GeoPoint] = []
        for p in points where route.last != p { route.append(p) }
        guard route.count >= 2 else { throw GeometryError("route has fewer than 2 distinct positions") }
        for (i, p) in route.enumerated() { try Region.checkPosition(p, "route position \(i)") }
        for i in 1..<route.count where abs(route[i].lon - route[i - 1].lon) >= 180 {
            throw GeometryError("route segment \(i - 1) spans 180° of longitude or more")
        }
        return route
    }

    static func lineStrings(_ g: [String: JSONValue]) throws -> [[GeoPoint]] {
        func line(_ v: JSONValue?) throws -> [GeoPoint] {
            guard let list = v?.arrayValue else { throw GeometryError("route coordinates are not an array") }
            return try list.map { item in
                guard let n = item.arrayValue, n.count >= 2, let lon = n[0].doubleValue, let lat = n[1].doubleValue else {
                    throw GeometryError("route position is not [longitude, latitude]")
                }
                return GeoPoint(lon: lon, lat: lat)
            }
        }
        switch g["type"]?.stringValue {
        case "LineString": return [try line(g["coordinates"])]
        case "MultiLineString": return try (g["coordinates"]?.arrayValue ?? []).map(line)
        case let t: throw GeometryError("route geometry must be a LineString or MultiLineString, not \(t ?? "untyped")")
        }
    }

    /// Google's encoded polyline (lat first), as OSRM writes `polyline` (5) and `polyline6` (6).
    public static func decodePolyline(_ text: String, precision: Int?) throws -> [GeoPoint] {
        func decode(_ precision: Int) throws -> [GeoPoint] {
            let bytes = Array(text.utf8)
            var i = 0, lat = 0, lon = 0
            var out: [GeoPoint] = []
            func next() throws -> Int {
                var result = 0, shift = 0
                while true {
                    guard i < bytes.count else { throw GeometryError("polyline is truncated") }
                    let b = Int(bytes[i]) - 63
                    i += 1
                    guard b >= 0, b < 64, shift < 60 else { throw GeometryError("polyline has an invalid character") }
                    result |= (b & 0x1f) << shift
                    shift += 5
                    if b < 0x20 { break }
                }
                return (result & 1) != 0 ? ~(result >> 1) : (result >> 1)
            }
            let factor = pow(10, Double(precision))
            while i < bytes.count {
                lat += try next()
                lon += try next()
                out.append(GeoPoint(lon: Double(lon) / factor, lat: Double(lat) / factor))
            }
            return out
        }
        if let precision { return try decode(precision) }
        let five = try decode(5)
        if five.allSatisfy({ abs($0.lat) <= 90 && abs($0.lon) <= 180 }) { return five }
        return try decode(6)
    }
}
