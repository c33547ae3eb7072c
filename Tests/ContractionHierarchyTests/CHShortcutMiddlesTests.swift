import XCTest
@testable import ContractionHierarchy
import TestSupport

/// Middles stored for shortcuts only give back every arc's middle, and a damaged index is found.
final class CHShortcutMiddlesTests: XCTestCase {
    private func withMiddles<R>(_ middle: [UInt32], rankCount: Int, _ body: (CHShortcutMiddles) -> R) -> R {
        let (index, shortcutMiddle) = CHShortcutMiddles.compact(middle)
        return CHShortcutMiddles.with(arcCount: middle.count, index: index, shortcutMiddle: shortcutMiddle, rankCount: rankCount, body)
    }

    /// Three bytes a middle up to 2^24 ranks, four above; every middle below the rank count,
    /// the largest included, comes back from either.
    func testEveryArcsMiddleComesBack() {
        XCTAssertEqual(CHShortcutMiddles.middleBytes(rankCount: 1 << 24), 3)
        XCTAssertEqual(CHShortcutMiddles.middleBytes(rankCount: (1 << 24) + 1), 4)
        var rng = SplitMix64(seed: 31)
        for rankCount in [100, 1 << 24, 1 << 29] {
            for count in [0, 1, 31, 32, 33, 64, 1000, 4099] {
                for share in [0.0, 0.4, 1.0] {
                    var middle = (0..<count).map { _ in rng.chance(share) ? UInt32(rng.below(rankCount)) : UInt32.max }
                    if let k = middle.firstIndex(where: { $0 != UInt32.max }) { middle[k] = UInt32(rankCount - 1) }
                    withMiddles(middle, rankCount: rankCount) { compact in
                        XCTAssertEqual(compact.middleBytes, rankCount <= 1 << 24 ? 3 : 4)
                        XCTAssertNil(compact.problem())
                        XCTAssertEqual((0..<count).map { compact[$0] }, middle, "\(count) arcs, \(share) shortcuts, \(rankCount) ranks")
                        XCTAssertEqual(compact.shortcutCount, middle.filter { $0 != UInt32.max }.count)
                        XCTAssertEqual(compact.middles.count, compact.shortcutCount * compact.middleBytes)
                        XCTAssertEqual(compact.index.count, (count + 31) / 32)
                    }
                }
            }
        }
    }

    func testDamagedIndexIsFound() {
        let middle: [UInt32] = (0..<70).map { $0 % 3 == 0 ? UInt32($0) : UInt32.max }
        let (index, shortcutMiddle) = CHShortcutMiddles.compact(middle)
        var miscounted = index
        miscounted[1] += 1
        CHShortcutMiddles.with(arcCount: 70, index: miscounted, shortcutMiddle: shortcutMiddle, rankCount: 70) {
            XCTAssertEqual($0.problem(), "word 1 counts 12 shortcuts before it, not 11")
        }
        var pastTheEnd = index
        pastTheEnd[2] |= UInt64(1) << (32 + 10)   // arc 74 of 70
        CHShortcutMiddles.with(arcCount: 70, index: pastTheEnd, shortcutMiddle: shortcutMiddle, rankCount: 70) {
            XCTAssertEqual($0.problem(), "word 2 flags shortcuts past the last arc")
        }
        CHShortcutMiddles.with(arcCount: 70, index: index, shortcutMiddle: Array(shortcutMiddle.dropLast()), rankCount: 70) {
            XCTAssertEqual($0.problem(), "24 shortcuts are flagged but 23 middles stored")
        }
    }
}
