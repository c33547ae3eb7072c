import ArgumentParser
import OffgridCore
import RegionLoader
import RepositoryClient
import ToolSupport

/// `versions --from URL`.
struct VersionsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "versions",
        abstract: "List a pack repository's tilesets, routing data versions (newest first) and styles.",
        discussion: "Example:\n  tilestore versions --from http://127.0.0.1:8080/repository")

    @Option(help: ArgumentHelp("The repository: http(s)://…, file:///… or a directory.", valueName: "url")) var from: String
    @OptionGroup var fetch: FetchFlags

    func run() throws {
        let value = try RegionLoader.versions(from: try RepositoryLocation(from), fetch: fetch.options)
        StdIO.out(JSONWriter.string(value, pretty: true) + "\n")
    }
}
