import ArgumentParser
import TileStore
import OffgridCore
import ToolSupport

/// `style-packs`.
struct StylePacksCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "style-packs",
        abstract: "List the installed styles: URI, resources, bytes, font stacks, sprites, sources.",
        discussion: "Example:\n  tilestore --store out/store style-packs")

    @OptionGroup var global: StoreOptions

    func run() throws {
        let store = try TileStore.open(try global.path(), access: .read, quiet: global.quiet)
        try printReport(try store.styles())
    }
}
