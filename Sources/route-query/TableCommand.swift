import ArgumentParser
import RouteQuery
import OffgridCore
import ToolSupport

struct TableCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "table",
        abstract: "Durations (and distances) between sets of points; prints an OSRM table response.",
        discussion: """
        One many-to-many CH search (buckets), not one route per pair. Distances (--annotations
        duration,distance) come from the same search: each pair's length along the path its
        duration came from (where two paths are equally fast, a route may take the other).

        Example:
          route-query table --graph out/liechtenstein.chg --sources "9.52,47.14;9.51,47.06" --destinations "9.55,47.17;9.50,47.10"
        """)

    @OptionGroup var graph: GraphOptions
    @Option(help: "Sources, LON,LAT;LON,LAT;…") var sources: String
    @Option(help: "Destinations, LON,LAT;… (default: the sources).") var destinations: String?
    @Option(help: "duration, distance or duration,distance.") var annotations = "duration"
    @OptionGroup var avoiding: AvoidOptions
    @OptionGroup var output: OutputOptions

    func run() throws {
        let from = try Coordinates.list(sources)
        let to = try destinations.map(Coordinates.list) ?? from
        let wanted = Set(annotations.split(separator: ",").map(String.init))
        guard !wanted.isEmpty, wanted.isSubset(of: ["duration", "distance"]) else {
            throw ValidationError("--annotations takes duration, distance or both")
        }
        let data = try graph.load()
        let table = TableService(service: try RouteService(data: data, avoiding: try avoiding.metric(data)))
        do {
            try Render.print(try table.table(sources: from, destinations: to, durations: wanted.contains("duration"),
                                             distances: wanted.contains("distance"), algorithm: graph.algorithm), of: data, compact: output.compact)
        } catch let failure as QueryFailure {
            try Render.print(failure, of: data, compact: output.compact)
        }
    }
}
