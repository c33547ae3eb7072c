import ArgumentParser
import TileStore
import OffgridCore
import ToolSupport

/// `remove-style URI`.
struct RemoveStyleCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove-style",
        abstract: "Remove a style. Its resources no other style uses become evictable.",
        discussion: "Example:\n  tilestore --store out/store remove-style offgrid-basic")

    @OptionGroup var global: StoreOptions
    @Argument(help: "The style URI (see style-packs).") var uri: String

    func run() throws {
        let store = try TileStore.open(try global.path(), access: .write, quiet: global.quiet)
        try printReport(try store.removeStyle(uri: uri))
    }
}
