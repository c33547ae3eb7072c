import ArgumentParser
import ContractionHierarchy
import Foundation
import RoutingGraph
import RoutingProfile
import OffgridCore
import ToolSupport

/// `route-graph`: unpacked routing tiles → contraction-hierarchy graph file.
struct RouteGraph: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "route-graph",
        abstract: "Compile unpacked routing tiles into a contraction-hierarchy graph file.",
        discussion: """
        Reads one or more directories written by tilepack-unpack (same data version), stitches
        their tiles, applies the profile (the tiles serve every mode) and writes one graph file
        that route-query maps into memory. A JSON summary goes to stdout.

        Examples:
          route-graph out/routing/liechtenstein --output out/liechtenstein.chg
          route-graph out/routing/liechtenstein --profile profiles/foot.json --output out/liechtenstein-foot.chg
        """)

    @Argument(help: "Unpacked routing directories.") var directories: [String]
    @Option(help: "The graph file to write.") var output: String
    @Option(help: "The profile to apply: profiles/car.json (default), bicycle.json, foot.json or your own.") var profile: String?
    @OptionGroup var common: CommonOptions
    @Flag(help: "Contraction statistics on stderr.") var verbose = false
    @Option(help: "Witness search settle limit during contraction (tuning).") var witnessSettleLimit: Int?
    @Option(help: "Witness search settle limit when estimating priorities (tuning).") var simulationSettleLimit: Int?
    @Option(help: ArgumentHelp("Top ranks whose distances the file tables (size² × 3 bytes; 0: none).",
                               discussion: """
                                   They are left uncontracted: queries search below them and finish with \
                                   table lookups. The default is √(22 / 3 × edge-based nodes) rounded down to \
                                   a multiple of 64, at most 4,096.
                                   """,
                               valueName: "ranks"))
    var coreSize: Int?

    func validate() throws {
        if directories.isEmpty { throw ValidationError("give at least one routing directory") }
        if let coreSize, !(0...CHCoreTable.maxSize).contains(coreSize) { throw ValidationError("--core-size must be 0...\(CHCoreTable.maxSize)") }
    }

    func run() throws {
        let started = MonotonicClock.nanoseconds()
        let travelProfile = try TravelProfile.load(path: profile)
        var build = GraphBuild(profile: travelProfile, threads: common.threadCount)
        build.coreSize = coreSize
        if verbose { build.log = { StdIO.err("route-graph: " + $0 + "\n") } }
        if witnessSettleLimit != nil || simulationSettleLimit != nil {
            var o = ContractionOptions()
            if let w = witnessSettleLimit { o.witnessSettleLimit = w }
            if let s = simulationSettleLimit { o.simulationSettleLimit = s }
            build.contractionOptions = o
        }
        var reporter: ProgressReporter?
        let mode = common.progressMode
        build.progress = { stage, done, total in
            if reporter == nil { reporter = ProgressReporter(mode: mode, label: stage, totalBytes: 0, totalItems: total, itemName: "nodes") }
            reporter?.update(bytesDone: 0, itemsDone: done)
        }
        let s = try build.run(directories: directories, output: output)
        reporter?.finish()
        StdIO.out(JSONWriter.string(Self.summaryJSON(s, output: output, seconds: MonotonicClock.seconds(since: started))) + "\n")
    }

    /// The JSON summary printed on stdout (field names are part of the tool's interface).
    static func summaryJSON(_ s: GraphBuild.Summary, output: String, seconds: Double) -> JSONValue {
        var stages: [String: JSONValue] = [:]
        for (name, seconds) in s.stageSeconds { stages[name] = .double((seconds * 1000).rounded() / 1000) }
        return .object([
            "output": .string(output),
            "dataVersion": .string(s.dataVersion),
            "tiles": .int(s.tiles),
            "nodes": .int(s.nodes),
            "edges": .int(s.edges),
            "droppedEdges": .int(s.droppedEdges),
            "parallelDirectionsDropped": .int(s.parallelDirectionsDropped),
            "compressedNodes": .int(s.compressedNodes),
            "compressedEdges": .int(s.compressedEdges),
            "edgeBasedNodes": .int(s.edgeBasedNodes),
            "edgeBasedEdges": .int(s.edgeBasedEdges),
            "restrictions": .int(s.restrictions),
            "restrictedTurns": .int(s.restrictedTurns),
            "restrictionCopies": .int(s.restrictionCopies),
            "restrictionsSkipped": .int(s.skippedRestrictions),
            "uTurns": .int(s.uTurns),
            "shortcuts": .int(s.shortcuts),
            "coreRanks": .int(s.coreRanks),
            "components": .int(s.components),
            "mainComponentShare": .double((s.mainComponentShare * 10000).rounded() / 10000),
            "bytes": .int(s.bytes),
            "stageSeconds": .object(stages),
            "seconds": .double(seconds),
            "peakRSSBytes": .int(Int(PeakMemory.bytes())),
        ])
    }
}
