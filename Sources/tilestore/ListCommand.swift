import ArgumentParser
import TileStore
import OffgridCore
import ToolSupport

/// `list`: the store's regions.
struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List regions: id, metadata, bbox, pack counts, bytes, expiry, complete or not.",
        discussion: "Example:\n  tilestore --store out/store list")

    @OptionGroup var global: StoreOptions

    func run() throws {
        let store = try TileStore.open(try global.path(), access: .read, quiet: global.quiet)
        try printReport(try store.regions())
    }
}
