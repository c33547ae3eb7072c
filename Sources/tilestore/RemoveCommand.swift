import ArgumentParser
import TileStore
import OffgridCore
import ToolSupport

/// `remove ID`.
struct RemoveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove",
        abstract: "Remove a region. Its packs no other region uses become evictable; no file is deleted now.",
        discussion: "Example:\n  tilestore --store out/store remove vaduz")

    @OptionGroup var global: StoreOptions
    @Argument(help: "The region id.") var id: String

    func run() throws {
        let store = try TileStore.open(try global.path(), access: .write, quiet: global.quiet)
        try printReport(try store.removeRegion(id: id))
    }
}
