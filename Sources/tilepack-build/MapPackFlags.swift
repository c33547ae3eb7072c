import ArgumentParser
import Foundation
import MapPacks
import OffgridCore
import ToolSupport

/// Flags `tilepack-build maps` and `tilepack-build predict` share.
struct MapPackFlags: ParsableArguments {
    @Option(help: "The tileset: MBTiles or PMTiles (told apart by content, not name).") var source: String?
    @Option(help: "Directory to write (packs/<band>/<z>-<x>-<y>.pack and region.json); replaced atomically.") var output: String?
    @Option(help: "Zoom bands file: {\"bands\": [[0,5],[6,10],…]} (default 0-5, 6-10, 11-14, 15-16).") var bands: String?
    @Option(help: "Region id for region.json (default: the region file's name, else \"region\").") var id: String?
    @Option(help: "JSON value attached to the region as its metadata (text, or @FILE).") var metadata: String?
    @Option(help: "Days until the region expires (default: the source's `expires`, if any).") var ttl: Double?
    @Option(help: "Refuse regions needing more unique packs than this, before any work.") var maxPacks = 750
    @Option(help: "Refuse regions whose packs would hold more tiles than this (e.g. the legacy 6000).") var maxTiles: Int?
    @Option(help: "Pixel ratio of the tileset descriptor.") var pixelRatio = 1.0
    @Option(help: "Style URI of the tileset descriptor.") var styleUri: String?
    @Flag(help: "Print the counts (packs per band, tiles, bytes) without writing anything.") var estimate = false
    @OptionGroup var common: CommonOptions

    func validate() throws {
        if maxPacks < 1 { throw ValidationError("--max-packs must be at least 1") }
        if let maxTiles, maxTiles < 1 { throw ValidationError("--max-tiles must be at least 1") }
        if let ttl, !(ttl.isFinite && ttl > 0) { throw ValidationError("--ttl must be a positive number of days") }
        if !(pixelRatio.isFinite && pixelRatio > 0) { throw ValidationError("--pixel-ratio must be positive") }
    }

    /// Reads the options into build options (the zoom range and id are the caller's).
    func options(zooms: ClosedRange<Int>, defaultId: String) throws -> MapBuildOptions {
        var o = MapBuildOptions()
        o.zooms = zooms
        if let bands {
            guard let text = try? String(contentsOfFile: bands, encoding: .utf8) else {
                throw InputError(file: bands, "cannot read the bands file")
            }
            do { o.bands = try ZoomBands.parse(json: text) } catch { throw InputError(file: bands, "\(error)") }
        }
        o.maxPacks = maxPacks
        o.maxTiles = maxTiles
        o.regionId = id ?? defaultId
        if let metadata { o.userMetadata = try parseMetadata(metadata) }
        o.ttlDays = ttl
        o.pixelRatio = pixelRatio
        o.styleURI = styleUri
        return o
    }

    /// `--metadata`: any JSON value, given inline or as @FILE.
    private func parseMetadata(_ argument: String) throws -> JSONValue {
        var text = argument
        var origin: String? = nil
        if argument.hasPrefix("@") {
            origin = String(argument.dropFirst())
            guard let t = try? String(contentsOfFile: origin!, encoding: .utf8) else {
                throw InputError(file: origin, "cannot read the metadata file")
            }
            text = t
        }
        guard let value = try? JSONReader.parse(text) else {
            if let origin { throw InputError(file: origin, "metadata is not valid JSON") }
            throw ValidationError("--metadata is not valid JSON")
        }
        return value
    }
}
