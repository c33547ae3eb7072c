import ArgumentParser
import TileStore
import OffgridCore
import ToolSupport

/// `show ID`.
struct ShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show one region: geometry, tileset descriptor, routing data, metadata and every pack.",
        discussion: "Example:\n  tilestore --store out/store show oberland")

    @OptionGroup var global: StoreOptions
    @Argument(help: "The region id.") var id: String

    func run() throws {
        let store = try TileStore.open(try global.path(), access: .read, quiet: global.quiet)
        try printReport(try store.region(id: id))
    }
}
