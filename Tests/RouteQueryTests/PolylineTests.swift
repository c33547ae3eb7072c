import Foundation
@testable import RouteQuery
import OffgridCore
import TileMath
import XCTest
import TestSupport

/// Encoded polylines against the reference algorithm's outputs, and Douglas–Peucker.
final class PolylineTests: XCTestCase {
    let google: [(lat: Double, lon: Double)] = [(38.5, -120.2), (40.7, -120.95), (43.252, -126.453)]

    func testGoogleExampleAtPrecisionFive() throws {
        XCTAssertEqual(Polyline.encode(google, precision: 5), "_p~iF~ps|U_ulLnnqC_mqNvxq`@")
        let decoded = try Polyline.decode("_p~iF~ps|U_ulLnnqC_mqNvxq`@", precision: 5)
        XCTAssertEqual(decoded.count, 3)
        for (a, b) in zip(decoded, google) {
            XCTAssertEqual(a.lat, b.lat, accuracy: 1e-9)
            XCTAssertEqual(a.lon, b.lon, accuracy: 1e-9)
        }
        // The same points given in 1e-7 degrees encode identically.
        XCTAssertEqual(Polyline.encode(latE7: google.map { Int32(($0.lat * 1e7).rounded()) },
                                       lonE7: google.map { Int32(($0.lon * 1e7).rounded()) }, precision: 5),
                       "_p~iF~ps|U_ulLnnqC_mqNvxq`@")
    }

    /// A run of a line's points taken from the line's encoding is the run encoded on its own,
    /// byte for byte, for every precision a route uses, whole lines, single points and empty runs.
    func testRunsOfALineEncodeAsTheRunAlone() {
        var random = FixtureRandom(seed: 11)
        var lat = [47.1410001], lon = [9.5209999]
        for _ in 0..<300 {
            // Mostly short steps (a road), some long jumps and repeated points (cut pieces).
            let jump = random.uniform(0, 1) < 0.05 ? 5.0 : random.uniform(0, 1) < 0.05 ? 0 : 0.002
            lat.append(lat[lat.count - 1] + random.uniform(-jump, jump))
            lon.append(lon[lon.count - 1] + random.uniform(-jump, jump))
        }
        for precision in [5, 6] {
            let runs = PolylineRuns(lat: lat[...], lon: lon[...], precision: precision)
            XCTAssertEqual(runs.whole.string, Polyline.encode(lat: lat, lon: lon, precision: precision))
            var backslashes = 0
            for _ in 0..<200 {
                let a = Int(random.uniform(0, Double(lat.count))), b = Int(random.uniform(0, Double(lat.count)))
                let r = min(a, b)..<max(a, b) + 1
                let expected = Polyline.encode(lat: lat[r], lon: lon[r], precision: precision)
                XCTAssertEqual(runs.run(r).string, expected, "\(r)")
                // Written as JSON piece by piece (the first point's characters, then the line's),
                // the same bytes as the string escaped whole, into either sink.
                var bytes = JSONBuffer(capacity: 1), reference: [UInt8] = [], text = ""
                runs.run(r).writeJSON(to: &bytes)
                runs.run(r).writeJSON(to: &text)
                JSONBytes.writeString(expected, to: &reference)
                XCTAssertEqual(Array(bytes.bytes), reference, "\(r)")
                XCTAssertEqual(Array(text.utf8), reference, "\(r)")
                backslashes += expected.utf8.filter { $0 == 0x5C }.count
            }
            XCTAssertGreaterThan(backslashes, 20, "the runs should include escaped characters")
            XCTAssertEqual(runs.run(7..<7).string, "")
        }
        // A line that is itself a run of a longer one is indexed as that one.
        let part = PolylineRuns(lat: lat[100..<200], lon: lon[100..<200], precision: 6)
        XCTAssertEqual(part.run(150..<160).string, Polyline.encode(lat: lat[150..<160], lon: lon[150..<160], precision: 6))
    }

