import Foundation
import OffgridCore
import TestSupport
import XCTest

/// `BlockChecks`: each block is checked once, on first use, whichever thread reaches it first;
/// a failed block stays failed and its first problem is kept; nothing is checked before use.
final class BlockChecksTests: XCTestCase {
    /// Element values of 100,000 elements in blocks of 256: block 7 and block 300 are bad.
    private func makeChecks(counter: UnsafeMutablePointer<Int>, lock: NSLock) -> BlockChecks {
        BlockChecks(count: 100_000, shift: 8) { range in
            lock.lock(); counter[range.lowerBound >> 8] += 1; lock.unlock()
            let block = range.lowerBound >> 8
            return block == 7 || block == 300 ? "block \(block) is bad" : nil
        }
    }

    func testEachBlockIsCheckedOnceOnFirstUseFromManyThreads() {
        let blocks = (100_000 + 255) / 256
        let counter = UnsafeMutablePointer<Int>.allocate(capacity: blocks)
        counter.initialize(repeating: 0, count: blocks)
        defer { counter.deallocate() }
        let lock = NSLock()
        let checks = makeChecks(counter: counter, lock: lock)
        XCTAssertEqual(checks.blockCount, blocks)
        XCTAssertEqual(checks.passedBlockCount, 0)
        XCTAssertNil(checks.problem)
        // Eight threads ask for every element of the first half, in different orders.
        let verdicts = Parallel.map(count: 8, threads: 8) { t -> [Bool] in
            var rng = SplitMix64(seed: UInt64(t + 1))
            var seen = [Bool](repeating: false, count: 50_000)
            for _ in 0..<200_000 {
                let i = Int(rng.next() % 50_000)
                seen[i] = checks.passed(i)
            }
            for i in 0..<50_000 { seen[i] = checks.passed(i) }
            return seen
        }
        for v in verdicts {
            for i in [0, 255, 256 * 7 - 1, 256 * 8, 49_999] { XCTAssertTrue(v[i], "\(i)") }
            for i in (256 * 7)..<(256 * 8) { XCTAssertFalse(v[i], "\(i)") }
        }
        let firstHalf = (50_000 + 255) / 256
        for b in 0..<blocks { XCTAssertEqual(counter[b], b < firstHalf ? 1 : 0, "block \(b)") }
        XCTAssertEqual(checks.passedBlockCount, firstHalf - 1)
        XCTAssertEqual(checks.problem, "block 7 is bad")
        // The rest, then all: block 300 fails too, the first problem stays the first found.
        XCTAssertFalse(checks.checkAll())
        XCTAssertEqual(checks.passedBlockCount, blocks - 2)
        XCTAssertEqual(checks.problem, "block 7 is bad")
        for b in 0..<blocks { XCTAssertEqual(counter[b], 1, "block \(b)") }
        XCTAssertFalse(checks.passed(300 * 256 + 5))
        XCTAssertEqual(counter[300], 1)
    }
}
