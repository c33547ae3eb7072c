import ArgumentParser
import OffgridCore
import ToolSupport

/// `tilestore --store DIR <command>`: a tile store of map regions, routing packs and style packs.
struct Tilestore: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tilestore",
        abstract: "Install map regions, routing packs and style packs into a tile store; share, quota, evict, verify, read tiles.",
        discussion: """
        A store is one directory: an SQLite index (WAL) and content-addressed files, so a pack two regions share is stored once. Every command prints JSON on stdout (`get` prints the tile). Exit 0 on success, 1 on bad input (one line on stderr), 2 on usage errors.

        Examples:
          tilestore --store out/store install out/maps/oberland
          tilestore --store out/store install-routing out/liechtenstein.routing.pack --region-id oberland
          tilestore --store out/store install-style out/basic.stylepack
          tilestore --store out/store list
          tilestore --store out/store get 14 8623 5759 > tile.mvt.gz
          tilestore --store out/store quota 500MB
          tilestore --store out/store verify --repair
        """,
        subcommands: [
            InstallCommand.self, InstallRoutingCommand.self, InstallStyleCommand.self,
            ListCommand.self, ShowCommand.self, RemoveCommand.self,
            StylePacksCommand.self, RemoveStyleCommand.self,
            QuotaCommand.self, EvictCommand.self, VerifyCommand.self, GetCommand.self,
            ServeCommand.self, ExportCommand.self,
            VersionsCommand.self, LoadCommand.self, UpdateCommand.self, EventsCommand.self, SetMetadataCommand.self, AmbientCommand.self,
        ])

    @OptionGroup var global: StoreOptions
}

/// `--store DIR` and `--quiet`, accepted before or after the command name.
struct StoreOptions: ParsableArguments {
    @OptionGroup var location: StoreLocation

    @Flag(name: .long, help: "No waiting messages on stderr.")
    var quiet = false

    func path() throws -> String { try location.path() }
}

/// `--store DIR` alone, for the commands whose `--quiet` comes with `--progress` (`ProgressOptions`).
struct StoreLocation: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The store directory (created by the first install).", valueName: "dir"))
    var store: String?

    /// The store path, or a usage error.
    func path() throws -> String {
        guard let store, !store.isEmpty else { throw ValidationError("--store DIR is required (tilestore --store DIR <command>)") }
        return store
    }
}

ToolMain.run(Tilestore.self)