    func testPrecisionSixMatchesTheReferenceAndRoundTrips() throws {
        // Expected strings from the reference algorithm (Python, round half away from zero).
        XCTAssertEqual(Polyline.encode(google, precision: 6), "_izlhA~rlgdF_{geC~ywl@_kwzCn`{nI")
        let mixed: [(lat: Double, lon: Double)] = [(47.1410001, 9.5209999), (-33.8688197, 151.2092955), (0, 0), (-0.000001, 0.000001)]
        XCTAssertEqual(Polyline.encode(mixed, precision: 6), "ogg|xAoubdQvhmoyCo}}fmGg`er_A~sal_H@A")

        var random = FixtureRandom(seed: 3)
        let points = (0..<500).map { _ in
            (lat: (random.uniform(-90, 90) * 1e6).rounded() / 1e6, lon: (random.uniform(-180, 180) * 1e6).rounded() / 1e6)
        }
        let text = Polyline.encode(points, precision: 6)
        let back = try Polyline.decode(text, precision: 6)
        XCTAssertEqual(back.count, points.count)
        for (a, b) in zip(back, points) {
            XCTAssertEqual(a.lat, b.lat, accuracy: 1e-9)
            XCTAssertEqual(a.lon, b.lon, accuracy: 1e-9)
        }
        XCTAssertEqual(Polyline.encode(back, precision: 6), text)
    }

    func testNegativeValuesAndHalvesRoundAwayFromZero() throws {
        XCTAssertEqual(Polyline.encode([(lat: -0.00001, lon: -0.00001)], precision: 5), "@@")
        XCTAssertEqual(try Polyline.decode("@@", precision: 5).first?.lat ?? 0, -0.00001, accuracy: 1e-12)
        // 0.000005° is exactly half a unit at precision 5: away from zero, both signs.
        XCTAssertEqual(Polyline.encode(latE7: [50, -50, 49, -49], lonE7: [0, 0, 0, 0], precision: 5),
                       Polyline.encode([(lat: 0.00001, lon: 0), (lat: -0.00001, lon: 0), (lat: 0, lon: 0), (lat: 0, lon: 0)], precision: 5))
        XCTAssertEqual(Polyline.encode(latE7: [50, -50, 49, -49], lonE7: [0, 0, 0, 0], precision: 5), "A?B?A???")
        XCTAssertEqual(Polyline.encode(latE7: [15, -15], lonE7: [-25, 25], precision: 6), "CDFK")
        XCTAssertEqual(Polyline.encode([(lat: -179.99999, lon: 179.99999)], precision: 5), "|fsia@}fsia@")
    }

