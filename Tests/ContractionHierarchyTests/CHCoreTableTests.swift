import XCTest
@testable import ContractionHierarchy
import TestSupport

/// Distance queries through a core table (`CHCoreTable`) equal Dijkstra, for cores from one rank
/// to the whole hierarchy, and the table's own checks catch tables that are not the core's
/// distances.
final class CHCoreTableTests: XCTestCase {
    func testCoreQueriesEqualDijkstraOnRoadGraphs() {
        let road = TestGraphs.edgeBasedRoadGraph(targetNodes: 3000, seed: 11)
        for core in [1, 40, 300, road.nodeCount / 2, road.nodeCount] {
            ExactnessChecker(nodeCount: road.nodeCount, arcs: road.arcs, coreSize: core).checkAll(seed: UInt64(core), pairs: 1500)
        }
        let grid = TestGraphs.edgeBasedGridGraph(targetNodes: 3000, seed: 12)
        ExactnessChecker(nodeCount: grid.nodeCount, arcs: grid.arcs, coreSize: 200).checkAll(seed: 13, pairs: 2000)
    }

    /// The default core grows with the hierarchy (22 bytes of table per rank) up to 2,304 ranks.
    func testDefaultCoreSizeFollowsTheHierarchy() {
        XCTAssertEqual(CHCoreTable.defaultSize(nodeCount: 0), 0)
        XCTAssertEqual(CHCoreTable.defaultSize(nodeCount: 744), 0)
        XCTAssertEqual(CHCoreTable.defaultSize(nodeCount: 745), 64)
        XCTAssertEqual(CHCoreTable.defaultSize(nodeCount: 464_448), 1536)     // ~1 M OSM nodes
        XCTAssertEqual(CHCoreTable.defaultSize(nodeCount: 2_322_240), 2304)   // ~5 M
        XCTAssertEqual(CHCoreTable.defaultSize(nodeCount: 1 << 29), 2304)
        for n in stride(from: 0, to: 3_000_000, by: 9_973) {
            let k = CHCoreTable.defaultSize(nodeCount: n)
            XCTAssertEqual(k % 64, 0)
            XCTAssertLessThanOrEqual(4 * k * k, 22 * n)
        }
    }

    func testCoreQueriesEqualDijkstraOnSparseTiedAndDisconnectedGraphs() {
        var rng = SplitMix64(seed: 14)
        for n in [2, 30, 400] {
            let arcs = TestGraphs.randomSparse(nodeCount: n, arcsPerNode: 1.5, maxWeight: 1000, rng: &rng)
            ExactnessChecker(nodeCount: n, arcs: arcs, coreSize: max(1, n / 5)).checkAll(seed: UInt64(n), pairs: 1000)
        }
        let grid = TestGraphs.uniformGrid(width: 25, height: 25, rng: &rng)
        ExactnessChecker(nodeCount: 625, arcs: grid, coreSize: 64).checkAll(seed: 15, pairs: 1500)
        // Parts that never meet: the core holds ranks of several of them, unreachable pairs stay nil.
        let road = TestGraphs.roadNetwork(width: 20, height: 15, rng: &rng, onewayShare: 0.3)
        let sparse = TestGraphs.randomSparse(nodeCount: 200, arcsPerNode: 1.2, maxWeight: 50, rng: &rng)
        let union = TestGraphs.disjointUnion([(road.nodeCount, road.arcs), (200, sparse), (5, ArcList())])
        ExactnessChecker(nodeCount: union.nodeCount, arcs: union.arcs, coreSize: 100).checkAll(seed: 16, pairs: 2000)
    }

    /// Paths through the core are rebuilt from the table; zero-weight cycles in the core give
    /// ranks several equally near predecessors, some leading back onto the path.
    func testCorePathsThroughZeroWeightCycles() {
        var rng = SplitMix64(seed: 22)
        var arcs = ArcList()
        let n = 300
        for _ in 0..<(3 * n) {
            let w = rng.chance(0.6) ? 0 : UInt32(1 + rng.below(3))
            arcs.append(tail: UInt32(rng.below(n)), head: UInt32(rng.below(n)), weight: w)
        }
        for core in [20, 80, n] {
            ExactnessChecker(nodeCount: n, arcs: arcs, coreSize: core).checkAll(seed: UInt64(core), pairs: 1500)
        }
    }

