import ArgumentParser
import Foundation
import OSMPBF
import RoutingPacks
import RoutingProfile
import RoutingTiles
import TileMath
import OffgridCore
import ToolSupport

/// `tilepack-build routing`: OSM PBF → routing pack (grid tiles of every mode's roads and their tags).
struct RoutingCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "routing",
        abstract: "Build a routing pack from an OSM PBF extract.",
        discussion: """
        The pack holds every routing-grid tile the region touches, complete, each zlib-compressed,
        with an index. Tiles keep the roads of every mode and the OSM tags routing profiles read,
        not one profile's verdicts: `route-graph --profile` applies a profile. A JSON summary goes
        to stdout.

        Examples:
          tilepack-build routing --input samples/liechtenstein.osm.pbf --output out/li.routing.pack
          tilepack-build routing --input x.osm.pbf --bbox 9.25,47,9.5,47.25 --output west.routing.pack
        """)

    @Option(help: "The .osm.pbf extract.") var input: String
    @Option(help: "The routing pack to write.") var output: String
    @Option(help: "Region as minLon,minLat,maxLon,maxLat.") var bbox: String?
    @Option(help: "Region as a GeoJSON file (Polygon or MultiPolygon, Feature or FeatureCollection).") var region: String?
    @Option(help: "Refuse regions of more grid tiles than this.") var maxTiles = 4096
    @Option(help: "Routing grid cell size in degrees.") var grid = 0.25
    @OptionGroup var common: CommonOptions

    func validate() throws {
        if bbox != nil && region != nil { throw ValidationError("give --bbox or --region, not both") }
        if maxTiles < 1 { throw ValidationError("--max-tiles must be at least 1") }
    }

    func run() throws {
        let started = MonotonicClock.nanoseconds()
        let routingGrid: RoutingGrid
        do { routingGrid = try RoutingGrid(degrees: grid) } catch { throw ValidationError("--grid: \(error)") }

        // The region and its tiles, checked against the limit before any work.
        var selectedRegion: PolygonRegion?
        if let bbox {
            do { selectedRegion = try PolygonRegion(bbox: BBox(parsing: bbox)) } catch { throw ValidationError("--bbox: \(error)") }
        } else if let region {
            guard let text = try? String(contentsOfFile: region, encoding: .utf8) else {
                throw InputError(file: region, "cannot read the region file")
            }
            do { selectedRegion = try PolygonRegion.parse(geoJSON: text) } catch { throw InputError(file: region, "\(error)") }
        }
        var selected: Set<UInt32>?
        if let selectedRegion {
            let ids = routingGrid.tiles(intersecting: selectedRegion)
            guard ids.count <= maxTiles else { throw InputError(routingGrid.tooManyTilesMessage(tiles: ids, limit: maxTiles)) }
            selected = Set(ids)
        }

        let reader = try PBFReader(path: input, threads: common.threadCount)
        if selectedRegion == nil, let b = reader.header.bbox {
            let ids = routingGrid.tiles(intersecting: BBox(minLon: b.minLon, minLat: b.minLat, maxLon: b.maxLon, maxLat: b.maxLat))
            guard ids.count <= maxTiles else { throw InputError(routingGrid.tooManyTilesMessage(tiles: ids, limit: maxTiles)) }
        }

        let reporter = ProgressReporter(mode: common.progressMode, label: "routing", totalBytes: reader.fileSize,
                                        totalItems: 0, itemName: "tiles")
        let build = RoutingTileBuild(grid: routingGrid)
        let result: RoutingTileBuild.Result
        do {
            result = try build.run(reader, selected: selected) { reporter.update(bytesDone: $0, itemsDone: 0) }
        } catch let e as RoutingTileBuild.BuildError {
            throw InputError(file: input, e.description)
        }
        guard !result.tiles.isEmpty else {
            throw InputError(file: input, "no routable way in the region: nothing to pack")
        }
        if selectedRegion == nil, result.tiles.count > maxTiles {
            throw InputError(routingGrid.tooManyTilesMessage(tiles: result.tiles.map(\.id), limit: maxTiles))
        }

        let regionBBox: BBox = selectedRegion?.bbox ?? result.tiles.map { routingGrid.bbox(of: $0.id) }.reduce(routingGrid.bbox(of: result.tiles[0].id)) { $0.union($1) }
        let isPlainBBox = bbox != nil || selectedRegion == nil
        let header = RoutingPackHeader(
            dataVersion: result.dataVersion, profileName: RoutingTagSchema.name, profileHash: RoutingTagSchema.hash,
            gridDegrees: routingGrid.degrees,
            regionBBox: (regionBBox.minLon, regionBBox.minLat, regionBBox.maxLon, regionBBox.maxLat),
            regionGeoJSON: isPlainBBox ? "" : (selectedRegion?.geoJSON ?? ""),
            createdBy: "tilepack-build \(OffgridVersion.string)")
        try RoutingPackWriter.write(header: header, tiles: result.tiles, to: output)
        let bytes = (try? FileManager.default.attributesOfItem(atPath: output)[.size] as? Int) ?? 0
        reporter.finish(extra: ["tiles": .int(result.tiles.count)])

        let summary: JSONValue = [
            "output": .string(output),
            "dataVersion": .string(result.dataVersion),
            "profile": ["name": .string(RoutingTagSchema.name), "hash": .string(RoutingTagSchema.hash)],
            "grid": .double(routingGrid.degrees),
            "region": ["bbox": .array([regionBBox.minLon, regionBBox.minLat, regionBBox.maxLon, regionBBox.maxLat].map { .double($0) })],
            "tiles": .int(result.tiles.count),
            "nodes": .int(result.nodes),
            "edges": .int(result.edges),
            "routableWays": .int(result.routableWays),
            "osmNodes": .int(result.osmNodes),
            "restrictions": .int(result.restrictions),
            "restrictionsSkipped": .int(result.restrictionsSkipped),
            "rawBytes": .int(result.tiles.reduce(0) { $0 + $1.raw.count }),
            "bytes": .int(bytes),
            "seconds": .double(MonotonicClock.seconds(since: started)),
        ]
        StdIO.out(JSONWriter.string(summary) + "\n")
    }
}
