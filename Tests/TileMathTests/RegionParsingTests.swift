import Foundation
import XCTest
@testable import TileMath

final class RegionParsingTests: XCTestCase {
    let square = "[[[9,47],[10,47],[10,48],[9,48],[9,47]]]"
    let squareWithHole = "[[[9,47],[10,47],[10,48],[9,48],[9,47]],[[9.25,47.25],[9.25,47.75],[9.75,47.75],[9.75,47.25],[9.25,47.25]]]"

    private func message(_ text: String) -> String {
        do { _ = try PolygonRegion.parse(geoJSON: text); return "no error" } catch { return "\(error)" }
    }

    func testBarePolygon() throws {
        let r = try PolygonRegion.parse(geoJSON: "{\"type\": \"Polygon\", \"coordinates\": \(square)}")
        XCTAssertEqual(r.polygons.count, 1)
        XCTAssertEqual(r.bbox, BBox(minLon: 9, minLat: 47, maxLon: 10, maxLat: 48))
        XCTAssertEqual(r.geoJSON, "{\"coordinates\":\(square),\"type\":\"Polygon\"}")
        guard case .polygon(let p) = r.geometries[0] else { return XCTFail("expected a polygon") }
        XCTAssertEqual(p.rings[0].count, 5)
    }

    func testPolygonWithHoleAndAltitudes() throws {
        let text = """
        { "coordinates": [[[9, 47, 400], [10, 47, 410.5], [10, 48, 0], [9, 48, 1], [9, 47, 400]],
                          [[9.25,47.25],[9.25,47.75],[9.75,47.75],[9.75,47.25],[9.25,47.25]]],
          "type": "Polygon" }
        """
        let r = try PolygonRegion.parse(geoJSON: text)
        XCTAssertEqual(r.polygons[0].rings.count, 2)
        XCTAssertEqual(r.geoJSON, "{\"coordinates\":\(squareWithHole),\"type\":\"Polygon\"}", "altitudes dropped")
        XCTAssertTrue(r.contains(GeoPoint(lon: 9.1, lat: 47.1)))
        XCTAssertFalse(r.contains(GeoPoint(lon: 9.5, lat: 47.5)), "in the hole")
        XCTAssertTrue(r.contains(GeoPoint(lon: 9.25, lat: 47.5)), "on the hole's ring: the region is closed")
        XCTAssertTrue(r.contains(GeoPoint(lon: 10, lat: 48)))
        XCTAssertFalse(r.contains(GeoPoint(lon: 10.0.nextUp, lat: 47.5)))
    }

    func testMultiPolygonFeatureAndCollection() throws {
        let multi = "{\"type\":\"MultiPolygon\",\"coordinates\":[\(square),[[[11,47],[12,47],[12,48],[11,47]]]]}"
        let m = try PolygonRegion.parse(geoJSON: multi)
        XCTAssertEqual(m.polygons.count, 2)
        XCTAssertEqual(m.bbox, BBox(minLon: 9, minLat: 47, maxLon: 12, maxLat: 48))
        XCTAssertEqual(m.geoJSON, "{\"coordinates\":[\(square),[[[11,47],[12,47],[12,48],[11,47]]]],\"type\":\"MultiPolygon\"}")

        let feature = try PolygonRegion.parse(geoJSON: "{\"type\":\"Feature\",\"properties\":{\"name\":\"x\"},\"geometry\":\(multi)}")
        XCTAssertEqual(feature.geoJSON, m.geoJSON)

        let collection = """
        {"type":"FeatureCollection","features":[
          {"type":"Feature","properties":null,"geometry":{"type":"Polygon","coordinates":\(square)}},
          {"type":"Feature","properties":{},"geometry":{"type":"Polygon","coordinates":[[[11,47],[12,47],[12,48],[11,47]]]}}]}
        """
        let c = try PolygonRegion.parse(geoJSON: collection)
        XCTAssertEqual(c.geometries.count, 2)
        XCTAssertEqual(c.geoJSON, m.geoJSON, "a collection is written as one MultiPolygon")
        XCTAssertTrue(c.contains(GeoPoint(lon: 11.9, lat: 47.1)))
        XCTAssertFalse(c.contains(GeoPoint(lon: 10.5, lat: 47.5)))
        XCTAssertEqual(RoutingGrid.standard.tiles(intersecting: c), RoutingGrid.standard.tiles(intersecting: m))
    }

    func testCanonicalTextIgnoresFormattingAndKeyOrder() throws {
        let a = try PolygonRegion.parse(geoJSON: "{\"type\":\"Polygon\",\"coordinates\":[[[9.5,47.10],[9.6,47.1],[9.6,47.2],[9.5,47.1]]]}")
        let b = try PolygonRegion.parse(geoJSON: "{ \"coordinates\" : [ [ [ 9.50, 47.1 ], [9.6e0,47.1],[9.6,4.72e1],[9.5,47.1] ] ],\n \"type\" : \"Polygon\" }")
        XCTAssertEqual(a.geoJSON, b.geoJSON)
        XCTAssertEqual(a.geoJSON, "{\"coordinates\":[[[9.5,47.1],[9.6,47.1],[9.6,47.2],[9.5,47.1]]],\"type\":\"Polygon\"}")
        XCTAssertEqual(try PolygonRegion.parse(geoJSON: a.geoJSON).geoJSON, a.geoJSON)
    }

