import Foundation
import XCTest
@testable import RouteQuery

final class IntersectionBearingsTests: XCTestCase {
    /// Every count up to past the inline room, with bearings across 0...359, reads back in order.
    func testReadsBackWhatItWasGiven() {
        for count in 0...(IntersectionBearings.inlineCapacity + 3) {
            let values = (0..<count).map { ($0 * 97 + 13) % 360 }
            let bearings = values.withUnsafeBufferPointer { IntersectionBearings($0) }
            XCTAssertEqual(Array(bearings), values, "\(count) bearings")
            XCTAssertEqual(bearings.count, count)
            XCTAssertEqual(Array(bearings.indices), Array(0..<count))
        }
        XCTAssertEqual(Array([0, 359, 65535] as IntersectionBearings), [0, 359, 65535])
    }

    /// Values a 16-bit lane cannot hold are kept whole, not cut.
    func testValuesOutsideTheLanesAreKept() {
        let values = [-1, 65536, Int.max, Int.min, 90]
        XCTAssertEqual(Array(IntersectionBearings(values)), values)
    }

    /// Equality is by content, whichever way the values are stored.
    func testEqualityByContent() {
        let inline: IntersectionBearings = [10, 20, 30]
        XCTAssertEqual(inline, IntersectionBearings([10, 20, 30]))
        XCTAssertNotEqual(inline, [10, 20])
        XCTAssertNotEqual(inline, [10, 20, 31])
        let many = Array(0..<20)
        XCTAssertEqual(IntersectionBearings(many), IntersectionBearings(many.map { $0 }))
        XCTAssertNotEqual(IntersectionBearings(many), IntersectionBearings(Array(many.dropLast())))
    }

    /// Encoded as a plain JSON array, as `[Int]` was, and as the hand-written writer spells it.
    func testEncodesAsAnArray() throws {
        let bearings: IntersectionBearings = [0, 90, 180, 270]
        XCTAssertEqual(String(decoding: try JSONEncoder().encode(bearings), as: UTF8.self), "[0,90,180,270]")
        var out = ""
        writeArray(bearings, to: &out) { $1.int($0) }
        XCTAssertEqual(out, "[0,90,180,270]")
        let intersection = RouteIntersection(location: LonLat(lon: 9.5, lat: 47.1), bearings: [15, 195], in: 1, out: 0)
        XCTAssertEqual(intersection.entry, [true, false])
    }
}
