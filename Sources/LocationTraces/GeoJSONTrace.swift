import OffgridCore

/// A trace as GeoJSON: a LineString (bare, in a Feature, or the first Feature of a
/// FeatureCollection holding one) whose Feature's properties give times per point as
/// `coordTimes` (ISO 8601 strings, as togeojson writes them) or `times` (strings or seconds),
/// and optionally `accuracies` (metres, null for unknown). Without times the trace is untimed:
/// fixes are numbered 0, 1, 2… and `timed` is false.
public enum GeoJSONTrace {
    public static func parse(_ value: JSONValue, file: String, where place: String = "") throws -> (fixes: [LocationFix], timed: Bool) {
        func fail(_ m: String) -> InputError { InputError(file: file, place + m) }
        var feature = value
        if value["type"]?.stringValue == "FeatureCollection" {
            guard let features = value["features"]?.arrayValue, features.count == 1 else {
                throw fail("a FeatureCollection trace must hold exactly one Feature")
            }
            feature = features[0]
        }
        var geometry = feature
        var properties: JSONValue?
        if feature["type"]?.stringValue == "Feature" {
            guard let g = feature["geometry"] else { throw fail("Feature without geometry") }
            geometry = g
            properties = feature["properties"]
        }
        guard geometry["type"]?.stringValue == "LineString" else {
            throw fail("expected a LineString, found \(geometry["type"]?.stringValue ?? geometry.typeName)")
        }
        guard let points = geometry["coordinates"]?.arrayValue, !points.isEmpty else { throw fail("LineString without coordinates") }
        let times = properties?["coordTimes"]?.arrayValue ?? properties?["times"]?.arrayValue
        if let times, times.count != points.count {
            throw fail("\(times.count) times for \(points.count) coordinates")
        }
        let accuracies = properties?["accuracies"]?.arrayValue
        if let accuracies, accuracies.count != points.count {
            throw fail("\(accuracies.count) accuracies for \(points.count) coordinates")
        }
        var fixes: [LocationFix] = []
        fixes.reserveCapacity(points.count)
        for (i, p) in points.enumerated() {
            guard let pair = p.arrayValue, pair.count >= 2, let lon = pair[0].doubleValue, let lat = pair[1].doubleValue,
                  lon.isFinite, lat.isFinite else { throw fail("coordinate \(i) is not [lon, lat]") }
            guard abs(lon) <= 180, abs(lat) <= 90 else { throw fail("coordinate \(i) (\(lon), \(lat)) out of range") }
            var time = Double(i)
            if let times {
                let t = times[i]
                guard let seconds = t.doubleValue ?? t.stringValue.flatMap(LocationTrace.parseTime), seconds.isFinite else {
                    throw fail("time \(i) is neither ISO 8601 nor seconds")
                }
                time = seconds
                if let last = fixes.last, time < last.time { throw fail("time \(i) is before the previous one") }
            }
            var fix = LocationFix(time: time, lon: lon, lat: lat)
            if let a = accuracies?[i].doubleValue, a.isFinite, a >= 0 { fix.accuracy = a }
            fixes.append(fix)
        }
        return (fixes, times != nil)
    }
}

/// A trace read from a file, and whether its fixes carry real times.
public struct LoadedTrace: Sendable {
    public var fixes: [LocationFix]
    public var timed: Bool

    public init(fixes: [LocationFix], timed: Bool) {
        self.fixes = fixes
        self.timed = timed
    }
}

extension LocationTrace {
    /// Any trace file: GPX (`.gpx` or starting with `<`), NMEA (`.nmea`/`.nma`/`.log` or starting
    /// with `$`), GeoJSON (`.geojson`/`.json` or starting with `{`), CSV otherwise.
    public static func load(path: String) throws -> LoadedTrace {
        let bytes = try FileTools.readFile(path, maxBytes: 1 << 30)
        let first = bytes.first { !(UInt8(ascii: " ") == $0 || (9...13).contains($0)) }
        let lower = path.lowercased()
        if lower.hasSuffix(".geojson") || lower.hasSuffix(".json") || first == UInt8(ascii: "{") {
            guard first != nil else { throw InputError(file: path, "empty trace") }
            let value: JSONValue
            do { value = try JSONReader.parse(bytes) } catch let e as JSONReader.ParseError {
                throw InputError(file: path, offset: e.offset, e.message)
            }
            let (fixes, timed) = try GeoJSONTrace.parse(value, file: path)
            return LoadedTrace(fixes: fixes, timed: timed)
        }
        if lower.hasSuffix(".nmea") || lower.hasSuffix(".nma") || first == UInt8(ascii: "$") {
            guard let text = String(validating: bytes, as: UTF8.self) else { throw InputError(file: path, "trace is not UTF-8 text") }
            return LoadedTrace(fixes: try NMEATrace.parse(text, file: path), timed: true)
        }
        return LoadedTrace(fixes: try read(path: path), timed: true)
    }
}
