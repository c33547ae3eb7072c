import ArgumentParser
import TileStore
import OffgridCore
import ToolSupport

/// `evict [--all]`.
struct EvictCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "evict",
        abstract: "Evict files no region or style uses (nearest expiry first) and remove orphan files.",
        discussion: """
        Without --all, eviction happens only when a quota is set and the store holds more than the quota minus 50 MB, down to that threshold (what every install does too). Files a region or style uses are never evicted. Orphan files (left by an interrupted install) and temporary files are always removed.

        Examples:
          tilestore --store out/store evict
          tilestore --store out/store evict --all
        """)

    @OptionGroup var global: StoreOptions
    @Flag(help: "Evict every file no region or style uses, whatever the quota.") var all = false

    func run() throws {
        let store = try TileStore.open(try global.path(), access: .write, quiet: global.quiet)
        try printReport(try store.evictUnused(all: all))
    }
}
