import ArgumentParser
import Foundation
import RouteQuery
import OffgridCore
import ToolSupport

struct TraceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trace",
        abstract: "Replay a location trace against a route: progress, off-route detection, reroutes (NDJSON).",
        discussion: """
        The trace is CSV (time, lon, lat[, accuracy][, course]) or GPX. Leaving the route (farther than
        --off-route-m, or the fix's accuracy if larger, for --fixes fixes in a row) emits an "off-route"
        event and a "reroute" event with a new route from that fix to the original destination.

        Example:
          route-query trace --graph out/liechtenstein.chg --route out/route.json --trace samples/detour.csv
        """)

    @OptionGroup var graph: GraphOptions
    @Option(help: "A route response written by `route-query route` (the first route is followed).") var route: String
    @Option(help: "Location fixes, .csv or .gpx.") var trace: String
    @Option(name: .customLong("off-route-m"), help: "Distance from the route that counts as off-route, metres.") var offRouteMeters = 50.0
    @Option(help: "Consecutive off-route fixes before rerouting.") var fixes = 3
    @OptionGroup var options: RouteOptions

    func run() throws {
        let data = try graph.load()
        var defaults = RouteRequest(coordinates: [])
        defaults.algorithm = graph.algorithm
        try options.apply(to: &defaults)
        let replay = try TraceReplay(data: data, routePath: route, tracePath: trace, offRouteMeters: offRouteMeters,
                                     consecutiveFixes: fixes, defaults: defaults)
        for event in replay.run() { StdIO.out(Render.line(event) + "\n") }
    }
}
