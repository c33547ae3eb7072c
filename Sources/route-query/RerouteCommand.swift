import ArgumentParser
import RouteQuery
import OffgridCore
import ToolSupport

struct RerouteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reroute",
        abstract: "A new route from where the driver is now, starting in the driving direction.",
        discussion: "Example:\n  route-query reroute --graph out/liechtenstein.chg --at 9.5210,47.1400 --heading 180 --to 9.5095,47.0613 --steps")

    @OptionGroup var graph: GraphOptions
    @Option(help: "Current position, LON,LAT.") var at: String
    @Option(help: "Current heading in degrees (course over ground).") var heading: Double?
    @Option(help: "How far the road may deviate from the heading, degrees.") var headingRange = 45.0
    @Option(help: "Destination, LON,LAT.") var to: String
    @Flag(help: "Never start by turning back: requires --heading; the route leaves in the heading's direction.") var avoidUturn = false
    @OptionGroup var options: RouteOptions
    @OptionGroup var avoiding: AvoidOptions
    @OptionGroup var output: OutputOptions

    func validate() throws {
        if avoidUturn && heading == nil { throw ValidationError("--avoid-uturn needs --heading") }
    }

    func run() throws {
        var request = RouteRequest(coordinates: [try Coordinates.point(at), try Coordinates.point(to)])
        request.algorithm = graph.algorithm
        try options.apply(to: &request)
        if let heading {
            // The heading picks the direction of the road the driver is on.
            request.bearings = [(heading.truncatingRemainder(dividingBy: 360), avoidUturn ? min(headingRange, 90) : headingRange), nil]
        }
        let data = try graph.load()
        try Render.print(try RouteService(data: data, avoiding: try avoiding.metric(data)).route(request), of: data, compact: output.compact)
    }
}
