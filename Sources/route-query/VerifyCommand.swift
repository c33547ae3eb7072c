import ArgumentParser
import RouteQuery
import ToolSupport

/// `verify`: the whole check of a graph file, for one that comes from elsewhere. Queries check
/// what they read as they read it (the hierarchy block by block), so a damaged part shows only
/// when a query reaches it; this reads everything first.
struct VerifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Check a whole graph file (every section's CRC32, every content check); prints a summary.",
        discussion: "Exits 1 with one line naming the first damage.\nExample:\n  route-query verify --graph out/liechtenstein.chg")

    @Option(help: "The graph file written by route-graph.") var graph: String

    func run() throws {
        let data = try RoutingData(path: graph)
        try data.file.verify()
        try Render.print(VerifySummary(graph: graph, bytes: data.file.fileSize, nodes: data.nodeCount, edges: data.edgeCount,
                                       ranks: data.rankCount, arcs: data.ch.arcs.count, travelMode: data.file.travelMode.rawValue))
    }
}

struct VerifySummary: Encodable {
    let code = "Ok"
    let graph: String
    let bytes: Int
    let nodes: Int
    let edges: Int
    let ranks: Int
    let arcs: Int
    let travelMode: String
}
