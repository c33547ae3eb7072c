import ArgumentParser
import Foundation
import MapPacks
import OffgridCore
import PredictiveCaching
import TileMath
import ToolSupport

/// `tilepack-build predict`: predictive-caching regions from a route, with their map packs.
struct PredictCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "predict",
        abstract: "Derive predictive-caching regions from a route and build their map packs.",
        discussion: """
        Three areas: a circle around the current location (default: the route's start), a
        corridor along the route and a circle around the destination (its end). Map packs are
        built for their union with the maps zoom range; DIR/routing-region.geojson is a
        MultiPolygon containing the routing areas (same distances unless --routing-… flags say
        otherwise) for `tilepack-build routing --region`. A JSON summary goes to stdout.

        Examples:
          tilepack-build predict --route out/route-vaduz-balzers.json --source samples/liechtenstein.pmtiles --output out/predict
          tilepack-build predict --route trip.geojson --location 9.52,47.14 --maps-zoom 5-12 --source x.mbtiles --output out/p
        """)

    @OptionGroup var flags: MapPackFlags
    @OptionGroup var predict: PredictOptions

    func validate() throws {
        if !flags.estimate && flags.output == nil { throw ValidationError("--output is required (or use --estimate)") }
    }

    func run() throws {
        let started = MonotonicClock.nanoseconds()
        let zooms: ClosedRange<Int>
        do { zooms = try parseZoomRange(predict.mapsZoom) } catch { throw ValidationError("--maps-zoom: \(error)") }
        let route = predict.route
        guard let text = try? String(contentsOfFile: route, encoding: .utf8) else {
            throw InputError(file: route, "cannot read the route file")
        }
        let line: [GeoPoint]
        do { line = try PredictiveRegions.parseRoute(text, polylinePrecision: predict.polylinePrecision) } catch {
            throw InputError(file: route, "\(error)")
        }
        let here = try predict.locationPoint()
        let region: Region
        let routingPolygons: [GeoPolygon]
        do {
            region = try PredictiveRegions.mapRegion(route: line, location: here, distances: predict.mapDistances)
            routingPolygons = try PredictiveRegions.routingPolygons(route: line, location: here, distances: predict.routingDistances)
        } catch { throw InputError(file: route, "\(error)") }

        let defaultId = "predict-" + ((route as NSString).lastPathComponent as NSString).deletingPathExtension
        let options = try flags.options(zooms: zooms, defaultId: defaultId)
        // The routing region is written into the same atomic output as the map packs.
        let routingJSON = PredictiveRegions.routingRegionGeoJSON(routingPolygons)
        let routingBytes = Array((JSONWriter.string(routingJSON, pretty: false) + "\n").utf8)
        let maps = try flags.run(region: region, options: options, started: started,
                                 extraFiles: [("routing-region.geojson", routingBytes)])
        var routingPath: String?
        if !flags.estimate, let output = flags.output {
            routingPath = (output as NSString).appendingPathComponent("routing-region.geojson")
        }
        var summary = try JSONEncoding.value(maps).objectValue ?? [:]
        summary["routingRegion"] = try JSONEncoding.value(RoutingRegionSummary(
            path: routingPath, polygons: routingPolygons, distances: predict.routingDistances))
        summary["route"] = try JSONEncoding.value(RouteSummary(line: line, location: here ?? line[0]))
        summary["seconds"] = .double(MonotonicClock.seconds(since: started))
        StdIO.out(JSONWriter.string(.object(summary), pretty: true) + "\n")
    }
}
