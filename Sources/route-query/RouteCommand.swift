import ArgumentParser
import RouteQuery
import OffgridCore
import ToolSupport

/// Options of a route request, shared by `route`, `reroute` and the defaults of `batch`.
struct RouteOptions: ParsableArguments {
    @Flag(help: "Turn-by-turn steps.") var steps = false
    @Option(help: "polyline6, polyline or geojson.") var geometries: RouteRequest.Geometries = .polyline6
    @Option(help: "Route geometry: full, simplified or false.") var overview: RouteRequest.Overview = .simplified
    @Option(help: "Per waypoint DEG,RANGE (heading ± range), ';'-separated, empty for none.") var bearings: String?
    @Option(help: "Per waypoint snapping radius in metres, ';'-separated ('unlimited' or empty for none).") var radiuses: String?
    @Option(help: "Alternative routes wanted besides the best (via-node method: at most 25% longer, at most 75% shared).") var alternatives = 0
    @Option(help: "Output: osrm (route response) or geojson (FeatureCollection).") var format: RouteRequest.Format = .osrm
    @Option(help: "Per-segment leg annotations: true, false, or a list of duration,distance,speed,weight,datasources.") var annotations = "false"
    @Flag(help: "At via points, leave in the direction arrived in (no U-turn at the waypoint).") var continueStraight = false
    @Flag(help: "Spoken announcements on every step (Mapbox voiceInstructions, English; implies --steps).") var voiceInstructions = false
    @Flag(help: "Banner texts on every step (Mapbox bannerInstructions; implies --steps).") var bannerInstructions = false

    func apply(to r: inout RouteRequest) throws {
        r.steps = steps || voiceInstructions || bannerInstructions
        r.voiceInstructions = voiceInstructions
        r.bannerInstructions = bannerInstructions
        r.geometries = format == .geojson ? .geojson : geometries
        r.overview = overview
        r.alternatives = alternatives
        r.format = format
        guard let kinds = LegAnnotation.Kinds(parsing: Substring(annotations)) else {
            throw ValidationError("--annotations takes true, false or a list of duration, distance, speed, weight, datasources")
        }
        r.annotations = kinds
        r.continueStraight = continueStraight
        if let bearings { r.bearings = try Coordinates.bearings(bearings) }
        if let radiuses { r.radiuses = try Coordinates.radiuses(radiuses) }
    }
}

struct RouteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "route",
        abstract: "Route between two or more points; prints an OSRM route response.",
        discussion: "Example:\n  route-query route --graph out/liechtenstein.chg --from 9.5209,47.1410 --to 9.5095,47.0613 --steps")

    @OptionGroup var graph: GraphOptions
    @Option(help: "Start, LON,LAT.") var from: String
    @Option(help: "Destination, LON,LAT.") var to: String
    @Option(help: "Via point, LON,LAT (repeatable).") var via: [String] = []
    @OptionGroup var options: RouteOptions
    @OptionGroup var avoiding: AvoidOptions
    @OptionGroup var output: OutputOptions

    func run() throws {
        var request = RouteRequest(coordinates: try [Coordinates.point(from)] + via.map(Coordinates.point) + [Coordinates.point(to)])
        request.algorithm = graph.algorithm
        try options.apply(to: &request)
        let data = try graph.load()
        try Render.print(try RouteService(data: data, avoiding: try avoiding.metric(data)).route(request), of: data, compact: output.compact)
    }
}

/// How a single response is printed.
struct OutputOptions: ParsableArguments {
    @Flag(help: "One compact JSON line (the bytes `route-query serve` answers with) instead of pretty JSON.") var compact = false
}