    /// The encoder's own rounding must be libm's half-away-from-zero bit for bit: a route's
    /// geometry may not change with it.
    func testRoundingMatchesLibmHalfAwayFromZero() {
        var tricky: [Double] = [0, -0.0, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 0.49999999999999994, -0.49999999999999994,
                                0.5000000000000001, 4503599627370495.5, -4503599627370495.5, 0x1p52, -0x1p52, 0x1p52 + 1,
                                9_007_199_254_740_993, 1e15 + 0.5, 47.1234565 * 1e6, -122.4194155 * 1e6, 179.9999995 * 1e7]
        var state: UInt64 = 42
        for _ in 0..<100_000 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let degrees = Double(state >> 11) / Double(1 << 53) * 360 - 180
            tricky.append(degrees * 1e5)
            tricky.append(degrees * 1e6)
            tricky.append((degrees * 1e6).rounded() + 0.5)   // exact halves, both signs
        }
        // Each half and its neighbours, in every binade up to 2^52 and at its ends (where the
        // spacing of doubles halves), both signs.
        for e in 0...52 {
            let p = Double(sign: .plus, exponent: e, significand: 1)
            for base in [p - 0.5, p + 0.5, p - 1.5, p * 0.75 + 0.5, p - 0.25, p + 0.25] where base >= 0 {
                for v in [base, base.nextUp, base.nextDown, base.nextUp.nextUp, base.nextDown.nextDown] { tricky += [v, -v] }
            }
        }
        for v in tricky where v.magnitude < 0x1p62 {
            XCTAssertEqual(Polyline.roundedHalfAway(v), Int64(v.rounded(.toNearestOrAwayFromZero)), "\(v)")
        }
    }

    func testEmptyAndMalformedInput() throws {
        XCTAssertEqual(Polyline.encode([], precision: 5), "")
        XCTAssertEqual(Polyline.encode(latE7: [Int32](), lonE7: [Int32](), precision: 6), "")
        XCTAssertTrue(try Polyline.decode("", precision: 6).isEmpty)
        XCTAssertThrowsError(try Polyline.decode("_p~iF~ps|U_", precision: 5)) { XCTAssertTrue("\($0)".contains("cut off"), "\($0)") }
        XCTAssertThrowsError(try Polyline.decode("_p~iF", precision: 5)) { XCTAssertTrue("\($0)".contains("without longitude"), "\($0)") }
        XCTAssertThrowsError(try Polyline.decode("_p~iF ~ps|U", precision: 5)) { XCTAssertTrue("\($0)".contains("at byte 5"), "\($0)") }
        XCTAssertThrowsError(try Polyline.decode(String(repeating: "_", count: 20) + "?", precision: 5))
    }

    // MARK: - Douglas–Peucker

    /// Points `east` metres east and `north` metres north of a place in Liechtenstein, in 1e-7°.
    func line(_ offsets: [(Double, Double)]) -> (lat: [Int32], lon: [Int32]) {
        let local = TestLocalMetres(origin: GeoPoint(lon: 9.52, lat: 47.14))
        let points = offsets.map { local.point(east: $0.0, north: $0.1) }
        return (points.map { Int32(($0.lat * 1e7).rounded()) }, points.map { Int32(($0.lon * 1e7).rounded()) })
    }

    func testCollinearPointsReduceToTheEndpoints() {
        let l = line((0...20).map { (Double($0) * 50, Double($0) * 20) })
        XCTAssertEqual(LineSimplification.keptIndexes(latE7: l.lat, lonE7: l.lon, toleranceMeters: 1), [0, 20])
        let simple = LineSimplification.simplify(latE7: l.lat, lonE7: l.lon, toleranceMeters: 1)
        XCTAssertEqual(simple.latE7, [l.lat[0], l.lat[20]])
        XCTAssertEqual(simple.lonE7, [l.lon[0], l.lon[20]])
    }

    func testAZigZagAboveTheToleranceStaysAndBelowItGoes() {
        let zig = line((0...10).map { (Double($0) * 100, $0 % 2 == 0 ? 0 : 40) })
        XCTAssertEqual(LineSimplification.keptIndexes(latE7: zig.lat, lonE7: zig.lon, toleranceMeters: 10), Array(0...10))
        XCTAssertEqual(LineSimplification.keptIndexes(latE7: zig.lat, lonE7: zig.lon, toleranceMeters: 50), [0, 10])
        // One bump of 30 m in a straight line: kept at 20 m, dropped at 40 m.
        let bump = line([(0, 0), (100, 0), (200, 30), (300, 0), (400, 0)])
        XCTAssertEqual(LineSimplification.keptIndexes(latE7: bump.lat, lonE7: bump.lon, toleranceMeters: 20), [0, 2, 4])
        XCTAssertEqual(LineSimplification.keptIndexes(latE7: bump.lat, lonE7: bump.lon, toleranceMeters: 40), [0, 4])
    }

    func testASpikeBackPastAnEndpointIsKept() {
        // The middle point lies on the line through the endpoints but 300 m beyond one of them.
        let spike = line([(0, 0), (500, 0), (-300, 0), (1000, 0)])
        XCTAssertEqual(LineSimplification.keptIndexes(latE7: spike.lat, lonE7: spike.lon, toleranceMeters: 10), [0, 1, 2, 3])
    }

    func testShortLinesAndDeterminism() {
        XCTAssertEqual(LineSimplification.keptIndexes(latE7: [Int32](), lonE7: [Int32](), toleranceMeters: 5), [])
        XCTAssertEqual(LineSimplification.keptIndexes(latE7: [1], lonE7: [2], toleranceMeters: 5), [0])
        XCTAssertEqual(LineSimplification.keptIndexes(latE7: [1, 1], lonE7: [2, 2], toleranceMeters: 5), [0, 1])
        var random = FixtureRandom(seed: 9)
        let wander = line((0..<2000).map { i in (Double(i) * 10, random.uniform(-15, 15)) })
        let a = LineSimplification.keptIndexes(latE7: wander.lat, lonE7: wander.lon, toleranceMeters: 8)
        XCTAssertEqual(a, LineSimplification.keptIndexes(latE7: wander.lat, lonE7: wander.lon, toleranceMeters: 8))
        XCTAssertEqual(a.first, 0)
        XCTAssertEqual(a.last, 1999)
        XCTAssertEqual(a, a.sorted())
        XCTAssertLessThan(a.count, 2000)
        XCTAssertGreaterThan(a.count, 10)
    }
}
