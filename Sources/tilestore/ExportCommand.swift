import ArgumentParser
import OffgridCore
import TileServer
import ToolSupport

/// `export REGION_ID --format pmtiles|mbtiles --output FILE [--tileset NAME]`.
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write a region's tiles (all its map packs, one tileset) as a PMTiles v3 archive or an MBTiles 1.3 file.",
        discussion: """
        The output is written atomically (a temporary file renamed into place) and is the same bytes for the same region. PMTiles: tiles clustered in Hilbert order, identical tiles stored once, run-length entries, gzip directories, leaf directories when the root would pass 16 KiB, JSON metadata (name, format, bounds, vector_layers, ...). MBTiles: the metadata table per the 1.3 spec and a tiles table with a unique index. Prints a JSON summary.

        Examples:
          tilestore --store out/store export vaduz-2km --format pmtiles --output out/vaduz-2km.pmtiles
          tilestore --store out/store export liechtenstein-oberland --format mbtiles --output out/oberland.mbtiles
        """)

    @OptionGroup var global: StoreOptions
    @Argument(help: "The region id (see tilestore list).") var regionId: String
    @Option(help: ArgumentHelp("pmtiles or mbtiles.", valueName: "format")) var format: String
    @Option(help: ArgumentHelp("The file to write.", valueName: "file")) var output: String
    @Option(help: "The tileset to export (default: the region's tileset).") var tileset: String?

    func run() throws {
        guard let f = RegionExport.Format(rawValue: format.lowercased()) else {
            throw ValidationError("--format must be pmtiles or mbtiles, got \"\(format)\"")
        }
        let report = try RegionExport.export(store: try global.path(), region: regionId, format: f, output: output, tileset: tileset)
        try printReport(report)
    }
}
