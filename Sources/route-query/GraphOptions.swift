import ArgumentParser
import RouteQuery
import RoutingGraph
import OffgridCore
import ToolSupport

/// Options every subcommand shares: the graph and how to search it.
struct GraphOptions: ParsableArguments {
    @Option(help: "The graph file written by route-graph.") var graph: String
    @Option(help: "Search algorithm: ch (contraction hierarchy) or dijkstra (plain, for checks).") var algorithm: LegSearch.Algorithm = .ch

    /// The graph for a process answering one query or trace (`.oneOff`: memory follows what it
    /// touches), or for many (`.resident`).
    func load(_ use: GraphFile.Use = .oneOff) throws -> RoutingData { try RoutingData(path: graph, use: use) }
}

extension LegSearch.Algorithm: ExpressibleByArgument {}
extension RouteRequest.Geometries: ExpressibleByArgument {}
extension RouteRequest.Overview: ExpressibleByArgument {}
extension RouteRequest.Format: ExpressibleByArgument {}

/// Parsing of `LON,LAT`, `LON,LAT;LON,LAT`, `DEG,RANGE;…` and `M;…` arguments.
enum Coordinates {
    static func point(_ text: String) throws -> (lon: Double, lat: Double) {
        let parts = text.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 2, let lon = parts[0], let lat = parts[1] else {
            throw ValidationError("'\(text)' is not LON,LAT")
        }
        return (lon, lat)
    }

    static func list(_ text: String) throws -> [(lon: Double, lat: Double)] {
        try text.split(separator: ";").map { try point(String($0)) }
    }

    static func bearings(_ text: String) throws -> [(degrees: Double, range: Double)?] {
        try text.split(separator: ";", omittingEmptySubsequences: false).map { item in
            if item.isEmpty { return nil }
            let p = item.split(separator: ",").map { Double($0) }
            guard p.count == 2, let d = p[0], let r = p[1] else { throw ValidationError("bearing '\(item)' is not DEG,RANGE") }
            return (d, r)
        }
    }

    static func radiuses(_ text: String) throws -> [Double?] {
        try text.split(separator: ";", omittingEmptySubsequences: false).map { item in
            if item.isEmpty { return nil }
            if item == "unlimited" { return .infinity }
            guard let r = Double(item) else { throw ValidationError("radius '\(item)' is not a number of metres") }
            return r
        }
    }
}

import Foundation
