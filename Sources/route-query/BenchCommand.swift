import ArgumentParser
import Foundation
import RouteQuery
import OffgridCore
import ToolSupport

struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure query latencies on a graph (JSON on stdout): what bench/route-query reports.",
        discussion: "Example:\n  route-query bench --graph out/liechtenstein.chg --queries 10000")

    @Option(help: "The graph file written by route-graph.") var graph: String
    @Option(help: "Random queries per measurement.") var queries = 10_000
    @Option(help: "Seed of the random queries.") var seed: UInt64 = 1
    @Flag(help: "Measure the customizable hierarchy on the graph's turn graph instead: order, customization (the default metric, and one without motorway, trunk and primary roads), distance queries checked against the hierarchy and Dijkstra; then --exclude motorway,toll,ferry,unpaved,tunnel through the route service (first query, travel times between points) and 50 closures.")
    var customizable = false

    func run() throws {
        if customizable {
            let data = try RoutingData(path: graph)
            var bench = CustomizableBenchmark(data: data, queries: queries, seed: seed)
            try Render.print(try bench.run())
            return
        }
        // Time to first answer: open (map) the graph, snap two points, route with steps.
        let t0 = MonotonicClock.nanoseconds()
        let data = try RoutingData(path: graph)
        let service = try RouteService(data: data)
        var bench = QueryBenchmark(data: data, queries: queries, seed: seed)
        let first = bench.firstAnswer(service)
        let firstMillis = Double(MonotonicClock.nanoseconds() - t0) / 1e6
        var out = try bench.run()
        out.firstAnswerMillis = (firstMillis * 100).rounded() / 100
        out.firstAnswerCode = first
        out.graph = graph
        try Render.print(out)
    }
}
