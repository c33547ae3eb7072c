import XCTest
@testable import RoutingGraph
import TestSupport

/// Components stored for the ranks outside the main one give back every rank's component, and
/// damage to them is named.
final class RankComponentsTests: XCTestCase {
    private func withComponents<R>(_ components: [UInt16], _ body: (RankComponents) -> R) -> R {
        let (index, minor) = RankComponents.compact(components)
        return index.withUnsafeBufferPointer { index in
            minor.withUnsafeBufferPointer { minor in body(RankComponents(rankCount: components.count, index: index, minor: minor)) }
        }
    }

    func testEveryRanksComponentComesBack() {
        var rng = SplitMix64(seed: 29)
        for count in [0, 1, 31, 32, 33, 1000, 4099] {
            for share in [0.0, 0.01, 1.0] {
                let components = (0..<count).map { _ in rng.chance(share) ? UInt16(1 + rng.below(65_535)) : 0 }
                withComponents(components) { stored in
                    XCTAssertNil(stored.problem(componentCount: 65_536))
                    XCTAssertEqual((0..<count).map { stored[$0] }, components, "\(count) ranks, \(share) outside")
                    XCTAssertEqual(stored.minor.count, components.filter { $0 != 0 }.count)
                }
            }
        }
    }

    func testDamageIsNamed() {
        // Ranks 3, 13, …, 63 lie outside the main component, rank r in component r / 10 + 1.
        let components: [UInt16] = (0..<70).map { (r: Int) -> UInt16 in r % 10 == 3 ? UInt16(r / 10 + 1) : 0 }
        withComponents(components) { stored in
            XCTAssertNil(stored.problem(componentCount: 8))
            XCTAssertEqual(stored.problem(componentCount: 7), "section rankMinorComponent entry 6 is 7, not in 1 ..< 7")
        }
        let (index, minor) = RankComponents.compact(components)
        var miscounted = index
        miscounted[1] += 1
        func problem(_ index: [UInt64], _ minor: [UInt16]) -> String? {
            index.withUnsafeBufferPointer { index in
                minor.withUnsafeBufferPointer { RankComponents(rankCount: 70, index: index, minor: $0).problem(componentCount: 8) }
            }
        }
        XCTAssertEqual(problem(miscounted, minor), "section rankComponentIndex: word 1 counts 4 ranks outside the main component before it, not 3")
        XCTAssertEqual(problem(index, Array(minor.dropLast())),
                       "section rankComponentIndex: 7 ranks outside the main component are flagged but 6 components stored")
    }
}
