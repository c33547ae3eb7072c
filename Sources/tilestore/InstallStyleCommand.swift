import ArgumentParser
import TileStore
import OffgridCore
import ToolSupport

/// `install-style X.stylepack`.
struct InstallStyleCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "install-style",
        abstract: "Install or update a style pack: its resources are stored once each, by content hash.",
        discussion: """
        The style is recorded under the pack's URI. Installing the same URI again writes only the resources whose content changed; resources the style no longer uses become evictable.

        Example:
          tilestore --store out/store install-style out/basic.stylepack
        """)

    @OptionGroup var global: StoreOptions
    @Argument(help: ArgumentHelp("The style pack (tilepack-build style).", valueName: "stylepack")) var pack: String

    func run() throws {
        let store = try TileStore.open(try global.path(), access: .write, quiet: global.quiet)
        try printReport(try store.installStyle(pack: pack))
    }
}
