import Foundation
import OffgridCore
@testable import PredictiveCaching
import TestSupport
import TileMath
import XCTest

private func repoPath(_ relative: String) -> String { TestTools.repositoryRoot.appendingPathComponent(relative).path }

final class PredictiveRegionsTests: XCTestCase {
    func testPredictiveRegions() throws {
        let route = try PredictiveRegions.parseRoute(try String(contentsOfFile: repoPath("samples/regions/vaduz-balzers-corridor.geojson"), encoding: .utf8))
        let region = try PredictiveRegions.mapRegion(route: route, location: nil, distances: .init())
        XCTAssertEqual(region.shapes.count, 3)
        let polygons = try PredictiveRegions.routingPolygons(route: route, location: nil, distances: .init())
        // The routing polygons contain the map shapes: sample points on each circle's rim and
        // along the corridor's edge lie inside the MultiPolygon.
        let routing = try PolygonRegion(geometries: [.multiPolygon(polygons)])
        for (c, r) in [(route[0], 2000.0), (route[route.count - 1], 5000.0)] {
            for k in 0..<72 {
                let p = PredictiveRegions.destination(c, bearing: Double(k) * 5, meters: r)
                XCTAssertTrue(routing.contains(p), "rim point \(p)")
            }
        }
        for i in 0..<(route.count - 1) {
            let a = route[i], b = route[i + 1]
            let bearing = initialBearingDegrees(from: a, to: b)
            for side in [-90.0, 90.0] {
                let p = PredictiveRegions.destination(a, bearing: bearing + side, meters: 500)
                XCTAssertTrue(routing.contains(p), "corridor edge at \(i)")
            }
        }
        // OSRM polylines, precision 6 detected.
        let osrm = "{\"routes\":[{\"geometry\":\"_izlhA~rlgdF_{geC~ywl@_kwzCn`{nI\"}]}"
        let decoded = try PredictiveRegions.parseRoute(osrm)
        XCTAssertEqual(decoded.first!.lat, 38.5, accuracy: 1e-9)
        XCTAssertEqual(decoded.first!.lon, -120.2, accuracy: 1e-9)
        XCTAssertEqual(decoded.count, 3)
        XCTAssertEqual(try PredictiveRegions.decodePolyline("_p~iF~ps|U_ulLnnqC_mqNvxq`@", precision: nil).map(\.lat), [38.5, 40.7, 43.252])
    }

    /// The routing region file is read back by the one region parser (as `routing --region`
    /// does) into the very polygons it was written from: exact numbers both ways.
    func testRoutingRegionGeoJSONReadsBackExactly() throws {
        let route = try PredictiveRegions.parseRoute(try String(contentsOfFile: repoPath("samples/regions/vaduz-balzers-corridor.geojson"), encoding: .utf8))
        let polygons = try PredictiveRegions.routingPolygons(route: route, location: nil, distances: .init())
        let text = JSONWriter.string(PredictiveRegions.routingRegionGeoJSON(polygons), pretty: false)
        XCTAssertTrue(text.hasPrefix("{\"geometry\":{\"coordinates\":[[[["), text)
        XCTAssertTrue(text.hasSuffix("\"type\":\"MultiPolygon\"},\"properties\":{\"source\":\"tilepack-build predict\"},\"type\":\"Feature\"}"))
        let back = try PolygonRegion.parse(geoJSON: text)
        XCTAssertEqual(back.polygons, polygons, "every coordinate reads back as the same double")
    }

    func testRouteErrors() {
        func message(_ text: String) -> String {
            do { _ = try PredictiveRegions.parseRoute(text); return "no error" } catch { return "\(error)" }
        }
        XCTAssertEqual(message("[1]"), "route is not a JSON object (GeoJSON or an OSRM route response)")
        XCTAssertEqual(message("{\"type\":\"Point\",\"coordinates\":[9,47]}"), "route geometry must be a LineString or MultiLineString, not Point")
        XCTAssertEqual(message("{\"type\":\"LineString\",\"coordinates\":[[9,47],[9,47]]}"), "route has fewer than 2 distinct positions")
        XCTAssertEqual(message("{\"type\":\"LineString\",\"coordinates\":[[9,47],[true,47]]}"), "route position is not [longitude, latitude]")
        XCTAssertEqual(message("{\"type\":\"LineString\",\"coordinates\":[[9,47],[9,95]]}"), "route position 1: latitude 95 is outside -90…90")
        XCTAssertEqual(message("{\"routes\":[{}]}"), "the OSRM route has no geometry (ask for overview=full)")
    }
}
