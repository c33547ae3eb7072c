import OffgridCore

/// NDJSON batches of traces, one per line: `{"id": …, "coordinates": [[lon, lat], …],
/// "timestamps": [s, …], "radiuses": [m or null, …]}` (OSRM's match parameters), or a GeoJSON
/// LineString / Feature (`GeoJSONTrace`). Blank lines are skipped; the id, any JSON value, is
/// echoed in the answers. Errors name the file and line.
public enum TraceBatch {
    public struct Item: Sendable {
        public var id: JSONValue?
        public var trace: LoadedTrace
        /// Per fix, or empty.
        public var radiuses: [Double?]
    }

    public static func parse(_ text: String, file: String) throws -> [Item] {
        var items: [Item] = []
        var lineNumber = 0
        for line in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            lineNumber += 1
            if line.allSatisfy(\.isWhitespace) { continue }
            items.append(try item(String(line), file: file, line: lineNumber))
        }
        guard !items.isEmpty else { throw InputError(file: file, "no traces (empty batch)") }
        return items
    }

    public static func item(_ line: String, file: String, line lineNumber: Int) throws -> Item {
        func fail(_ m: String) -> InputError { InputError(file: file, "line \(lineNumber): \(m)") }
        let value: JSONValue
        do { value = try JSONReader.parse(line) } catch { throw fail("\(error)") }
        guard value.objectValue != nil else { throw fail("expected a JSON object, found \(value.typeName)") }
        if value["type"] != nil && value["coordinates"] == nil || value["geometry"] != nil {
            let (fixes, timed) = try GeoJSONTrace.parse(value, file: file, where: "line \(lineNumber): ")
            return Item(id: value["id"], trace: LoadedTrace(fixes: fixes, timed: timed), radiuses: [])
        }
        guard let points = value["coordinates"]?.arrayValue, !points.isEmpty else { throw fail("no \"coordinates\" list") }
        let times = value["timestamps"]?.arrayValue
        if let times, times.count != points.count { throw fail("\(times.count) timestamps for \(points.count) coordinates") }
        var fixes: [LocationFix] = []
        for (i, p) in points.enumerated() {
            guard let pair = p.arrayValue, pair.count == 2, let lon = pair[0].doubleValue, let lat = pair[1].doubleValue,
                  lon.isFinite, lat.isFinite, abs(lon) <= 180, abs(lat) <= 90 else { throw fail("coordinate \(i) is not a valid [lon, lat]") }
            var time = Double(i)
            if let times {
                guard let t = times[i].doubleValue, t.isFinite else { throw fail("timestamp \(i) is not a number of seconds") }
                if let last = fixes.last, t < last.time { throw fail("timestamp \(i) is before the previous one") }
                time = t
            }
            fixes.append(LocationFix(time: time, lon: lon, lat: lat))
        }
        var radiuses: [Double?] = []
        if let list = value["radiuses"]?.arrayValue {
            guard list.count == points.count else { throw fail("\(list.count) radiuses for \(points.count) coordinates") }
            for (i, r) in list.enumerated() {
                if r.isNull { radiuses.append(nil); continue }
                guard let m = r.doubleValue, m >= 0, m.isFinite else { throw fail("radius \(i) is not a number of metres") }
                radiuses.append(m)
            }
        }
        return Item(id: value["id"], trace: LoadedTrace(fixes: fixes, timed: times != nil), radiuses: radiuses)
    }
}
