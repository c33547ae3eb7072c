import ArgumentParser
import LocationTraces
import MapMatching
import OffgridCore
import RouteQuery
import ToolSupport

struct MatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "match",
        abstract: "Match a location trace to the roads; prints an OSRM match response.",
        discussion: """
        The trace is a file (GPX, NMEA 0183, CSV, GeoJSON LineString; see docs/MATCHING.md) or
        --coordinates with optional --timestamps. A fix's accuracy (or --radiuses) is the standard
        deviation of its position: large ones widen its candidates and weigh less. Unmatched fixes
        are null tracepoints, in order.

        Example:
          route-query match --graph out/liechtenstein.chg --trace out/match/drive.gpx --compact
        """)

    @OptionGroup var graph: GraphOptions
    @Option(help: "A trace file: .gpx, .nmea, .csv, .geojson (or .json).") var trace: String?
    @Option(help: "Fixes as LON,LAT;LON,LAT;… instead of a file.") var coordinates: String?
    @Option(help: "An NDJSON batch of traces (one per line: id, coordinates, timestamps, radiuses; or GeoJSON); prints one answer line each.") var batch: String?
    @Option(help: "With --coordinates: UNIX seconds per fix, ';'-separated.") var timestamps: String?
    @Option(help: "Per fix position standard deviation in metres, ';'-separated (empty: the fix's accuracy or 5 m).") var radiuses: String?
    @Option(help: "split (a new matching after a long gap in time or space) or ignore.") var gaps: MatchRequest.Gaps = .split
    @Flag(help: "Drop fixes bunched within 10 m of the last kept one before matching.") var tidy = false
    @Option(help: "Indexes of the fixes that are route waypoints, ';'-separated (first and last included).") var waypoints: String?
    @Flag(help: "Turn-by-turn steps in each matching's legs.") var steps = false
    @Option(help: "polyline6, polyline or geojson.") var geometries: RouteRequest.Geometries = .polyline6
    @Option(help: "Matching geometry: full, simplified or false.") var overview: RouteRequest.Overview = .simplified
    @Option(help: "Per-segment leg annotations: true, false, or a list of duration,distance,speed,weight,datasources.") var annotations = "false"
    @Option(help: "The model's transition scale β, metres (docs/MATCHING.md).") var beta: Double?
    @OptionGroup var output: OutputOptions

    func run() throws {
        if let batch { return try runBatch(batch) }
        let request = try makeRequest()
        let data = try graph.load()
        let answer = try MapMatcher(data: data).match(request)
        try Render.print(answer, of: data, compact: output.compact)
        if case .failure = answer { throw ExitCode(1) }
    }

    /// One compact answer line per trace, `{"answer": …, "id": …}`; a timing line on stderr
    /// (fixes matched per second, the matching alone: what bench/match reports).
    func runBatch(_ path: String) throws {
        let text = String(decoding: try FileTools.readFile(path, maxBytes: 1 << 30), as: UTF8.self)
        let items = try TraceBatch.parse(text, file: path)
        let data = try graph.load(.resident)
        let matcher = try MapMatcher(data: data)
        var base = try makeRequest(fixes: [])
        var fixes = 0
        let start = ContinuousClock.now
        var lines: [String] = []
        lines.reserveCapacity(items.count)
        for item in items {
            base.fixes = item.trace.fixes
            base.hasTimestamps = item.trace.timed
            base.radiuses = item.radiuses
            fixes += item.trace.fixes.count
            lines.append(BatchMatchLine(answer: matcher.match(base), id: item.id).compactJSON())
        }
        let elapsed = (ContinuousClock.now - start).components
        let seconds = Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
        try data.throwIfDamaged()
        for line in lines { StdIO.out(line + "\n") }
        StdIO.err("route-query match: \(items.count) traces, \(fixes) fixes in \(String(format: "%.3f", seconds)) s: \(Int(Double(fixes) / max(seconds, 1e-9))) fixes/s\n")
    }

    func makeRequest() throws -> MatchRequest {
        var request: MatchRequest
        switch (trace, coordinates) {
        case (let path?, nil):
            let loaded = try LocationTrace.load(path: path)
            request = MatchRequest(fixes: loaded.fixes)
            request.hasTimestamps = loaded.timed
        case (nil, let text?):
            let points = try Coordinates.list(text)
            var times: [Double]?
            if let timestamps {
                times = try timestamps.split(separator: ";").map { item in
                    guard let t = Double(item) else { throw ValidationError("timestamp '\(item)' is not a number of seconds") }
                    return t
                }
                guard times?.count == points.count else { throw ValidationError("--timestamps needs one time per coordinate") }
            }
            request = MatchRequest(coordinates: points, timestamps: times)
        default:
            throw ValidationError("give one of --trace FILE, --coordinates or --batch FILE")
        }
        return try makeRequest(fixes: request.fixes, timed: request.hasTimestamps)
    }

    /// The request's options around the given fixes.
    func makeRequest(fixes: [LocationFix], timed: Bool = true) throws -> MatchRequest {
        var request = MatchRequest(fixes: fixes)
        request.hasTimestamps = timed
        if let radiuses { request.radiuses = try Coordinates.radiuses(radiuses) }
        request.gaps = gaps
        request.tidy = tidy
        if let waypoints {
            request.waypoints = try waypoints.split(separator: ";").map { item in
                guard let i = Int(item) else { throw ValidationError("waypoint '\(item)' is not a fix index") }
                return i
            }
        }
        request.steps = steps
        request.geometries = geometries
        request.overview = overview
        guard let kinds = LegAnnotation.Kinds(parsing: Substring(annotations)) else {
            throw ValidationError("--annotations takes true, false or a list of duration, distance, speed, weight, datasources")
        }
        request.annotations = kinds
        if let beta { request.parameters.beta = beta }
        return request
    }
}
extension MatchRequest.Gaps: ExpressibleByArgument {}

/// A batch answer line: the trace's id and its match answer.
struct BatchMatchLine: Encodable {
    var answer: MatchAnswer
    var id: JSONValue?

    /// `Render.line(self)`'s text, written directly (the answer's geometry makes most of it).
    func compactJSON() -> String {
        var out = JSONBuffer()
        out.raw("{\"answer\":")
        answer.writeCompactJSON(to: &out)
        if let id { out.raw(",\"id\":"); out.value(id) }
        out.raw("}")
        return String(decoding: out.bytes, as: UTF8.self)
    }
}
