import ArgumentParser
import Foundation
import OffgridCore
import PredictiveCaching
import TileMath

/// The route and distances of `tilepack-build predict`.
struct PredictOptions: ParsableArguments {
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
            if !(v.isFinite && v > 0 && v <= Region.maxDistanceMeters) {
                throw ValidationError("\(name) must be more than 0 and at most \(Int(Region.maxDistanceMeters)) metres")
            }
        }
        if let p = polylinePrecision, p != 5 && p != 6 { throw ValidationError("--polyline-precision must be 5 or 6") }
    }

    var mapDistances: PredictiveRegions.Distances {
        .init(locationRadius: locationRadius, routeBuffer: routeBuffer, destinationRadius: destinationRadius)
    }

    var routingDistances: PredictiveRegions.Distances {
        .init(locationRadius: routingLocationRadius ?? locationRadius, routeBuffer: routingRouteBuffer ?? routeBuffer,
              destinationRadius: routingDestinationRadius ?? destinationRadius)
    }

    /// `--location`, if given.
    func locationPoint() throws -> GeoPoint? {
        guard let location else { return nil }
        let parts = location.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 2, let lon = parts[0], let lat = parts[1], abs(lon) <= 180, abs(lat) <= 90 else {
            throw ValidationError("--location must be LON,LAT")
        }
        return GeoPoint(lon: lon, lat: lat)
    }
}

/// The `routingRegion` object of the predict summary.
struct RoutingRegionSummary: Encodable {
    /// null for an estimate.
    var path: JSONValue
    var polygons: Int
    var bbox: [Double]
    var locationRadius: Double
    var routeBuffer: Double
    var destinationRadius: Double

    init(path: String?, polygons: [GeoPolygon], distances: PredictiveRegions.Distances) {
        self.path = path.map(JSONValue.string) ?? .null
        self.polygons = polygons.count
        let b = polygons.dropFirst().reduce(polygons[0].bbox) { $0.union($1.bbox) }
        bbox = [b.minLon, b.minLat, b.maxLon, b.maxLat]
        locationRadius = distances.locationRadius
        routeBuffer = distances.routeBuffer
        destinationRadius = distances.destinationRadius
    }
}

/// The `route` object of the predict summary.
struct RouteSummary: Encodable {
    var positions: Int
    var start: [Double]
    var destination: [Double]
    var location: [Double]

    init(line: [GeoPoint], location: GeoPoint) {
        positions = line.count
        start = [line[0].lon, line[0].lat]
        destination = [line[line.count - 1].lon, line[line.count - 1].lat]
        self.location = [location.lon, location.lat]
    }
}
