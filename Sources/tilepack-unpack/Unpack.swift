import ArgumentParser
import RoutingPacks
import OffgridCore
import ToolSupport

/// `tilepack-unpack`: a routing pack into an unpacked routing directory (see docs/CLI.md).
struct Unpack: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tilepack-unpack",
        abstract: "Unpack a routing pack into a directory of tiles and a manifest.",
        discussion: """
            Every tile is decompressed and checked against its CRC32 before the output directory \
            is touched; the directory is then replaced in one atomic step, so an interrupted or \
            failed run leaves the previous contents intact. Packs of the same data version, \
            profile and grid merge into one directory; unpacking a pack that is already there \
            changes nothing.

            Prints a JSON summary on stdout. Exit status: 0 success, 1 bad input, 2 usage error.

            Examples:
              tilepack-unpack liechtenstein.routing.pack --output routing/li
              tilepack-unpack east.routing.pack --output routing/li --progress json
            """)

    @Argument(help: ArgumentHelp("The routing pack to unpack (*.routing.pack).", valueName: "pack"))
    var pack: String

    @Option(name: .long, help: ArgumentHelp("Directory to unpack into (created if missing).", valueName: "dir"))
    var output: String

    @Flag(name: .long, help: """
        If the directory holds another data version, profile or grid, replace its contents with \
        this pack instead of failing.
        """)
    var replace = false

    @OptionGroup var common: CommonOptions

    mutating func validate() throws {
        if output.isEmpty { throw ValidationError("--output must not be empty") }
    }

    func run() throws {
        // Progress totals come from the pack's index, so the pack is opened first.
        let reader = try RoutingPackReader(path: pack)
        let reporter = ProgressReporter(mode: common.progressMode, label: "unpack", totalBytes: reader.totalCompressedBytes,
                                        totalItems: reader.tileCount)
        let summary = try RoutingPackUnpacker.unpack(reader, outputDir: output, replace: replace, threads: common.threadCount,
                                                     progress: reporter)
        StdIO.out(try JSONEncoding.string(summary, pretty: true) + "\n")
    }
}
