import ArgumentParser
import Foundation
import MapPacks
import OffgridCore
import PackPublishing
import RoutingProfile
import TileMath
import ToolSupport

/// `tilepack-build publish maps|routing|style`: packs into a repository any static web server
/// can host (docs/FORMATS.md, "Pack repository").
struct PublishCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "publish",
        abstract: "Publish map packs, routing tiles or a style pack into a pack repository.",
        discussion: """
        The repository is a directory of content-addressed objects, per-version indexes and a \
        top-level index.json replaced last by rename, so any static web server can host it \
        while it is published into. Publishing the same input again writes nothing.

        Examples:
          tilepack-build publish maps --source samples/liechtenstein.mbtiles --tileset liechtenstein --repository out/repository
          tilepack-build publish routing --input samples/liechtenstein.osm.pbf --repository out/repository
          tilepack-build publish style --stylepack out/basic.stylepack --repository out/repository
        """,
        subcommands: [PublishMaps.self, PublishRouting.self, PublishStyle.self])
}

/// Prints the publish summary as one JSON line on stdout.
func printSummary(_ summary: PublishSummary) throws {
    StdIO.out(try JSONEncoding.string(summary, pretty: false) + "\n")
}

func waitNotice(_ repository: String, quiet: Bool) -> () -> Void {
    { if !quiet { StdIO.err("tilepack-build: waiting for another publisher to finish with \(repository)\n") } }
}

struct PublishMaps: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "maps",
        abstract: "Publish every map pack of a tileset (all bands) as a new tileset version.",
        discussion: """
        Cuts every pack of the tileset: for each zoom band, each parent tile holding at least one \
        tile. Packs are the bytes `tilepack-build maps` writes. The version is the source's metadata \
        `version`, or --version; an error when neither is given. A pack that did not change since an \
        earlier version is the same object and is not written again.
        """)

    @Option(help: "The tileset: MBTiles or PMTiles (told apart by content, not name).") var source: String
    @Option(help: "The tileset's name in the repository ([A-Za-z0-9._-]).") var tileset: String
    @Option(help: "The repository directory (created when missing).") var repository: String
    @Option(help: "The version to publish (default: the source's metadata `version`).") var version: String?
    @Option(help: "Zoom bands file: {\"bands\": [[0,5],[6,10],…]} (default 0-5, 6-10, 11-14, 15-16).") var bands: String?
    @OptionGroup var common: CommonOptions

    func run() throws {
        var options = MapPublisher.Options(tileset: tileset, version: version)
        options.threads = common.threadCount
        if let bands {
            guard let text = try? String(contentsOfFile: bands, encoding: .utf8) else { throw InputError(file: bands, "cannot read the bands file") }
            do { options.bands = try ZoomBands.parse(json: text) } catch { throw InputError(file: bands, "\(error)") }
        }
        try printSummary(MapPublisher.publish(sourcePath: source, options: options, repository: repository,
                                              onWait: waitNotice(repository, quiet: common.quiet),
                                              progress: ProgressReporter.factory(mode: common.progressMode)))
    }
}

struct PublishRouting: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "routing",
        abstract: "Publish every routing tile of an extract under its data version.",
        discussion: """
        Builds the routing tiles of the whole extract (as `tilepack-build routing` does) and stores \
        each tile's bytes as an object; the index records the data version, profile and grid a \
        client needs to write an unpacked routing directory that `route-graph` compiles.
        """)

    @Option(help: "The .osm.pbf extract.") var input: String
    @Option(help: "The repository directory (created when missing).") var repository: String
    @Option(help: "Routing grid cell size in degrees.") var grid = 0.25
    @OptionGroup var common: CommonOptions

    func run() throws {
        let routingGrid: RoutingGrid
        do { routingGrid = try RoutingGrid(degrees: grid) } catch { throw ValidationError("--grid: \(error)") }
        try printSummary(RoutingPublisher.publish(input: input, grid: routingGrid, repository: repository,
                                                  threads: common.threadCount, onWait: waitNotice(repository, quiet: common.quiet),
                                                  progress: ProgressReporter.factory(mode: common.progressMode)))
    }
}

struct PublishStyle: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "style",
        abstract: "Publish a style pack under its URI.",
        discussion: "The pack is checked whole first; a pack published earlier under the same URI is replaced in the index.")

    @Option(help: "The style pack (from `tilepack-build style`).") var stylepack: String
    @Option(help: "The repository directory (created when missing).") var repository: String

    func run() throws {
        try printSummary(StylePublisher.publish(stylePack: stylepack, repository: repository,
                                                onWait: waitNotice(repository, quiet: false)))
    }
}
