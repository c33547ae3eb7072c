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

    /// The default core grows with the hierarchy (38.4 bytes of table per rank) up to 8,192 ranks.
    func testDefaultCoreSizeFollowsTheHierarchy() {
        XCTAssertEqual(CHCoreTable.defaultSize(nodeCount: 0), 0)
        XCTAssertEqual(CHCoreTable.defaultSize(nodeCount: 320), 0)
        XCTAssertEqual(CHCoreTable.defaultSize(nodeCount: 321), 64)
        XCTAssertEqual(CHCoreTable.defaultSize(nodeCount: 464_448), 2432)     // ~1 M OSM nodes
        XCTAssertEqual(CHCoreTable.defaultSize(nodeCount: 2_322_240), 5440)   // ~5 M
        XCTAssertEqual(CHCoreTable.defaultSize(nodeCount: 1 << 29), 8192)
        for n in stride(from: 0, to: 3_000_000, by: 9_973) {
            let k = CHCoreTable.defaultSize(nodeCount: n)
            XCTAssertEqual(k % 64, 0)
            XCTAssertLessThanOrEqual(Double(CHCoreTable.entryBytes * k * k), 38.4 * Double(n))
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

    /// The core's incoming arcs, built with counting sorts, are each core arc usable in a
    /// direction exactly once, ordered by (head, tail, arc) as a comparison sort orders them.
    func testCoreInArcsAreOrderedByHeadTailAndArc() {
        let road = TestGraphs.edgeBasedRoadGraph(targetNodes: 4000, seed: 19)
        let built = ContractionHierarchyBuilder.build(nodeCount: road.nodeCount, arcs: road.arcs, options: ExactnessChecker.roundsOptions)
        for coreSize in [1, 64, 300] {
            let storage = CHGraphStorage(built, coreSize: coreSize)
            guard let core = storage.view.core else { return XCTFail("no core table of \(coreSize) ranks") }
            var expected: [(head: Int, tail: UInt32, arc: UInt32)] = []
            CHCoreTable.forEachArc(in: storage.view, first: core.first) { from, to, _, arc in
                expected.append((to, UInt32(core.first + from), UInt32(arc)))
            }
            expected.sort { ($0.head, $0.tail, $0.arc) < ($1.head, $1.tail, $1.arc) }
            if coreSize > 1 { XCTAssertGreaterThan(expected.count, 0, "core of \(coreSize)") }
            let inArcs = CoreInArcs(graph: storage.view, core: core)
            XCTAssertEqual(inArcs.tails, expected.map(\.tail), "core of \(coreSize)")
            XCTAssertEqual(inArcs.arcs, expected.map(\.arc), "core of \(coreSize)")
            XCTAssertEqual(inArcs.first.count, core.size + 1)
            for h in 0..<core.size {
                let run = expected.indices.filter { expected[$0].head == h }
                XCTAssertEqual(Int(inArcs.first[h]), run.first ?? Int(inArcs.first[h + 1]), "core of \(coreSize), head \(h)")
                XCTAssertEqual(Int(inArcs.first[h + 1]) - Int(inArcs.first[h]), run.count, "core of \(coreSize), head \(h)")
            }
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
        let bytes = CHCoreTable.build(g, size: size, threads: 2)
        XCTAssertEqual(bytes.count, size * size * CHCoreTable.entryBytes)
        XCTAssertEqual(CHCoreTable.build(g, size: size, threads: 1), bytes, "the same table on any thread count")
        let good = Self.entries(bytes)
        func problem(_ table: [UInt32], complete: Bool) -> String? {
            Self.withTable(table, nodeCount: g.nodeCount) { $0.problem(in: g, complete: complete) }
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

    /// Entries are three little-endian bytes; the largest distance that fits is 0xFF_FFFE, and a
    /// core with a longer one gets no table (queries then search the whole hierarchy, exactly).
    func testEntriesHoldThreeBytesAndLongerCoresGetNoTable() {
        Self.withTable([0, 0xFF_FFFE, CHCoreTable.unreachable, 0], nodeCount: 5) { table in
            XCTAssertEqual(table.first, 3)
            XCTAssertEqual(table.distance(0, 1), 0xFF_FFFE)
            XCTAssertEqual(table.distance(1, 0), CHCoreTable.unreachable)
            XCTAssertEqual(table.distance(1, 1), 0)
        }
        XCTAssertNil(CHCoreTable(nodeCount: 5, entries: UnsafeRawBufferPointer(start: nil, count: 0)))
        // A cycle 0 → 1 → 2 → 0: its longest distance, 2 → 1, is the first arc's weight + 1.
        for (weight, fits) in [(UInt32(0xFF_FFFD), true), (0xFF_FFFE, false), ((1 << 30) - 2, false)] {
            var arcs = ArcList()
            arcs.append(tail: 0, head: 1, weight: weight)
            arcs.append(tail: 1, head: 2, weight: 1)
            arcs.append(tail: 2, head: 0, weight: 1)
            let built = ContractionHierarchyBuilder.build(nodeCount: 3, arcs: arcs, options: ExactnessChecker.roundsOptions)
            let storage = CHGraphStorage(built, coreSize: 3)
            XCTAssertEqual(storage.view.core?.size, fits ? 3 : nil, "arc of \(weight)")
            let query = CHQuery(storage: storage)
            XCTAssertEqual(query.distance(from: 2, to: 1), UInt64(weight) + 1)
            XCTAssertEqual(query.distance(from: 1, to: 0), 2)
        }
    }

    /// Three-byte entries of `table` (`CHCoreTable.unreachable` for none), as a file holds them.
    static func withTable<R>(_ table: [UInt32], nodeCount: Int, _ body: (CHCoreTable) -> R) -> R {
        // One byte before the entries, as CHCoreTable reads four bytes ending with each entry.
        var bytes: [UInt8] = [0]
        for d in table { for k in 0..<CHCoreTable.entryBytes { bytes.append(UInt8(truncatingIfNeeded: d >> (8 * k))) } }
        return bytes.withUnsafeBytes { body(CHCoreTable(nodeCount: nodeCount, entries: UnsafeRawBufferPointer(rebasing: $0[1...]))!) }
    }

    static func entries(_ bytes: [UInt8]) -> [UInt32] {
        stride(from: 0, to: bytes.count, by: CHCoreTable.entryBytes).map { at in
            (0..<CHCoreTable.entryBytes).reduce(UInt32(0)) { $0 | UInt32(bytes[at + $1]) << (8 * $1) }
        }
    }
}
