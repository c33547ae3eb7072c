import ArgumentParser
import RouteQuery
import OffgridCore
import ToolSupport

struct NearestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "nearest",
        abstract: "The nearest roads to a point; prints an OSRM nearest response.",
        discussion: """
        One snapped point per road edge, nearest first, on any part of the network (a route's
        waypoint prefers the main network and may differ). NoSegment when no road lies within the
        radius (default: the 5 km snapping cap).

        Example:
          route-query nearest --graph out/liechtenstein.chg --at 9.5215,47.1410 --number 3
        """)

    @OptionGroup var graph: GraphOptions
    @Option(help: "The point, LON,LAT.") var at: String
    @Option(help: "How many roads to return (one point per road edge).") var number = 1
    @Option(help: "Snapping radius in metres ('unlimited' for none; default the 5 km cap).") var radius: String?
    @Option(help: "Only roads travelled within DEG,RANGE (heading ± range).") var bearing: String?
    @OptionGroup var avoiding: AvoidOptions
    @OptionGroup var output: OutputOptions

    func run() throws {
        let point = try Coordinates.point(at)
        var request = NearestRequest(lon: point.lon, lat: point.lat)
        request.number = number
        if let radius { request.radius = try Coordinates.radiuses(radius).first ?? nil }
        if let bearing { request.bearing = try Coordinates.bearings(bearing).first ?? nil }
        let data = try graph.load()
        let service = try RouteService(data: data, avoiding: try avoiding.metric(data))
        do {
            try Render.print(try service.nearest(request), of: data, compact: output.compact)
        } catch let failure as QueryFailure {
            try Render.print(failure, of: data, compact: output.compact)
        }
    }
}
