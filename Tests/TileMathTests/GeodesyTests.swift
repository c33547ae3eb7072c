import XCTest
@testable import TileMath
import TestSupport

final class GeodesyTests: XCTestCase {
    private func p(_ lon: Double, _ lat: Double) -> GeoPoint { GeoPoint(lon: lon, lat: lat) }

    /// Reference values from the atan2 great-circle formula (Python, R = 6371008.8 m).
    func testKnownDistances() {
        XCTAssertEqual(haversineMeters(p(0, 0), p(0, 1)), 111_195.0802335329, accuracy: 1e-6)
        XCTAssertEqual(haversineMeters(p(0, 0), p(180, 0)), 20_015_114.442035925, accuracy: 1e-4, "half the circumference")
        XCTAssertEqual(haversineMeters(p(2.3522, 48.8566), p(-0.1276, 51.5072)), 343_530.33999857167, accuracy: 1e-3, "Paris–London")
        XCTAssertEqual(haversineMeters(p(9.5209, 47.1410), p(9.5542, 47.1660)), 3_750.7632278945644, accuracy: 1e-6, "Vaduz–Schaan")
        XCTAssertEqual(haversineMeters(p(-74.006, 40.7128), p(139.6917, 35.6895)), 10_848_822.982691439, accuracy: 1e-2, "New York–Tokyo")
        XCTAssertEqual(haversineMeters(p(9.52, 47.14), p(9.52000001, 47.14)), 0.0007563593302355145, accuracy: 1e-12, "a millimetre")
        XCTAssertEqual(haversineMeters(p(9.52, 47.14), p(9.52, 47.14)), 0)
        XCTAssertEqual(haversineMeters(p(1, 2), p(3, 4)), haversineMeters(p(3, 4), p(1, 2)))
    }

    func testBearings() {
        XCTAssertEqual(initialBearingDegrees(from: p(0, 0), to: p(0, 1)), 0)
        XCTAssertEqual(initialBearingDegrees(from: p(0, 0), to: p(1, 0)), 90, accuracy: 1e-12)
        XCTAssertEqual(initialBearingDegrees(from: p(0, 0), to: p(0, -1)), 180, accuracy: 1e-12)
        XCTAssertEqual(initialBearingDegrees(from: p(0, 0), to: p(-1, 0)), 270, accuracy: 1e-12)
        XCTAssertEqual(initialBearingDegrees(from: p(2.3522, 48.8566), to: p(-0.1276, 51.5072)), 330.0210939580977, accuracy: 1e-9)
        XCTAssertEqual(initialBearingDegrees(from: p(9.5209, 47.1410), to: p(9.5542, 47.1660)), 42.158350973132656, accuracy: 1e-9)
        XCTAssertEqual(initialBearingDegrees(from: p(5, 5), to: p(5, 5)), 0)
        var rng = SplitMix64(seed: 12)
        for _ in 0..<10_000 {
            let a = p(rng.double(-180, 180), rng.double(-90, 90))
            let b = p(a.lon + rng.double(-1e-9, 1e-9), a.lat + rng.double(-1e-9, 1e-9))
            let bearing = initialBearingDegrees(from: a, to: b)
            XCTAssertTrue(bearing >= 0 && bearing < 360, "\(bearing)")
        }
    }
}
