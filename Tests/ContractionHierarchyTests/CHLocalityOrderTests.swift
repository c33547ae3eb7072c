import XCTest
import ContractionHierarchy
import TestSupport

/// Renumbering a hierarchy for locality (`renumberedForLocality`) keeps it a valid hierarchy
/// with the same answers.
final class CHLocalityOrderTests: XCTestCase {
    func testRenumberedHierarchiesStayExact() {
        var rng = SplitMix64(seed: 31)
        var graphs: [(name: String, nodeCount: Int, arcs: ArcList)] = []
        for seed: UInt64 in 1...2 {
            let g = TestGraphs.edgeBasedRoadGraph(targetNodes: 2000 * Int(seed), seed: seed)
            graphs.append((g.name, g.nodeCount, g.arcs))
        }
        let grid = TestGraphs.edgeBasedGridGraph(targetNodes: 2000, seed: 4)
        graphs.append((grid.name, grid.nodeCount, grid.arcs))
        for n in [1, 7, 300] {
            graphs.append(("random \(n)", n, TestGraphs.randomSparse(nodeCount: n, arcsPerNode: 2.0, maxWeight: 500, rng: &rng)))
        }
        for (i, g) in graphs.enumerated() {
            // Keys: node id order (what a real build's spatial key resembles) and random ones.
            for random in [false, true] {
                let keys = (0..<g.nodeCount).map { random ? rng.next() : UInt64($0) }
                let checker = ExactnessChecker(nodeCount: g.nodeCount, arcs: g.arcs, spatialKeys: keys)
                let level = checker.hierarchy.levels()
                for r in 0..<g.nodeCount {
                    if r > 0 { XCTAssertLessThanOrEqual(level[r - 1], level[r], "\(g.name): ids sorted by level") }
                    for a in Int(checker.hierarchy.firstOut[r])..<Int(checker.hierarchy.firstOut[r + 1]) {
                        XCTAssertLessThan(level[r], level[Int(checker.hierarchy.head[a])], "\(g.name): arcs go up a level")
                    }
                }
                checker.checkAll(seed: UInt64(i), pairs: 800)
            }
        }
    }
}
