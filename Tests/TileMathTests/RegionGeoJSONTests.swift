import OffgridCore
import XCTest
@testable import TileMath

/// The one region parser over every geometry kind, and the canonical GeoJSON written back
/// (region.json holds it: its bytes must not change for the same input).
final class RegionGeoJSONTests: XCTestCase {
    private func message(_ text: String, radius: Double? = nil, buffer: Double? = nil) -> String {
        do { _ = try Region.parse(geoJSON: text, defaultRadius: radius, defaultBuffer: buffer); return "no error" } catch { return "\(error)" }
    }

    func testEveryKindWritesCanonicalText() throws {
        let text = """
        {"type":"FeatureCollection","features":[
          {"type":"Feature","properties":{"radius_m":2000},"geometry":{"type":"Point","coordinates":[9.52,47.14,455]}},
          {"type":"Feature","properties":{},"geometry":{"type":"MultiPoint","coordinates":[[9.5,47.1],[9.6,47.2]]}},
          {"type":"Feature","properties":{"buffer_m":250.5},"geometry":{"type":"LineString","coordinates":[[9.5,47.1],[9.6e0,47.2]]}},
          {"type":"Feature","geometry":{"type":"GeometryCollection","geometries":[
            {"type":"Polygon","coordinates":[[[9,47],[10,47],[10,48],[9,47]]]},
            {"type":"MultiLineString","coordinates":[[[9,47],[9.1,47.1]]]}]}}]}
        """
        let r = try Region.parse(geoJSON: text, defaultRadius: 100, defaultBuffer: 50)
        XCTAssertEqual(r.parts.map(\.geometryType), ["Point", "MultiPoint", "LineString", "Polygon", "MultiLineString"])
        XCTAssertEqual(r.shapes.count, 6)
        XCTAssertEqual(JSONWriter.string(r.geoJSON, pretty: false), """
        {"features":[\
        {"geometry":{"coordinates":[9.52,47.14],"type":"Point"},"properties":{"radius_m":2000},"type":"Feature"},\
        {"geometry":{"coordinates":[[9.5,47.1],[9.6,47.2]],"type":"MultiPoint"},"properties":{"radius_m":100},"type":"Feature"},\
        {"geometry":{"coordinates":[[9.5,47.1],[9.6,47.2]],"type":"LineString"},"properties":{"buffer_m":250.5},"type":"Feature"},\
        {"geometry":{"coordinates":[[[9,47],[10,47],[10,48],[9,47]]],"type":"Polygon"},"properties":{},"type":"Feature"},\
        {"geometry":{"coordinates":[[[9,47],[9.1,47.1]]],"type":"MultiLineString"},"properties":{"buffer_m":50},"type":"Feature"}\
        ],"type":"FeatureCollection"}
        """)
        // Written text parses back to the same region.
        let again = try Region.parse(geoJSON: JSONWriter.string(r.geoJSON, pretty: false))
        XCTAssertEqual(again.parts, r.parts)
    }

    func testNumbersAreReadExactly() throws {
        // 17 significant digits: the nearest double, not one ulp off.
        let r = try Region.parse(geoJSON: "{\"type\":\"Point\",\"coordinates\":[9.543855157933326,47.151197324957344]}", defaultRadius: 10)
        guard case .circle(let c, _) = r.shapes[0] else { return XCTFail("expected a circle") }
        XCTAssertEqual(c.lat, 47.151197324957344)
        XCTAssertNotEqual(c.lat, 47.15119732495734)
    }

    func testPointAndLineErrors() {
        XCTAssertEqual(message("{\"type\":\"Point\",\"coordinates\":[9.5,47.1]}"),
                       "the Point needs a distance in metres: a \"radius_m\" property or --radius")
        XCTAssertEqual(message("{\"type\":\"Feature\",\"properties\":{\"buffer_m\":\"x\"},\"geometry\":{\"type\":\"LineString\",\"coordinates\":[[9,47],[10,47]]}}"),
                       "buffer_m of feature is not a number")
        XCTAssertEqual(message("{\"type\":\"LineString\",\"coordinates\":[[9,47]]}", buffer: 10),
                       "LineString has 1 position; a line needs at least 2")
        XCTAssertEqual(message("{\"type\":\"LineString\",\"coordinates\":[[170,47],[-170,47]]}", buffer: 10),
                       "segment 0 of LineString spans 180° of longitude or more; split lines at the antimeridian")
        XCTAssertEqual(message("{\"type\":\"Point\",\"coordinates\":[9,91]}", radius: 10), "Point: latitude 91 is outside -90…90")
        XCTAssertEqual(message("{\"type\":\"MultiPoint\",\"coordinates\":[[9,47],[false,1]]}", radius: 10),
                       "position 1 of MultiPoint is not [longitude, latitude] numbers")
        XCTAssertEqual(message("{\"type\":\"MultiPoint\",\"coordinates\":[]}", radius: 10), "MultiPoint is empty")
        XCTAssertEqual(message("{\"type\":\"Point\",\"coordinates\":[9,47]}", radius: 0), "radius 0 m must be more than 0 and at most 2000000 m")
        XCTAssertEqual(message("{\"type\":\"Circle\",\"coordinates\":[9,47]}"), "unsupported geometry type \"Circle\"")
        XCTAssertEqual(message("{\"type\":\"FeatureCollection\",\"features\":[{\"type\":\"Feature\",\"geometry\":{\"type\":\"GeometryCollection\",\"geometries\":[{\"type\":\"Polygon\",\"coordinates\":[[[9,47],[10,47],[10,48],[9,48]]]}]}}]}"),
                       "polygon ring 0 of geometry 0 of feature 0 is not closed (first and last positions differ)")
        XCTAssertTrue(message("{\"type\":").hasPrefix("region is not valid JSON: "), message("{\"type\":"))
    }

    func testPolygonRegionRefusesCurvedShapes() throws {
        let circle = try Region.around(GeoPoint(lon: 9.5, lat: 47.1), radiusMeters: 100)
        XCTAssertThrowsError(try PolygonRegion(circle)) { e in
            XCTAssertTrue("\(e)".contains("a routing region must be a Polygon or MultiPolygon"), "\(e)")
        }
        let box = try BBox(parsing: "9.25,47,9.5,47.25")
        XCTAssertEqual(try PolygonRegion(Region.bbox(box)).geoJSON, try PolygonRegion(bbox: box).geoJSON)
    }
}
