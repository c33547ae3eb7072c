import ArgumentParser
import Foundation
import MapPacks
import TileMath
import OffgridCore
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
    @Option(help: "The route: GeoJSON LineString (geometry, Feature or FeatureCollection) or an OSRM route response.") var route: String
    @Option(help: "Current location LON,LAT (default: the route's first position).") var location: String?
    @Option(help: "Radius around the current location, metres.") var locationRadius = 2000.0
    @Option(help: "Buffer along the route, metres.") var routeBuffer = 500.0
    @Option(help: "Radius around the destination, metres.") var destinationRadius = 5000.0
    @Option(help: "Zoom range of the map packs.") var mapsZoom = "5-12"
    @Option(help: "Routing region: radius around the current location (default: --location-radius).") var routingLocationRadius: Double?
    @Option(help: "Routing region: buffer along the route (default: --route-buffer).") var routingRouteBuffer: Double?
    @Option(help: "Routing region: radius around the destination (default: --destination-radius).") var routingDestinationRadius: Double?
    @Option(help: "Precision of an OSRM polyline geometry: 5 or 6 (default: 5, or 6 when 5 gives impossible coordinates).") var polylinePrecision: Int?

    func validate() throws {
        for (name, v) in [("--location-radius", locationRadius), ("--route-buffer", routeBuffer), ("--destination-radius", destinationRadius),
                          ("--routing-location-radius", routingLocationRadius ?? 1), ("--routing-route-buffer", routingRouteBuffer ?? 1),
                          ("--routing-destination-radius", routingDestinationRadius ?? 1)] {
            if !(v.isFinite && v > 0 && v <= MapRegion.maxDistanceMeters) {
                throw ValidationError("\(name) must be more than 0 and at most \(Int(MapRegion.maxDistanceMeters)) metres")
            }
        }
        if let p = polylinePrecision, p != 5 && p != 6 { throw ValidationError("--polyline-precision must be 5 or 6") }
        if !flags.estimate && flags.output == nil { throw ValidationError("--output is required (or use --estimate)") }
    }

    func run() throws {
        let started = ProgressReporter.monotonicNanoseconds()
        let zooms: ClosedRange<Int>
        do { zooms = try parseZoomRange(mapsZoom) } catch { throw ValidationError("--maps-zoom: \(error)") }
        guard let text = try? String(contentsOfFile: route, encoding: .utf8) else {
            throw InputError(file: route, "cannot read the route file")
        }
        let line: [GeoPoint]
        do { line = try PredictiveRegions.parseRoute(text, polylinePrecision: polylinePrecision) } catch {
            throw InputError(file: route, "\(error)")
        }
        var here: GeoPoint?
        if let location {
            let parts = location.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
            guard parts.count == 2, let lon = parts[0], let lat = parts[1], abs(lon) <= 180, abs(lat) <= 90 else {
                throw ValidationError("--location must be LON,LAT")
            }
            here = GeoPoint(lon: lon, lat: lat)
        }
        let maps = PredictiveRegions.Distances(locationRadius: locationRadius, routeBuffer: routeBuffer,
                                               destinationRadius: destinationRadius)
        let routing = PredictiveRegions.Distances(locationRadius: routingLocationRadius ?? locationRadius,
                                                  routeBuffer: routingRouteBuffer ?? routeBuffer,
                                                  destinationRadius: routingDestinationRadius ?? destinationRadius)
        let region: MapRegion
        let routingPolygons: [GeoPolygon]
        do {
            region = try PredictiveRegions.mapRegion(route: line, location: here, distances: maps)
            routingPolygons = try PredictiveRegions.routingPolygons(route: line, location: here, distances: routing)
        } catch { throw InputError(file: route, "\(error)") }

        let defaultId = "predict-" + ((route as NSString).lastPathComponent as NSString).deletingPathExtension
        let options = try flags.options(zooms: zooms, defaultId: defaultId)
        // The routing region is written into the same atomic output as the map packs.
        let routingJSON = PredictiveRegions.routingRegionGeoJSON(routingPolygons)
        let routingBytes = Array((JSONOutput.string(routingJSON, pretty: false) + "\n").utf8)
        var summary = try flags.run(region: region, options: options, started: started,
                                    extraFiles: [("routing-region.geojson", routingBytes)])
        var routingPath: Any = NSNull()
        if !flags.estimate, let output = flags.output {
            routingPath = (output as NSString).appendingPathComponent("routing-region.geojson")
        }
        let b = routingPolygons.dropFirst().reduce(routingPolygons[0].bbox) { $0.union($1.bbox) }
        summary["routingRegion"] = ["path": routingPath, "polygons": routingPolygons.count,
                                    "bbox": [b.minLon, b.minLat, b.maxLon, b.maxLat],
                                    "locationRadius": routing.locationRadius, "routeBuffer": routing.routeBuffer,
                                    "destinationRadius": routing.destinationRadius]
        summary["route"] = ["positions": line.count, "start": [line[0].lon, line[0].lat],
                            "destination": [line[line.count - 1].lon, line[line.count - 1].lat],
                            "location": [(here ?? line[0]).lon, (here ?? line[0]).lat]]
        summary["seconds"] = Double(ProgressReporter.monotonicNanoseconds() - started) / 1e9
        JSONOutput.printStdout(summary)
    }
}
