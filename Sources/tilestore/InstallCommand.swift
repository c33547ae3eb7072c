import ArgumentParser
import TileStore
import OffgridCore
import ToolSupport

/// `install REGION_DIR`: a map region from `tilepack-build maps` / `predict`.
struct InstallCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "install",
        abstract: "Install or update a map region (a directory written by tilepack-build maps or predict).",
        discussion: """
        Packs are checked against region.json (size, SHA-256, structure and tile CRC32s) and stored once by content: packs the store has already are not copied. Installing a region id again updates it in place: only packs whose hash changed, or whose stored copy has expired, are written; the files of unchanged packs are not touched. Limits (unique map packs across all regions, 750 by default) and the quota are checked before anything is copied.

        Example:
          tilestore --store out/store install out/maps/oberland
        """)

    @OptionGroup var location: StoreLocation
    @OptionGroup var common: ProgressOptions
    @Argument(help: ArgumentHelp("The region directory (region.json and packs/).", valueName: "region-dir")) var regionDir: String
    @Option(help: "Region id instead of region.json's.") var id: String?
    @Flag(help: "Install an expired region, and keep stored packs past their expiry instead of copying them again.") var acceptExpired = false
    @Option(help: "Unique map packs the store's regions may use (default: region.json's limits.maxPacks, else 750).") var maxPacks: Int?
    @Option(help: "Tiles the store's regions' unique packs may hold (default: region.json's limits.maxTiles, else no limit).") var maxTiles: Int?

    func validate() throws {
        if let maxPacks, maxPacks < 1 { throw ValidationError("--max-packs must be at least 1") }
        if let maxTiles, maxTiles < 1 { throw ValidationError("--max-tiles must be at least 1") }
        if let id, id.isEmpty { throw ValidationError("--id must not be empty") }
    }

    func run() throws {
        let store = try TileStore.open(try location.path(), access: .write, quiet: common.quiet)
        var options = InstallOptions()
        options.acceptExpired = acceptExpired
        options.regionId = id
        options.maxPacks = maxPacks
        options.maxTiles = maxTiles
        options.progress = ProgressReporter.factory(mode: common.progressMode)
        try printReport(try store.installRegion(directory: regionDir, options: options))
    }
}
