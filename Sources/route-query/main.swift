import ArgumentParser
import OffgridCore
import ToolSupport

struct RouteQueryTool: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "route-query",
        abstract: "Answer routing queries offline from a graph file, in OSRM-compatible JSON.",
        discussion: """
        Examples:
          route-query route --graph out/liechtenstein.chg --from 9.5209,47.1410 --to 9.5095,47.0613 --steps
          route-query table --graph out/liechtenstein.chg --sources "9.52,47.14;9.51,47.06" --destinations "9.55,47.17"
          route-query batch --graph out/liechtenstein.chg < queries.ndjson > answers.ndjson
          route-query match --graph out/liechtenstein.chg --trace drive.gpx
        """,
        subcommands: [RouteCommand.self, TableCommand.self, NearestCommand.self, ServeCommand.self, RerouteCommand.self, TraceCommand.self, MatchCommand.self, BatchCommand.self, BenchCommand.self, VerifyCommand.self])
}

ToolMain.run(RouteQueryTool.self)
