import ArgumentParser
import MapMatching
import RouteQuery
import OffgridCore
import ToolSupport

struct TraceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trace",
        abstract: "Replay a location trace against a route (progress, off-route, reroutes), or match it freely (NDJSON).",
        discussion: """
        The trace is CSV (time, lon, lat[, accuracy][, course]), GPX, NMEA or GeoJSON. Every fix is
        matched to the roads (route-query match's model). A fix's matched position is decided
        --matching-lag fixes later (default 2, fixed-lag smoothing: a little latency for far fewer jumps
        between parallel roads; 0: as known at the fix). With --route, progress follows the matched position ("matchedLocation"; the raw
        fix where none matched, or everywhere with --no-matching); leaving the route (farther than
        --off-route-m, or the fix's accuracy if larger, for --fixes fixes in a row) emits an "off-route"
        event and a "reroute" event with a new route from that fix to the original destination.

        Without --route (free drive) every fix is printed with its matched position, road name, the
        road's speed and the heading; unmatched fixes are printed too, with "matched": false.

        Examples:
          route-query trace --graph out/liechtenstein.chg --route out/route.json --trace samples/detour.csv
          route-query trace --graph out/liechtenstein.chg --trace out/match/drive.nmea
        """)

    @OptionGroup var graph: GraphOptions
    @Option(help: "A route response written by `route-query route` (the first route is followed); none for free drive.") var route: String?
    @Option(help: "Location fixes: CSV, GPX, NMEA or GeoJSON.") var trace: String
    @Option(name: .customLong("off-route-m"), help: "Distance from the route that counts as off-route, metres.") var offRouteMeters = 50.0
    @Option(help: "Consecutive off-route fixes before rerouting.") var fixes = 3
    @Flag(name: .customLong("matching"), inversion: .prefixedNo,
          help: "Follow the route by the fixes' map-matched road positions (--no-matching: the raw fixes).") var matching = true
    @Option(help: "Fixes a matched position waits for before it is followed (fixed-lag smoothing; 0: each fix as it comes).")
    var matchingLag = 2
    @OptionGroup var options: RouteOptions
    @OptionGroup var avoiding: AvoidOptions

    func validate() throws {
        guard matchingLag >= 0 else { throw ValidationError("--matching-lag must be 0 or more fixes") }
    }

    func run() throws {
        let data = try graph.load()
        let avoidingMetric = try avoiding.metric(data)
        if route == nil && avoidingMetric != nil {
            throw InputError("--exclude and --avoid apply to a replay against a route (--route), not to free drive")
        }
        let loaded = try LocationTrace.load(path: trace)
        var request = MatchRequest(fixes: loaded.fixes)
        request.hasTimestamps = loaded.timed
        guard let route else {
            let lines = try MapMatcher(data: data).freeDrive(request)
            try data.throwIfDamaged()
            for line in lines { StdIO.out(Render.line(line) + "\n") }
            return
        }
        var defaults = RouteRequest(coordinates: [])
        defaults.algorithm = graph.algorithm
        try options.apply(to: &defaults)
        let replay = try TraceReplay(data: data, routePath: route, fixes: loaded.fixes, offRouteMeters: offRouteMeters,
                                     consecutiveFixes: fixes, defaults: defaults, avoiding: avoidingMetric)
        // The route is followed by the fixes' matched road positions, as free drive places them.
        let matched = matching ? try MapMatcher(data: data).onlinePositions(request, lag: matchingLag) : nil
        let events = replay.run(matched: matched)
        try data.throwIfDamaged()
        for event in events { StdIO.out(Render.line(event) + "\n") }
    }
}
