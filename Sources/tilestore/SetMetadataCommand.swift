import ArgumentParser
import TileStore
import ToolSupport

/// `set-metadata REGION_ID JSON`.
struct SetMetadataCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set-metadata",
        abstract: "Replace a region's metadata with a JSON value (journaled as region-metadata-changed).",
        discussion: "Example:\n  tilestore --store out/store set-metadata vaduz '{\"name\":\"Vaduz\"}'")

    @OptionGroup var global: StoreOptions
    @Argument(help: "The region id.") var id: String
    @Argument(help: ArgumentHelp("The metadata: JSON text, or @FILE.", valueName: "json")) var json: String

    func run() throws {
        let metadata = try parseMetadata(json)
        let store = try TileStore.open(try global.path(), access: .write, quiet: global.quiet)
        try printReport(try store.setMetadata(regionId: id, metadata: metadata))
    }
}