    /// The core must take over most of a search: on a road graph, far fewer nodes are settled.
    func testCoreSearchSettlesFewerNodes() {
        let road = TestGraphs.edgeBasedRoadGraph(targetNodes: 4000, seed: 17)
        let built = ContractionHierarchyBuilder.build(nodeCount: road.nodeCount, arcs: road.arcs, options: ExactnessChecker.roundsOptions)
        let plain = CHQuery(storage: CHGraphStorage(built)), cored = CHQuery(storage: CHGraphStorage(built, coreSize: 256))
        var rng = SplitMix64(seed: 18)
        var plainSettled = 0, coreSettled = 0
        for _ in 0..<500 {
            let s = UInt32(rng.below(road.nodeCount)), t = UInt32(rng.below(road.nodeCount))
            XCTAssertEqual(plain.distance(from: s, to: t), cored.distance(from: s, to: t))
            plainSettled += plain.lastSettledCount
            coreSettled += cored.lastSettledCount
        }
        XCTAssertLessThan(coreSettled * 2, plainSettled, "settled: \(coreSettled) with the core, \(plainSettled) without")
    }

    /// Each kind of wrong entry is found: a non-zero diagonal and an entry above a core arc's
    /// weight by the quick check; an entry too short or too long by the complete one.
    func testProblemsFindWrongTables() {
        let road = TestGraphs.edgeBasedRoadGraph(targetNodes: 1500, seed: 19)
        let built = ContractionHierarchyBuilder.build(nodeCount: road.nodeCount, arcs: road.arcs, options: ExactnessChecker.roundsOptions)
        let storage = CHGraphStorage(built)
        let g = storage.view
        let size = 64
        let good = CHCoreTable.build(g, size: size, threads: 2)
        XCTAssertEqual(good.count, size * size)
        XCTAssertEqual(CHCoreTable.build(g, size: size, threads: 1), good, "the same table on any thread count")
        func problem(_ table: [UInt32], complete: Bool) -> String? {
            table.withUnsafeBufferPointer { CHCoreTable(nodeCount: g.nodeCount, distances: $0)!.problem(in: g, complete: complete) }
        }
        XCTAssertNil(problem(good, complete: true))
        var diagonal = good
        diagonal[3 * size + 3] = 1
        XCTAssertEqual(problem(diagonal, complete: false), "core distance from rank \(g.nodeCount - size + 3) to itself is 1")
        // An entry of a core arc raised above the arc's weight (the first arc used upwards).
        let first = g.nodeCount - size
        var upward: (from: Int, to: Int, weight: UInt32)?
        CHCoreTable.forEachArc(in: g, first: first) { from, to, weight, _ in
            if upward == nil && from < to { upward = (from, to, weight) }
        }
        var aboveArc = good
        aboveArc[upward!.from * size + upward!.to] = upward!.weight + 1
        XCTAssertTrue(problem(aboveArc, complete: false)?.contains("exceeds their arc's weight") ?? false)
        // A finite entry made one shorter: no path has that length.
        let finite = (0..<good.count).first { good[$0] != CHCoreTable.unreachable && $0 % (size + 1) != 0 && good[$0] > 1 }!
        var short = good
        short[finite] -= 1
        XCTAssertNil(problem(short, complete: false), "the quick check does not see it")
        XCTAssertTrue(problem(short, complete: true)?.contains("is shorter than any path") ?? false)
        // A finite entry between two ranks without an arc made one longer: the arc into its
        // target from the rank before it on the shortest path shortens it.
        var arcPairs = Set<Int>()
        CHCoreTable.forEachArc(in: g, first: first) { from, to, _, _ in
            arcPairs.insert(from * size + to)
            arcPairs.insert(to * size + from)
        }
        let farther = (0..<good.count).first { good[$0] != CHCoreTable.unreachable && $0 % (size + 1) != 0 && !arcPairs.contains($0) }!
        var long = good
        long[farther] += 1
        XCTAssertNil(problem(long, complete: false), "the quick check does not see it")
        XCTAssertTrue(problem(long, complete: true)?.contains("is longer than a path through") ?? false)
        // Lengths that are not a square, or a core larger than the hierarchy, are no table.
        XCTAssertFalse(CHCoreTable.isValidLength(size * size + 1, nodeCount: g.nodeCount))
        XCTAssertFalse(CHCoreTable.isValidLength((g.nodeCount + 1) * (g.nodeCount + 1), nodeCount: g.nodeCount))
        XCTAssertTrue(CHCoreTable.isValidLength(0, nodeCount: g.nodeCount))
    }
}
