import ArgumentParser
import TileStore
import OffgridCore
import ToolSupport

/// `verify [--repair]`.
struct VerifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Check every file against the index (SHA-256); with --repair drop what is corrupt.",
        discussion: """
        Reports missing and corrupt files, orphan files (not in the index: left by an interrupted install, harmless) and incomplete regions and styles. With --repair, corrupt and missing files are dropped from the index and deleted, orphans removed, and regions using them marked incomplete (install them again to complete them). Exit 1 when the store is inconsistent and was not repaired (the report is still printed).

        Examples:
          tilestore --store out/store verify
          tilestore --store out/store verify --repair
        """)

    @OptionGroup var global: StoreOptions
    @Flag(help: "Drop corrupt and missing files from the index, delete them and orphan files.") var repair = false

    func run() throws {
        let store = try TileStore.open(try global.path(), access: repair ? .write : .verify, quiet: global.quiet)
        let report = try store.verify(repair: repair)
        try printReport(report)
        if !report.consistent && !repair {
            throw InputError(file: store.root, "inconsistent: \(report.corrupt.count) corrupt and \(report.missing.count) missing files, index check \(report.indexCheck) (run tilestore verify --repair)")
        }
    }
}
