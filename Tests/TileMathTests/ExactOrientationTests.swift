import XCTest
@testable import TileMath
import TestSupport

final class ExactOrientationTests: XCTestCase {
    /// Exact sign of (ax−cx)(by−cy) − (ay−cy)(bx−cx) for integer inputs, in 128 bits.
    private func integerSign(_ ax: Int64, _ ay: Int64, _ bx: Int64, _ by: Int64, _ cx: Int64, _ cy: Int64) -> Int {
        let left = (ax - cx).multipliedFullWidth(by: by - cy)
        let right = (ay - cy).multipliedFullWidth(by: bx - cx)
        if left.high != right.high { return left.high > right.high ? 1 : -1 }
        if left.low != right.low { return left.low > right.low ? 1 : -1 }
        return 0
    }

    /// Nearly collinear triples, where the plain floating-point formula gets the sign wrong.
    func testNearDegenerateTriplesAgainstIntegerArithmetic() {
        var rng = SplitMix64(seed: 31)
        let scale = 0x1p-40 // integers below 2^53 times 2^-40 are exact doubles
        var disagreementsOfNaiveFormula = 0
        for i in 0..<50_000 {
            let range: Int64 = 1 << 52
            let ax = Int64(bitPattern: rng.next()) % range, ay = Int64(bitPattern: rng.next()) % range
            let q = Int64(rng.int(1, 1000))
            let dx = (Int64(bitPattern: rng.next()) % (range / 4 / q)) * q, dy = (Int64(bitPattern: rng.next()) % (range / 4 / q)) * q
            let p = Int64(rng.int(-2000, 2000))
            // c on the line through a and a + (dx, dy), then nudged by a few units (or not).
            let nudge = i % 3 == 0 ? 0 : Int64(rng.int(-3, 3))
            let cx = ax + dx / q * p + nudge, cy = ay + dy / q * p - nudge * Int64(i % 2)
            let bx = ax + dx, by = ay + dy
            guard abs(cx) < range * 2, abs(cy) < range * 2 else { continue }
            let want = integerSign(ax, ay, bx, by, cx, cy)
            let d = { (v: Int64) in Double(v) * scale }
            let got = ExactOrientation.sign(d(ax), d(ay), d(bx), d(by), d(cx), d(cy))
            XCTAssertEqual(got, want, "triple \(i)")
            let naive = (d(ax) - d(cx)) * (d(by) - d(cy)) - (d(ay) - d(cy)) * (d(bx) - d(cx))
            if (naive > 0 ? 1 : naive < 0 ? -1 : 0) != want { disagreementsOfNaiveFormula += 1 }
        }
        XCTAssertGreaterThan(disagreementsOfNaiveFormula, 0, "the test must include cases the naive formula gets wrong")
    }

    func testSimpleCases() {
        XCTAssertEqual(ExactOrientation.sign(0, 0, 1, 0, 0, 1), 1)
        XCTAssertEqual(ExactOrientation.sign(0, 0, 1, 0, 0, -1), -1)
        XCTAssertEqual(ExactOrientation.sign(0, 0, 1, 1, 2, 2), 0)
        XCTAssertEqual(ExactOrientation.sign(0.1, 0.1, 0.3, 0.3, 0.2, 0.2), ExactOrientation.sign(0.1, 0.1, 0.3, 0.3, 0.2, 0.2))
        XCTAssertEqual(ExactOrientation.sign(9.5, 47, 9.5, 47, 1, 1), 0)
    }

    func testSegmentAgainstOpenBox() {
        let box = PolygonCellIntersection.OpenBox(minX: 0, minY: 0, maxX: 1, maxY: 1)
        func meets(_ ax: Double, _ ay: Double, _ bx: Double, _ by: Double) -> Bool {
            PolygonCellIntersection.segmentMeetsOpenBox(ax, ay, bx, by, box)
        }
        XCTAssertTrue(meets(-1, 0.5, 2, 0.5), "straight through")
        XCTAssertFalse(meets(-1, 0, 2, 0), "along the bottom edge")
        XCTAssertFalse(meets(1, -1, 1, 2), "along the right edge")
        XCTAssertFalse(meets(-1, 1, 1, -1), "through the corner (0,0) only... no: the diagonal x+y=0 touches the corner")
        XCTAssertTrue(meets(-1, 1.5, 1.5, -1), "cuts the corner region")
        XCTAssertFalse(meets(0, 2, 2, 0), "touches only the corner (1,1)")
        XCTAssertTrue(meets(0.5, 0.5, 0.5, 0.5), "a point inside")
        XCTAssertFalse(meets(0, 0.5, 0, 0.5), "a point on the border")
        XCTAssertTrue(meets(0.2, 0.2, 5, 5), "starts inside")
        XCTAssertFalse(meets(1, 1, 5, 5), "starts at a corner, leaves")
        XCTAssertTrue(meets(0, 0, 1, 1), "the diagonal")
        XCTAssertFalse(meets(1.5, 0.5, 3, 0.5), "outside")
    }
}
