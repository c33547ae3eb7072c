import MapPacks
import TileMath
import XCTest

final class ZoomBandsTests: XCTestCase {
    func testWideningToWholeBands() throws {
        let s = ZoomBands.standard
        XCTAssertEqual(try s.widen(8...15), 6...16)
        XCTAssertEqual(try s.widen(0...16), 0...16)
        XCTAssertEqual(try s.widen(5...12), 0...14)
        XCTAssertEqual(try s.widen(11...14), 11...14)
        XCTAssertEqual(try s.widen(12...12), 11...14)
        XCTAssertEqual(try s.bands(for: 8...15).map(\.description), ["6-10", "11-14", "15-16"])
        XCTAssertThrowsError(try s.widen(12...17))
    }

    func testZoomPlanLimitsToTheSource() throws {
        let p = try ZoomPlan(requested: 8...16, source: 0...14, bands: .standard)
        XCTAssertEqual(p.effective, 8...14)
        XCTAssertEqual(p.widened, 6...14)
        XCTAssertEqual(p.bands.map(\.description), ["6-10", "11-14"])
        XCTAssertEqual(p.coverZoom(p.bands[0]), 8)
        XCTAssertEqual(p.coverZoom(p.bands[1]), 11)
        XCTAssertThrowsError(try ZoomPlan(requested: 15...16, source: 0...14, bands: .standard))
    }

    func testBandsFiles() throws {
        let a = try ZoomBands.parse(json: "{\"bands\": [[0,3],[4,8],[9,12]]}")
        XCTAssertEqual(try a.widen(5...10), 4...12)
        XCTAssertEqual(try ZoomBands.parse(json: "[\"0-7\", \"8-14\"]").bands.map(\.description), ["0-7", "8-14"])
        XCTAssertEqual(try ZoomBands.parse(json: "{\"bands\":[{\"minzoom\":2,\"maxzoom\":4}]}").bands, [ZoomBand(2, 4)])
        for bad in ["{\"bands\": [[0,5],[5,8]]}", "{\"bands\": [[6,10],[0,5]]}", "{\"bands\": [[0,9]]}", "{\"bands\": []}",
                    "{\"bands\": [[0,true]]}", "[1,2]", "nope"] {
            XCTAssertThrowsError(try ZoomBands.parse(json: bad), bad)
        }
        XCTAssertEqual(try parseZoomRange("6-16"), 6...16)
        XCTAssertEqual(try parseZoomRange("12"), 12...12)
        for bad in ["16-6", "-1-3", "a-b", "0-31", ""] { XCTAssertThrowsError(try parseZoomRange(bad), bad) }
    }
}
