import ArgumentParser
import Foundation
import RouteQuery
import OffgridCore
import ToolSupport

struct BatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "batch",
        abstract: "Answer NDJSON queries from stdin, one answer line per query line, in order.",
        discussion: """
        A query line: {"id":…,"from":[lon,lat],"to":[lon,lat]} plus optional "via", "bearings",
        "radiuses", "steps", "geometries", "overview", "full" (include the whole route), "exclude"
        (classes as --exclude, added to --exclude and --avoid; a metric per exclusion set, made once).
        An answer line: {"id":…,"code":"Ok","distance_m":…,"duration_s":…} (and "route" when full).
        Bad lines get their own code and message; the batch goes on. Uses every core.

        Example:
          route-query batch --graph out/liechtenstein.chg --stats < samples/queries.ndjson > out/answers.ndjson
        """)

    @OptionGroup var graph: GraphOptions
    @OptionGroup var options: RouteOptions
    @OptionGroup var avoiding: AvoidOptions
    @Flag(help: "Include the full route in every answer.") var full = false
    @Flag(help: "Answer with the travel time only (no path: the fastest kind of query).") var durationOnly = false
    @Flag(help: "Latency percentiles and throughput on stderr.") var stats = false
    @OptionGroup var common: ThreadOptions

    func run() throws {
        let data = try graph.load(.resident)
        var defaults = RouteRequest(coordinates: [])
        defaults.algorithm = graph.algorithm
        try options.apply(to: &defaults)
        var runner = BatchRunner(data: data, defaults: defaults, full: full, durationOnly: durationOnly,
                                 threads: common.threadCount)
        runner.avoidance = try avoiding.avoidance()
        let report = try runner.run(input: 0, output: 1)   // stdin, stdout
        if stats { StdIO.err(report.text + "\n") }
    }
}
