import ArgumentParser
import TileStore
import ToolSupport

/// `ambient [show|clear]`.
struct AmbientCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ambient",
        abstract: "Show or clear the ambient cache: the map packs `serve --repository` fetched on demand.",
        discussion: """
        `show` (the default) lists the ambient packs, most recently used first, with the bytes that count against the ambient limit (packs a region also uses are listed, not counted, never evicted). `clear` removes every ambient pack no region uses (journaled as ambient-cleared). The limit itself is `serve --ambient-limit`.

        Examples:
          tilestore --store out/store ambient
          tilestore --store out/store ambient clear
        """)

    enum Action: String, ExpressibleByArgument, CaseIterable { case show, clear }

    @OptionGroup var global: StoreOptions
    @Argument(help: "show or clear.") var action: Action = .show

    func run() throws {
        switch action {
        case .show:
            let store = try TileStore.open(try global.path(), access: .read, quiet: global.quiet)
            try printReport(try store.ambientReport(limit: nil))
        case .clear:
            let store = try TileStore.open(try global.path(), access: .write, quiet: global.quiet)
            try printReport(try store.clearAmbient())
        }
    }
}
