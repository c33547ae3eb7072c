import ArgumentParser
import OffgridCore
import OSRMServer
import RouteQuery
import ToolSupport

struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve OSRM's HTTP API v1 (route, table, nearest, match) from graph files, one per traveller.",
        discussion: """
        GET /route/v1/{profile}/{coordinates}, /table/v1/…, /nearest/v1/…, /match/v1/… and GET /health. The
        profile chooses the graph: driving|car|driving-traffic, cycling|bicycle|bike, walking|foot,
        each answered by the graph given for that mode (route-graph --profile;
        its header says the mode); any other name is InvalidUrl. Bodies are the bytes `route-query route|table|nearest --compact` prints for the
        same query; errors are osrm-routed's codes with HTTP 400 (414 for a URL over 64 KiB).
        Once listening, prints {"listening":"http://HOST:PORT"} on stdout (port 0: an ephemeral port).
        SIGTERM or SIGINT: in-flight requests are answered, then exit 0.

        Example:
          route-query serve --graph out/liechtenstein.chg --graph out/liechtenstein-foot.chg --listen 127.0.0.1:5000
          curl 'http://127.0.0.1:5000/route/v1/driving/9.5215,47.1410;9.4990,47.0660?steps=true'
          curl 'http://127.0.0.1:5000/route/v1/walking/9.5215,47.1410;9.4990,47.0660'
        """)

    @Option(help: "A graph file written by route-graph; repeat it for each travel mode served.") var graph: [String] = []
    @Option(help: "Address to listen on, HOST:PORT (port 0: any free port).") var listen = "127.0.0.1:5000"
    @OptionGroup var threads: ThreadOptions
    @Option(help: "Most table cells (sources × destinations) per request; more is TooBig.") var maxTableSize = 10_000
    @Option(help: "Most coordinates per route request; more is TooBig.") var maxRouteSize = 500
    @Option(help: "Most results of a nearest request; more is TooBig.") var maxNearest = 100
    @Option(help: "Most alternatives per route request; more is TooBig.") var maxAlternatives = 3
    @Option(help: "Most fixes per match request; more is TooBig.") var maxMatchingSize = 100
    @Option(help: "Seconds a connection may stay silent before it is closed.") var idleTimeout = 30

    func validate() throws {
        if graph.isEmpty { throw ValidationError("give at least one --graph") }
        guard let colon = listen.lastIndex(of: ":"), let port = Int(listen[listen.index(after: colon)...]), (0...65535).contains(port),
              colon > listen.startIndex else { throw ValidationError("--listen takes HOST:PORT, not '\(listen)'") }
        for (name, v) in [("--max-table-size", maxTableSize), ("--max-route-size", maxRouteSize), ("--max-nearest", maxNearest), ("--max-matching-size", maxMatchingSize),
                          ("--idle-timeout", idleTimeout)] where v < 1 {
            throw ValidationError("\(name) must be at least 1, not \(v)")
        }
        if maxAlternatives < 0 { throw ValidationError("--max-alternatives must be at least 0") }
    }

    func run() throws {
        let colon = listen.lastIndex(of: ":")!
        var c = OSRMServer.Configuration()
        c.host = String(listen[..<colon])
        c.port = Int(listen[listen.index(after: colon)...])!
        c.threads = threads.threadCount
        c.idleTimeoutSeconds = idleTimeout
        c.limits.maxTableCells = maxTableSize
        c.limits.maxRouteCoordinates = maxRouteSize
        c.limits.maxNearest = maxNearest
        c.limits.maxAlternatives = maxAlternatives
        c.limits.maxMatchCoordinates = maxMatchingSize
        let server = OSRMServer(graphs: try graph.map { try RoutingData(path: $0) }, configuration: c)
        try server.runBlocking { host, port in
            StdIO.out(#"{"listening":"http://\#(host):\#(port)"}"# + "\n")
        }
    }
}