    func testBBoxRegion() throws {
        let box = try BBox(parsing: "9.25,47,9.5,47.25")
        let r = try PolygonRegion(bbox: box)
        XCTAssertEqual(r.bbox, box)
        XCTAssertEqual(r.geoJSON, "{\"coordinates\":[[[9.25,47],[9.5,47],[9.5,47.25],[9.25,47.25],[9.25,47]]],\"type\":\"Polygon\"}")
        XCTAssertEqual(RoutingGrid.standard.tiles(intersecting: r), RoutingGrid.standard.tiles(intersecting: box))
        XCTAssertEqual(RoutingGrid.standard.tiles(intersecting: r).count, 1)
    }

    func testErrors() {
        XCTAssertTrue(message("{\"type\": ").hasPrefix("region is not valid JSON"), message("{\"type\": "))
        XCTAssertEqual(message("[1,2]"), "region GeoJSON must be a JSON object")
        XCTAssertEqual(message("{\"coordinates\":[]}"), "region GeoJSON has no \"type\" string")
        XCTAssertTrue(message("{\"type\":\"Point\",\"coordinates\":[9,47]}").hasPrefix("unsupported geometry type \"Point\""))
        XCTAssertTrue(message("{\"type\":\"LineString\",\"coordinates\":[[9,47],[10,47]]}").contains("must be a Polygon or MultiPolygon"))
        XCTAssertEqual(message("{\"type\":\"FeatureCollection\",\"features\":[]}"), "FeatureCollection has no features")
        XCTAssertEqual(message("{\"type\":\"FeatureCollection\"}"), "FeatureCollection has no \"features\" array")
        XCTAssertEqual(message("{\"type\":\"Feature\",\"geometry\":null}"), "feature has no geometry")
        XCTAssertEqual(message("{\"type\":\"Polygon\"}"), "Polygon has no \"coordinates\" array")
        XCTAssertEqual(message("{\"type\":\"Polygon\",\"coordinates\":[]}"), "polygon has no rings")
        XCTAssertEqual(message("{\"type\":\"Polygon\",\"coordinates\":[[[9,47],[10,47],[9,47]]]}"),
                       "polygon ring 0 has 3 positions; a closed ring needs at least 4")
        XCTAssertEqual(message("{\"type\":\"Polygon\",\"coordinates\":[[[9,47],[10,47],[10,48],[9,48]]]}"),
                       "polygon ring 0 is not closed (first and last positions differ)")
        XCTAssertEqual(message("{\"type\":\"Polygon\",\"coordinates\":[[[9,47],[10,47],[10,95],[9,47]]]}"),
                       "position 2 of polygon ring 0: latitude 95 is outside -90…90")
        XCTAssertEqual(message("{\"type\":\"Polygon\",\"coordinates\":[[[9,47],[-181,47],[10,48],[9,47]]]}"),
                       "position 1 of polygon ring 0: longitude -181 is outside -180…180")
        XCTAssertEqual(message("{\"type\":\"Polygon\",\"coordinates\":[[[9,47],[\"10\",47],[10,48],[9,47]]]}"),
                       "position 1 of polygon ring 0 is not [longitude, latitude] numbers")
        XCTAssertEqual(message("{\"type\":\"Polygon\",\"coordinates\":[[[9,47],[true,47],[10,48],[9,47]]]}"),
                       "position 1 of polygon ring 0 is not [longitude, latitude] numbers")
        XCTAssertEqual(message("{\"type\":\"Polygon\",\"coordinates\":[[[9,47],[10],[10,48],[9,47]]]}"),
                       "position 1 of polygon ring 0 is not [longitude, latitude] numbers")
        XCTAssertEqual(message("{\"type\":\"Polygon\",\"coordinates\":[[[9,47],[10,47,1,2],[10,48],[9,47]]]}"),
                       "position 1 of polygon ring 0 is not [longitude, latitude] numbers")
        XCTAssertEqual(message("{\"type\":\"MultiPolygon\",\"coordinates\":[]}"), "MultiPolygon has no polygons")
    }

    func testErrorsNameTheFeatureAndPolygon() {
        let good = "{\"type\":\"Feature\",\"geometry\":{\"type\":\"Polygon\",\"coordinates\":\(square)}}"
        let open = "{\"type\":\"Feature\",\"geometry\":{\"type\":\"Polygon\",\"coordinates\":[[[9,47],[10,47],[10,48],[9,48],[9,47.5]]]}}"
        XCTAssertEqual(message("{\"type\":\"FeatureCollection\",\"features\":[\(good),\(good),\(open)]}"),
                       "polygon ring 0 of feature 2 is not closed (first and last positions differ)")
        let multiOpen = "{\"type\":\"Feature\",\"geometry\":{\"type\":\"MultiPolygon\",\"coordinates\":[\(square),\(squareWithHole.replacingOccurrences(of: "[9.25,47.25]]]", with: "[9.25,47.3]]]"))]}}"
        XCTAssertEqual(message("{\"type\":\"FeatureCollection\",\"features\":[\(good),\(multiOpen)]}"),
                       "ring 1 of polygon 1 of feature 1 is not closed (first and last positions differ)")
        XCTAssertEqual(message("{\"type\":\"FeatureCollection\",\"features\":[\(good),{\"type\":\"Feature\",\"geometry\":null}]}"),
                       "feature 1 has no geometry")
        XCTAssertEqual(message("{\"type\":\"FeatureCollection\",\"features\":[\(good), 5]}"),
                       "feature 1 of the FeatureCollection is not a GeoJSON Feature object")
        XCTAssertEqual(message("{\"type\":\"FeatureCollection\",\"features\":[{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[1,2]}}]}"),
                       "unsupported geometry type \"Point\" of feature 0: a routing region must be a Polygon or MultiPolygon (or a Feature/FeatureCollection of them)")
    }
}
