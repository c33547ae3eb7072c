import Foundation
import XCTest
@testable import TileMath
import TestSupport

final class BBoxTests: XCTestCase {
    func testParse() throws {
        let b = try BBox(parsing: "9.47,47.04,9.64,47.28")
        XCTAssertEqual(b, BBox(minLon: 9.47, minLat: 47.04, maxLon: 9.64, maxLat: 47.28))
        XCTAssertEqual(try BBox(parsing: " -180 , -90,180,90 "), BBox(minLon: -180, minLat: -90, maxLon: 180, maxLat: 90))
        XCTAssertEqual(try BBox(parsing: "1e-3,0,2,1").minLon, 0.001)
    }

    func testParseErrors() {
        func message(_ text: String) -> String {
            do { _ = try BBox(parsing: text); return "no error" } catch { return "\(error)" }
        }
        XCTAssertTrue(message("9,47,10").contains("4 comma-separated numbers"), message("9,47,10"))
        XCTAssertTrue(message("9,47,10,48,1").contains("got 5 values"))
        XCTAssertTrue(message("").contains("got 1 value "))
        XCTAssertEqual(message("9,abc,10,48"), "bbox minLat is not a number: \"abc\"")
        XCTAssertEqual(message("9,,10,48"), "bbox minLat is not a number: \"\"")
        XCTAssertEqual(message("nan,47,10,48"), "bbox minLon is not a finite number: \"nan\"")
        XCTAssertEqual(message("9,47,inf,48"), "bbox maxLon is not a finite number: \"inf\"")
        XCTAssertEqual(message("0x10,47,20,48"), "bbox minLon is not a number: \"0x10\"")
        XCTAssertEqual(message("181,47,182,48"), "bbox minLon 181 is outside -180…180")
        XCTAssertEqual(message("9,47,10,90.5"), "bbox maxLat 90.5 is outside -90…90")
        XCTAssertEqual(message("10,47,9,48"), "bbox minLon 10 must be less than maxLon 9")
        XCTAssertEqual(message("9,47,10,47"), "bbox minLat 47 must be less than maxLat 47")
    }

    func testSetOperations() {
        let a = BBox(minLon: 0, minLat: 0, maxLon: 1, maxLat: 1)
        let b = BBox(minLon: 1, minLat: 1, maxLon: 2, maxLat: 2)
        let c = BBox(minLon: 1.5, minLat: -1, maxLon: 3, maxLat: 0.5)
        XCTAssertEqual(a.union(b), BBox(minLon: 0, minLat: 0, maxLon: 2, maxLat: 2))
        XCTAssertTrue(a.intersects(b), "sharing a corner counts")
        XCTAssertFalse(a.intersects(c))
        XCTAssertTrue(b.intersects(c) == false)
        XCTAssertTrue(a.contains(GeoPoint(lon: 1, lat: 0.5)))
        XCTAssertTrue(a.contains(GeoPoint(lon: 0, lat: 0)))
        XCTAssertFalse(a.contains(GeoPoint(lon: 1.0.nextUp, lat: 0.5)))
        XCTAssertFalse(a.contains(GeoPoint(lon: .nan, lat: 0.5)))
    }

    func testDescriptionUsesMinimalDigitsAndRoundTrips() throws {
        XCTAssertEqual(BBox(minLon: 9.25, minLat: 47, maxLon: 9.5, maxLat: 47.25).description, "9.25,47,9.5,47.25")
        XCTAssertEqual(BBox(minLon: -0.0, minLat: -90, maxLon: 1e-5, maxLat: 0.1).description, "0,-90,0.00001,0.1")
        var rng = SplitMix64(seed: 5)
        for _ in 0..<2000 {
            let lon = rng.double(-180, 179), lat = rng.double(-90, 89)
            let b = BBox(minLon: lon, minLat: lat, maxLon: lon + rng.double(1e-9, 1), maxLat: lat + rng.double(1e-12, 1))
            XCTAssertEqual(try BBox(parsing: b.description), b)
        }
    }

    func testShortestDecimal() {
        XCTAssertEqual(shortestDecimal(47), "47")
        XCTAssertEqual(shortestDecimal(-180), "-180")
        XCTAssertEqual(shortestDecimal(0.1), "0.1")
        XCTAssertEqual(shortestDecimal(-0.0), "0")
        XCTAssertEqual(shortestDecimal(1e-5), "0.00001")
        XCTAssertEqual(shortestDecimal(-1.5e-7), "-0.00000015")
        XCTAssertEqual(shortestDecimal(1e21), "1000000000000000000000")
        XCTAssertEqual(shortestDecimal(123456789012345680), "123456789012345680")
        XCTAssertEqual(shortestDecimal(0.30000000000000004), "0.30000000000000004")
        XCTAssertEqual(shortestDecimal(9.5.nextDown), "9.499999999999998")
        var rng = SplitMix64(seed: 6)
        for _ in 0..<5000 {
            let v = rng.double(-180, 180) * pow(10, Double(rng.int(-12, 0)))
            XCTAssertEqual(Double(shortestDecimal(v)), v)
            XCTAssertFalse(shortestDecimal(v).contains("e"))
        }
    }
}
