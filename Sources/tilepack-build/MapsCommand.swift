import ArgumentParser
import Foundation
import MapPacks
import TileMath
import OffgridCore
import ToolSupport

/// `tilepack-build maps`: map tile packs by zoom band for a region, from MBTiles or PMTiles.
struct MapsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "maps",
        abstract: "Build map tile packs (one per zoom band and parent tile) for a region from MBTiles or PMTiles.",
        discussion: """
        The region's exact tile cover decides which packs it needs; each pack holds every tile of
        the source under its parent tile within its band, bytes as stored, identical tiles once.
        The zoom range is limited to the source's and widened to whole bands (8-15 → 6-16).
        Limits are checked before any work. A JSON summary goes to stdout.

        Examples:
          tilepack-build maps --source samples/liechtenstein.mbtiles --region samples/regions/liechtenstein-oberland.geojson --output out/maps/oberland
          tilepack-build maps --source x.pmtiles --around 9.52,47.14 --radius 2000 --zoom 8-15 --output out/maps/vaduz
          tilepack-build maps --source x.mbtiles --bbox 9.4,47,9.7,47.3 --estimate
          tilepack-build maps --region r.geojson --zoom 0-12 --cover > cover.ndjson
        """)

    @OptionGroup var flags: MapPackFlags
    @OptionGroup var place: RegionOptions
    @Option(help: "Zoom range, widened to whole bands.") var zoom = "0-16"
    @Flag(help: "Print the region's exact tile cover at each requested zoom as NDJSON [x,y,z] lines (no source needed) and nothing else.") var cover = false

    func validate() throws {
        if place.givenCount != 1 { throw ValidationError("give exactly one of --region, --bbox, --around") }
        if place.around != nil && place.radius == nil { throw ValidationError("--around needs --radius (metres)") }
    }

    func run() throws {
        let started = MonotonicClock.nanoseconds()
        let zooms: ClosedRange<Int>
        do { zooms = try parseZoomRange(zoom) } catch { throw ValidationError("--zoom: \(error)") }
        let (selected, defaultId) = try selectedRegion()
        if cover {
            try CoverPrinter.print(TileCover(selected), zooms: zooms, events: flags.common.progress == .json)
            return
        }
        let options = try flags.options(zooms: zooms, defaultId: defaultId)
        let summary = try flags.run(region: selected, options: options, started: started)
        StdIO.out(try JSONEncoding.string(summary, pretty: true) + "\n")
    }

    /// The region from --region, --bbox or --around, and the id region.json gets by default:
    /// the region file's name, else "region".
    func selectedRegion() throws -> (Region, String) {
        guard let selected = try place.parse() else { throw ValidationError("give exactly one of --region, --bbox, --around") }
        let id = place.region.map { (($0 as NSString).lastPathComponent as NSString).deletingPathExtension } ?? "region"
        return (selected, id)
    }
}
