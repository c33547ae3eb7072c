import ArgumentParser
import Foundation
import TileStore
import OffgridCore
import ToolSupport

/// `install-routing X.routing.pack --region-id ID`.
struct InstallRoutingCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "install-routing",
        abstract: "Install a routing pack as a region's routing data (every tile checked against its CRC32s).",
        discussion: """
        The pack becomes region ID's routing pack, replacing the one it had (its map packs stay). A region that does not exist yet is created with the pack's region geometry. A pack the store has already is not copied again.

        Example:
          tilestore --store out/store install-routing out/liechtenstein.routing.pack --region-id liechtenstein
        """)

    @OptionGroup var location: StoreLocation
    @OptionGroup var common: ProgressOptions
    @Argument(help: ArgumentHelp("The routing pack (tilepack-build routing).", valueName: "pack")) var pack: String
    @Option(help: "The region the pack belongs to.") var regionId: String
    @Option(help: "The region's expiry (ISO 8601 date or date-time).") var expires: String?
    @Option(help: "JSON value to set as the region's metadata (text, or @FILE).") var metadata: String?
    @Flag(help: "Accept an expiry in the past, and keep a stored copy past its expiry.") var acceptExpired = false

    func validate() throws {
        if regionId.isEmpty { throw ValidationError("--region-id must not be empty") }
    }

    func run() throws {
        var options = RoutingInstallOptions()
        options.acceptExpired = acceptExpired
        options.expires = expires
        options.metadata = try metadata.map(parseMetadata)
        options.progress = ProgressReporter.factory(mode: common.progressMode)
        let store = try TileStore.open(try location.path(), access: .write, quiet: common.quiet)
        try printReport(try store.installRouting(pack: pack, regionId: regionId, options: options))
    }
}

/// `--metadata` text or `@FILE` as a JSON value.
func parseMetadata(_ argument: String) throws -> JSONValue {
    var text = argument
    if argument.hasPrefix("@") {
        let file = String(argument.dropFirst())
        guard let t = try? String(contentsOfFile: file, encoding: .utf8) else {
            throw InputError(file: file, "cannot read the metadata file")
        }
        text = t
    }
    guard let value = try? JSONReader.parse(text) else {
        if argument.hasPrefix("@") { throw InputError(file: String(argument.dropFirst()), "metadata is not valid JSON") }
        throw ValidationError("--metadata is not valid JSON")
    }
    return value
}
