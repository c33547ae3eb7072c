import ArgumentParser
import Foundation
import MapPacks
import TileMath
import TileSources
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
    @Option(help: "Threads building packs (default: the number of cores).") var threads: Int?
    @Option(help: "Progress on stderr: auto (a bar on a terminal), json (NDJSON events) or none.") var progress: ProgressMode = .auto
    @Flag(help: "No progress output.") var quiet = false

    func validate() throws {
        if maxPacks < 1 { throw ValidationError("--max-packs must be at least 1") }
        if let threads, threads < 1 { throw ValidationError("--threads must be at least 1") }
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
        if let metadata {
            var text = metadata
            var origin: String? = nil
            if metadata.hasPrefix("@") {
                origin = String(metadata.dropFirst())
                guard let t = try? String(contentsOfFile: origin!, encoding: .utf8) else {
                    throw InputError(file: origin, "cannot read the metadata file")
                }
                text = t
            }
            guard let value = try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed]) else {
                if let origin { throw InputError(file: origin, "metadata is not valid JSON") }
                throw ValidationError("--metadata is not valid JSON")
            }
            o.userMetadata = value
        }
        o.ttlDays = ttl
        o.pixelRatio = pixelRatio
        o.styleURI = styleUri
        return o
    }

    /// Plans, checks limits, and builds (or estimates); returns the summary for stdout.
    func run(region: MapRegion, options: MapBuildOptions, started: UInt64,
             extraFiles: [(name: String, bytes: [UInt8])] = []) throws -> [String: Any] {
        guard let sourcePath = source else { throw ValidationError("--source is required") }
        if !estimate && output == nil { throw ValidationError("--output is required (or use --estimate)") }
        let tileSource = try TileSources.open(path: sourcePath)
        let plan = try MapPackBuilder.plan(source: tileSource, region: region, options: options)
        let zp = plan.zoomPlan
        let mode: ProgressMode = quiet && progress != .json ? .none : progress
        if mode != .none && !quiet {
            if zp.effective != zp.requested {
                StdIO.err("maps: zoom \(zp.requested.lowerBound)-\(zp.requested.upperBound) limited to the source's \(zp.source.lowerBound)-\(zp.source.upperBound)\n")
            }
            if zp.widened != zp.effective {
                StdIO.err("maps: zoom \(zp.effective.lowerBound)-\(zp.effective.upperBound) widened to whole bands \(zp.widened.lowerBound)-\(zp.widened.upperBound)\n")
            }
        }
        var built: [MapPackBuilder.BuiltPack]?
        if !estimate, let output {
            let reporter = ProgressReporter(mode: mode, label: "maps", totalBytes: Int64(plan.tileBytes),
                                            totalItems: plan.tiles, itemName: "tiles")
            do {
                built = try MapPackBuilder.build(plan: plan, source: tileSource, region: region, options: options,
                                                 output: output, extraFiles: extraFiles,
                                                 threads: threads ?? ProcessInfo.processInfo.activeProcessorCount, progress: reporter)
            } catch {
                reporter.cancel()
                throw error
            }
            reporter.finish(extra: ["packs": .int(built!.count)])
        }
        let info = tileSource.info
        let b = region.bbox
        var summary: [String: Any] = [
            "estimate": estimate,
            "output": estimate ? NSNull() as Any : (output ?? "") as Any,
            "region": ["id": options.regionId, "bbox": [b.minLon, b.minLat, b.maxLon, b.maxLat], "shapes": region.shapes.count],
            "source": ["path": sourcePath, "container": info.container.rawValue, "name": info.name,
                       "tileType": info.tileType.name, "tileCompression": info.tileCompression.name,
                       "zoom": [info.minZoom, info.maxZoom]],
            "zoom": ["requested": [zp.requested.lowerBound, zp.requested.upperBound],
                     "effective": [zp.effective.lowerBound, zp.effective.upperBound],
                     "widened": [zp.widened.lowerBound, zp.widened.upperBound],
                     "wasWidened": zp.widened != zp.effective],
            "bands": MapPackBuilder.bandSummary(plan: plan, built: built),
            "candidatePacks": plan.candidatePacks.reduce(0) { $0 + $1.count },
            "packs": plan.packs.count,
            "emptyPacks": plan.emptyPacks,
            "tiles": plan.tiles,
            "tileBytes": plan.tileBytes,
        ]
        if let built {
            summary["uniqueTiles"] = built.reduce(0) { $0 + $1.stats.uniqueTiles }
            summary["bytes"] = built.reduce(0) { $0 + $1.stats.fileBytes }
        }
        summary["seconds"] = Double(ProgressReporter.monotonicNanoseconds() - started) / 1e9
        return summary
    }
}

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
    @Option(help: "Region as a GeoJSON file (Point, LineString, Polygon, their Multi forms; Feature or FeatureCollection).") var region: String?
    @Option(help: "Region as minLon,minLat,maxLon,maxLat.") var bbox: String?
    @Option(help: "Region as a circle around LON,LAT (needs --radius).") var around: String?
    @Option(help: "Radius in metres for --around and for points without a radius_m property.") var radius: Double?
    @Option(help: "Buffer in metres for lines without a buffer_m property.") var buffer: Double?
    @Option(help: "Zoom range, widened to whole bands.") var zoom = "0-16"
    @Flag(help: "Print the region's exact tile cover at each requested zoom as NDJSON [x,y,z] lines (no source needed) and nothing else.") var cover = false

    func validate() throws {
        let given = [region != nil, bbox != nil, around != nil].filter { $0 }.count
        if given != 1 { throw ValidationError("give exactly one of --region, --bbox, --around") }
        if around != nil && radius == nil { throw ValidationError("--around needs --radius (metres)") }
    }

    func run() throws {
        let started = ProgressReporter.monotonicNanoseconds()
        let zooms: ClosedRange<Int>
        do { zooms = try parseZoomRange(zoom) } catch { throw ValidationError("--zoom: \(error)") }
        let mapRegion: MapRegion
        var defaultId = "region"
        if let region {
            guard let text = try? String(contentsOfFile: region, encoding: .utf8) else {
                throw InputError(file: region, "cannot read the region file")
            }
            do {
                mapRegion = try MapRegion.parse(geoJSON: text, defaultRadius: radius, defaultBuffer: buffer)
            } catch { throw InputError(file: region, "\(error)") }
            defaultId = ((region as NSString).lastPathComponent as NSString).deletingPathExtension
        } else if let bbox {
            do { mapRegion = try MapRegion.bbox(BBox(parsing: bbox)) } catch { throw ValidationError("--bbox: \(error)") }
        } else {
            let parts = (around ?? "").split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
            guard parts.count == 2, let lon = parts[0], let lat = parts[1] else {
                throw ValidationError("--around must be LON,LAT")
            }
            do { mapRegion = try MapRegion.around(GeoPoint(lon: lon, lat: lat), radiusMeters: radius ?? 0) } catch {
                throw ValidationError("--around: \(error)")
            }
        }
        if cover {
            try printCover(TileCover(mapRegion), zooms: zooms, started: started)
            return
        }
        let options = try flags.options(zooms: zooms, defaultId: defaultId)
        JSONOutput.printStdout(try flags.run(region: mapRegion, options: options, started: started))
    }

    /// NDJSON `[x,y,z]` lines (mercantile's format), zoom by zoom; a `done` event with the count
    /// and the time the cover took on stderr with `--progress json`.
    func printCover(_ cover: TileCover, zooms: ClosedRange<Int>, started: UInt64) throws {
        var count = 0
        for z in zooms {
            let n = cover.count(zoom: z)
            count = count > Int.max - n ? Int.max : count + n
        }
        guard count <= 50_000_000 else {
            throw InputError("cover too large to list: \(count) tiles > 50000000; use a smaller region or zoom range")
        }
        let t0 = ProgressReporter.monotonicNanoseconds()
        let tiles = cover.tiles(zooms: zooms)
        let seconds = Double(ProgressReporter.monotonicNanoseconds() - t0) / 1e9
        var out = ""
        out.reserveCapacity(1 << 20)
        for level in tiles {
            for t in level {
                out += "[\(t.x),\(t.y),\(t.z)]\n"
                if out.utf8.count > 1 << 20 { StdIO.out(out); out.removeAll(keepingCapacity: true) }
            }
        }
        StdIO.out(out)
        if flags.progress == .json {
            let total = tiles.reduce(0) { $0 + $1.count }
            StdIO.err("{\"event\":\"done\",\"tiles\":\(total),\"coverSeconds\":\(seconds)}\n")
        }
    }
}
