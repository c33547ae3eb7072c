import XCTest
import CShims
@testable import ContractionHierarchy
import TestSupport

/// Runs copied from the cache must be exactly what unpacking gives, whatever the cache's size
/// and whatever it has evicted.
final class UnpackedArcCacheTests: XCTestCase {
    func testARunIsKeptUntilItsPlaceIsWrittenOver() {
        let cache = UnpackedArcCache(slotBits: 12, capacity: 70)
        func run(_ n: Int, _ base: UInt32) -> ([UInt32], [UInt32]) { ((0..<n).map { base + UInt32($0) }, (0..<n).map { base * 2 + UInt32($0) }) }
        func kept(_ key: UInt32) -> [UInt32]? { cache.run(from: key, to: key + 1, middle: 0).map { $0.map(\.to) } }
        func remember(_ key: UInt32, _ r: ([UInt32], [UInt32])) {
            r.0.withUnsafeBufferPointer { nodes in
                r.1.withUnsafeBufferPointer { cache.remember(from: key, to: key + 1, middle: 0, nodes: nodes, weights: $0) }
            }
        }
        XCTAssertNil(kept(1), "an empty cache")
        remember(1, run(16, 100))
        XCTAssertEqual(kept(1), run(16, 100).0)
        XCTAssertEqual(cache.run(from: 1, to: 2, middle: 0)?.map(\.weight), run(16, 100).1)
        XCTAssertNil(cache.run(from: 1, to: 2, middle: 5), "another middle is another shortcut")
        remember(2, run(15, 300))
        XCTAssertNil(kept(2), "runs shorter than the minimum are not kept")
        remember(8, run(18, 800))
        XCTAssertNil(kept(8), "runs longer than a quarter of the ring are not kept")
        remember(3, run(16, 200))
        remember(4, run(16, 400))
        remember(7, run(16, 700))   // the ring's 70 pairs: 1, 3, 4, 7, then 6 free
        XCTAssertEqual(kept(1), run(16, 100).0)
        remember(5, run(17, 500))   // does not fit at the end: skips there, writes over 1 and part of 3
        XCTAssertNil(kept(1), "written over")
        XCTAssertNil(kept(3), "partly written over")
        XCTAssertEqual(kept(4), run(16, 400).0)
        XCTAssertEqual(kept(7), run(16, 700).0)
        XCTAssertEqual(kept(5), run(17, 500).0)
        remember(6, run(16, 600))   // right after 5, over the start of 4
        XCTAssertNil(kept(4), "partly written over")
        XCTAssertEqual(kept(7), run(16, 700).0)
        XCTAssertEqual(kept(5), run(17, 500).0)
        XCTAssertEqual(kept(6), run(16, 600).0)
    }

    func testPathsAreTheSameFromTheCacheAsUnpackedWhateverItsSize() {
        let g = TestGraphs.edgeBasedRoadGraph(targetNodes: 4000, seed: 11)
        let built = ContractionHierarchyBuilder.build(nodeCount: g.nodeCount, arcs: g.arcs, options: ExactnessChecker.roundsOptions)
        let storage = CHGraphStorage(built)
        let roomy = CHQuery(storage: storage), tiny = CHQuery(storage: storage)
        tiny.unpackScratch.cache = UnpackedArcCache(slotBits: 2, capacity: 200)
        var rng = SplitMix64(seed: 5)
        let pairs = (0..<400).map { _ in (UInt32(rng.below(g.nodeCount)), UInt32(rng.below(g.nodeCount))) }
        for round in 0..<2 {
            for (s, t) in pairs {
                // A query that has unpacked nothing before: no cache to copy from.
                let fresh = CHQuery(storage: storage).pathWithArcWeights(sources: [(s, 0)], targets: [(t, 0)])
                // Twice in a row: the tiny cache still holds the path's runs the second time.
                for query in [roomy, tiny, tiny] {
                    let got = query.pathWithArcWeights(sources: [(s, 0)], targets: [(t, 0)])
                    XCTAssertEqual(got?.distance, fresh?.distance, "\(s)→\(t), round \(round)")
                    XCTAssertEqual(got?.nodes, fresh?.nodes, "\(s)→\(t), round \(round)")
                    XCTAssertEqual(got?.arcWeights, fresh?.arcWeights, "\(s)→\(t), round \(round)")
                }
            }
        }
        XCTAssertGreaterThan(roomy.unpackScratch.cache.hits, 50, "the second round copies runs")
        XCTAssertGreaterThan(tiny.unpackScratch.cache.hits, 0, "the tiny cache, writing over its runs, still copies some")
    }

    /// Unpacking keeps its buffers between paths and allocates only what it returns: a query
    /// object answering path after path holds as much heap after 3,000 more as after the first
    /// hundred. (A buffer made and dropped on every path once lost 20 KB each: a server's
    /// memory grew without bound.)
    func testUnpackingHoldsNoMoreMemoryPathAfterPath() {
        let g = TestGraphs.edgeBasedRoadGraph(targetNodes: 4000, seed: 12)
        let built = ContractionHierarchyBuilder.build(nodeCount: g.nodeCount, arcs: g.arcs, options: ExactnessChecker.roundsOptions)
        let query = CHQuery(storage: CHGraphStorage(built))
        var rng = SplitMix64(seed: 7)
        let pairs = (0..<3100).map { _ in (UInt32(rng.below(g.nodeCount)), UInt32(rng.below(g.nodeCount))) }
        var arcs = 0
        func answer(_ range: Range<Int>) {
            for (s, t) in pairs[range] { arcs += query.pathWithArcWeights(sources: [(s, 0)], targets: [(t, 0)])?.nodes.count ?? 0 }
        }
        answer(0..<100)
        let before = offgrid_heap_in_use()
        answer(100..<3100)
        let grown = Int(offgrid_heap_in_use()) - Int(before)
        XCTAssertGreaterThan(arcs, 30_000, "the paths are long enough to unpack")
        XCTAssertLessThan(grown, 256 << 10, "heap in use grew by \(grown) bytes over 3,000 paths")
    }
}
