import ArgumentParser
import Foundation
import MapPacks
import OffgridCore
import RegionLoader
import RepositoryClient
import TileMath
import TileStore
import ToolSupport

/// `load REGION_ID --from URL (--region | --bbox | --around | --line) …`.
struct LoadCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "load",
        abstract: "Load a region (map packs, routing tiles, a style) from a pack repository, resumably.",
        discussion: """
        The region's exact cover is computed here and refused before any download when it is over the limits (with a suggested split). Objects the store holds are not fetched; the others are fetched over --connections connections into STORE/partial/, hash-checked, and installed in one step (the region appears whole or not at all). An interrupted load (Ctrl-C, kill, network error) keeps the bytes received: the next load or update continues them with Range requests.

        Examples:
          tilestore --store out/store load vaduz --from http://127.0.0.1:8080 --around 9.52,47.14 --radius 3000 --tileset liechtenstein --routing
          tilestore --store out/store load li --from file:///srv/repo --bbox 9.47,47.05,9.64,47.27 --tileset liechtenstein --zoom 0-14 --progress json
        """)

    @OptionGroup var location: StoreLocation
    @OptionGroup var common: ProgressOptions
    @OptionGroup var fetch: FetchFlags
    @Argument(help: "The region id (A-Z a-z 0-9 . _ -).") var id: String
    @Option(help: ArgumentHelp("The repository: http(s)://…, file:///… or a directory.", valueName: "url")) var from: String
    @OptionGroup var place: RegionOptions
    @Option(help: "Region as a GeoJSON line file (needs --buffer).") var line: String?
    @Option(help: "The tileset whose map packs to load (newest version).") var tileset: String?
    @Option(help: "The tileset version (default the newest).") var tilesetVersion: String?
    @Option(help: "Zoom range of the map packs, e.g. 0-14.") var zoom = "0-16"
    @Flag(help: "Load the routing tiles of the region too.") var routing = false
    // Routing tiles keep every mode's roads and tags (RoutingTagSchema.name "all"); a repository
    // written before them names its tiles by profile ("car").
    @Option(help: "The repository's routing tile set (with --routing): \"all\" serves every mode.") var profile = "all"
    @Option(help: "Routing data version (with --routing; default the newest).") var version: String?
    @Option(help: "Also load this style pack (its URI in the repository).") var style: String?
    @Option(help: "JSON value to set as the region's metadata (text, or @FILE).") var metadata: String?
    @Flag(help: "Keep stored packs past their expiry instead of fetching them again.") var acceptExpired = false
    @Option(help: "Refuse regions needing more map packs than this.") var maxPacks = 750
    @Option(help: "Refuse regions whose cover holds more tiles than this.") var maxTiles: Int?
    @Option(help: "Refuse regions needing more routing grid tiles than this.") var maxRoutingTiles = 4096

    func validate() throws {
        if place.givenCount + (line == nil ? 0 : 1) != 1 { throw ValidationError("give exactly one of --region, --bbox, --around, --line") }
        if place.around != nil && place.radius == nil { throw ValidationError("--around needs --radius (metres)") }
        if line != nil && place.buffer == nil { throw ValidationError("--line needs --buffer (metres)") }
        if tileset == nil && !routing && style == nil { throw ValidationError("nothing to load: give --tileset, --routing or --style") }
        if tilesetVersion != nil && tileset == nil { throw ValidationError("--tileset-version needs --tileset") }
        if version != nil && !routing { throw ValidationError("--version needs --routing") }
    }

    func run() throws {
        var request = LoadRequest(regionId: id, repository: try RepositoryLocation(from), region: try parseRegion())
        request.tileset = tileset
        request.tilesetVersion = tilesetVersion
        do { request.zooms = try parseZoomRange(zoom) } catch { throw ValidationError("--zoom: \(error)") }
        request.routingProfile = routing ? profile : nil
        request.routingVersion = version
        request.style = style
        request.metadata = try metadata.map(parseMetadata)
        request.acceptExpired = acceptExpired
        request.maxPacks = maxPacks
        request.maxTiles = maxTiles
        request.maxRoutingTiles = maxRoutingTiles
        request.fetch = fetch.options
        request.progress = ProgressReporter.factory(mode: common.progressMode)
        try printReport(try RegionLoader.load(store: try location.path(), request: request, quiet: common.quiet))
    }

    private func parseRegion() throws -> Region {
        if let line { return try place.geoJSONRegion(file: line) }
        guard let region = try place.parse() else { throw ValidationError("give exactly one of --region, --bbox, --around, --line") }
        return region
    }
}
