import ArgumentParser
import OffgridCore
import RegionLoader
import RepositoryClient
import TileStore
import ToolSupport

/// `update REGION_ID [--from URL]`.
struct UpdateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "update",
        abstract: "Move a loaded region to the repository's newest versions, fetching only objects the store lacks.",
        discussion: """
        The region is loaded again as it was loaded (geometry, tileset, zooms, routing profile, style) from the repository it came from (or --from). Packs past their expiry are fetched again unless --accept-expired.

        Example:
          tilestore --store out/store update vaduz
        """)

    @OptionGroup var location: StoreLocation
    @OptionGroup var common: ProgressOptions
    @OptionGroup var fetch: FetchFlags
    @Argument(help: "The region id.") var id: String
    @Option(help: ArgumentHelp("Another repository URL than the one the region was loaded from.", valueName: "url")) var from: String?
    @Flag(help: "Keep stored packs past their expiry instead of fetching them again.") var acceptExpired = false

    func run() throws {
        let report = try RegionLoader.update(
            store: try location.path(), regionId: id, from: try from.map(RepositoryLocation.init), acceptExpired: acceptExpired,
            fetch: fetch.options, progress: ProgressReporter.factory(mode: common.progressMode), quiet: common.quiet)
        try printReport(report)
    }
}
