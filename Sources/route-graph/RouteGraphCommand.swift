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
        Reads one or more directories written by tilepack-unpack (same data version and profile),
        stitches their tiles, and writes one graph file that route-query maps into memory.
        A JSON summary goes to stdout.

        Example:
          route-graph out/routing/liechtenstein --output out/liechtenstein.chg
        """)

    @Argument(help: "Unpacked routing directories.") var directories: [String]
    @Option(help: "The graph file to write.") var output: String
    @Option(help: "The profile the tiles were built with (default: profiles/car.json).") var profile: String?
    @Option(help: "Progress on stderr: auto (a bar on a terminal), json (NDJSON events) or none.") var progress: ProgressMode = .auto
    @Flag(help: "No progress output.") var quiet = false
    @Option(help: "Threads for contraction (default: the number of cores).") var threads: Int?
    @Flag(help: "Contraction statistics on stderr.") var verbose = false
    @Option(help: "Witness search settle limit during contraction (tuning).") var witnessSettleLimit: Int?
    @Option(help: "Witness search settle limit when estimating priorities (tuning).") var simulationSettleLimit: Int?

    func validate() throws {
        if directories.isEmpty { throw ValidationError("give at least one routing directory") }
    }

    func run() throws {
        let started = ProgressReporter.monotonicNanoseconds()
        let carProfile = try CarProfile.load(path: profile)
        var build = GraphBuild(profile: carProfile, threads: threads ?? ProcessInfo.processInfo.activeProcessorCount)
        if verbose { build.log = { StdIO.err("route-graph: " + $0 + "\n") } }
        if witnessSettleLimit != nil || simulationSettleLimit != nil {
            var o = ContractionOptions()
            if let w = witnessSettleLimit { o.witnessSettleLimit = w }
            if let s = simulationSettleLimit { o.simulationSettleLimit = s }
            build.contractionOptions = o
        }
        var reporter: ProgressReporter?
        let mode = quiet ? ProgressMode.none : progress
        build.progress = { stage, done, total in
            if reporter == nil { reporter = ProgressReporter(mode: mode, label: stage, totalBytes: 0, totalItems: total, itemName: "nodes") }
            reporter?.update(bytesDone: 0, itemsDone: done)
        }
        let s = try build.run(directories: directories, output: output)
        reporter?.finish()
        var stages: [String: Double] = [:]
        for (name, seconds) in s.stageSeconds { stages[name] = (seconds * 1000).rounded() / 1000 }
        JSONOutput.printStdout([
            "output": output,
            "dataVersion": s.dataVersion,
            "tiles": s.tiles,
            "nodes": s.nodes,
            "edges": s.edges,
            "droppedEdges": s.droppedEdges,
            "compressedNodes": s.compressedNodes,
            "compressedEdges": s.compressedEdges,
            "edgeBasedNodes": s.edgeBasedNodes,
            "edgeBasedEdges": s.edgeBasedEdges,
            "restrictions": s.restrictions,
            "restrictedTurns": s.restrictedTurns,
            "uTurns": s.uTurns,
            "shortcuts": s.shortcuts,
            "components": s.components,
            "mainComponentShare": (s.mainComponentShare * 10000).rounded() / 10000,
            "bytes": s.bytes,
            "stageSeconds": stages,
            "seconds": Double(ProgressReporter.monotonicNanoseconds() - started) / 1e9,
            "peakRSSBytes": PeakMemory.bytes(),
        ])
    }
}
