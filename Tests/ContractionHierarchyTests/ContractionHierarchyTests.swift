import XCTest
import ContractionHierarchy
import TestSupport

final class ContractionHierarchyTests: XCTestCase {
    func testTinyGraphsAllPairs() {
        // Every graph on 1–5 nodes drawn at random, many times, checked on all pairs.
        var rng = SplitMix64(seed: 1)
        for round in 0..<400 {
            let n = 1 + round % 5
            let arcs = TestGraphs.randomSparse(nodeCount: n, arcsPerNode: Double(rng.below(4)),
                                               maxWeight: round % 3 == 0 ? ArcList.weightLimit - 1 : 20, rng: &rng)
            let checker = ExactnessChecker(nodeCount: n, arcs: arcs, options: .init(threads: 1 + round % 2, sequentialTail: round % 3))
            for s in 0..<UInt32(n) {
                for t in 0..<UInt32(n) {
                    XCTAssertEqual(checker.query.distance(from: checker.rank(s), to: checker.rank(t)),
                                   checker.oracle.distance(from: s, to: t), "graph \(round) \(s)→\(t)")
                }
            }
            checker.checkAll(seed: UInt64(round), pairs: 20)
        }
    }

    func testEmptyAndIsolatedGraphs() {
        let empty = ContractionHierarchyBuilder.build(nodeCount: 0, arcs: ArcList())
        XCTAssertEqual(empty.firstOut, [0])
        XCTAssertEqual(empty.arcCount, 0)
        let isolated = ContractionHierarchyBuilder.build(nodeCount: 3, arcs: ArcList())
        XCTAssertEqual(isolated.firstOut, [0, 0, 0, 0])
        let query = CHQuery(isolated)
        XCTAssertEqual(query.distance(from: 1, to: 1), 0)
        XCTAssertNil(query.distance(from: 0, to: 2))
        XCTAssertEqual(query.path(from: 2, to: 2)?.nodes, [2])
        XCTAssertEqual(query.table(sources: [[(0, 3)], []], targets: [[(0, 4)], [(1, 0)]]), [[7, nil], [nil, nil]])
    }

    func testSimultaneousContractionsNeverWitnessEachOther() {
        // u → v1 → w and a → v2 → b (weight 1 each), with zero-weight arcs u ↔ a and w ↔ b.
        // v1 and v2 are three hops apart and cheapest, so one round contracts both. Each is a
        // witness for the other's shortcut (u → a → v2 → b → w costs 2, as u → v1 → w does), so
        // unless a round's searches avoid all of its nodes, u → w vanishes.
        var arcs = ArcList()
        let copies: UInt32 = 20
        for c in 0..<copies {
            let (u, v1, w, a, v2, b) = (6 * c, 6 * c + 1, 6 * c + 2, 6 * c + 3, 6 * c + 4, 6 * c + 5)
            for (t, h, weight) in [(u, v1, 1), (v1, w, 1), (a, v2, 1), (v2, b, 1), (u, a, 0), (a, u, 0), (w, b, 0), (b, w, 0)] {
                arcs.append(tail: t, head: h, weight: UInt32(weight))
            }
        }
        for options in [ContractionOptions(threads: 1, sequentialTail: 0), .init(threads: 2, lazyReevaluation: false, sequentialTail: 0)] {
            let checker = ExactnessChecker(nodeCount: Int(6 * copies), arcs: arcs, options: options)
            for s in 0..<UInt32(6 * copies) {
                for t in 0..<UInt32(6 * copies) {
                    XCTAssertEqual(checker.query.distance(from: checker.rank(s), to: checker.rank(t)),
                                   checker.oracle.distance(from: s, to: t), "\(s)→\(t)")
                }
            }
        }
    }

    func testRandomSparseGraphs() {
        var rng = SplitMix64(seed: 2)
        for (i, n) in [10, 50, 200, 600].enumerated() {
            for density in [0.8, 1.5, 3.0] {
                let arcs = TestGraphs.randomSparse(nodeCount: n, arcsPerNode: density, maxWeight: 1000, rng: &rng)
                ExactnessChecker(nodeCount: n, arcs: arcs).checkAll(seed: UInt64(100 + i), pairs: 1500)
            }
        }
    }

    func testEdgeBasedRoadGraphs() {
        for seed: UInt64 in 1...3 {
            let g = TestGraphs.edgeBasedRoadGraph(targetNodes: 2000 * Int(seed), seed: seed)
            ExactnessChecker(nodeCount: g.nodeCount, arcs: g.arcs).checkAll(seed: seed, pairs: 2000)
        }
        // A grid city: dense, no natural separators, many near-equal routes.
        let grid = TestGraphs.edgeBasedGridGraph(targetNodes: 3000, seed: 4)
        ExactnessChecker(nodeCount: grid.nodeCount, arcs: grid.arcs).checkAll(seed: 4, pairs: 2000)
    }

    func testNodeBasedRoadGraphAndDisconnectedParts() {
        var rng = SplitMix64(seed: 3)
        let road = TestGraphs.roadNetwork(width: 25, height: 20, rng: &rng, onewayShare: 0.3)
        let grid = TestGraphs.uniformGrid(width: 15, height: 15, rng: &rng)
        let sparse = TestGraphs.randomSparse(nodeCount: 300, arcsPerNode: 1.2, maxWeight: 50, rng: &rng)
        let union = TestGraphs.disjointUnion([(road.nodeCount, road.arcs), (225, grid), (300, sparse), (7, ArcList())])
        ExactnessChecker(nodeCount: union.nodeCount, arcs: union.arcs).checkAll(seed: 4, pairs: 3000)
    }

    func testUniformGridTies() {
        var rng = SplitMix64(seed: 5)
        let grid = TestGraphs.uniformGrid(width: 30, height: 30, rng: &rng)
        ExactnessChecker(nodeCount: 900, arcs: grid).checkAll(seed: 6, pairs: 2000)
    }

    func testExactUnderExtremeOptions() {
        // Tiny settle limits (many redundant shortcuts), no lazy updates, all-rounds and
        // all-sequential schedules: the order and shortcut set change, the distances must not.
        let g = TestGraphs.edgeBasedRoadGraph(targetNodes: 1500, seed: 9)
        var rng = SplitMix64(seed: 10)
        let sparse = TestGraphs.randomSparse(nodeCount: 400, arcsPerNode: 2, maxWeight: 100, rng: &rng)
        let variants: [ContractionOptions] = [
            .init(threads: 2, witnessSettleLimit: 1, simulationSettleLimit: 1, sequentialTail: 16),
            .init(threads: 2, lazyReevaluation: false, sequentialTail: 16),
            .init(threads: 2, lazyNeighbourUpdates: true, sequentialTail: 16),
            .init(threads: 2, sequentialTail: 0),
            .init(threads: 1, sequentialTail: Int.max),
            .init(threads: 2, witnessSettleLimit: 3, simulationSettleLimit: 2, lazyReevaluation: false, sequentialTail: 10),
        ]
        for options in variants {
            ExactnessChecker(nodeCount: g.nodeCount, arcs: g.arcs, options: options).checkAll(seed: 11, pairs: 500)
            ExactnessChecker(nodeCount: 400, arcs: sparse, options: options).checkAll(seed: 12, pairs: 500)
        }
    }

    func testDeterministicAcrossThreadCounts() {
        let road = TestGraphs.edgeBasedRoadGraph(targetNodes: 6000, seed: 21)
        let grid = TestGraphs.edgeBasedGridGraph(targetNodes: 2000, seed: 23)
        var rng = SplitMix64(seed: 22)
        let sparse = TestGraphs.randomSparse(nodeCount: 1500, arcsPerNode: 2.5, maxWeight: 100, rng: &rng)
        for (n, arcs) in [(road.nodeCount, road.arcs), (grid.nodeCount, grid.arcs), (1500, sparse)] {
            let one = ContractionHierarchyBuilder.build(nodeCount: n, arcs: arcs, options: .init(threads: 1, sequentialTail: 100))
            for threads in [2, 4] {
                let other = ContractionHierarchyBuilder.build(nodeCount: n, arcs: arcs, options: .init(threads: threads, sequentialTail: 100))
                XCTAssertTrue(one == other, "\(threads) threads differ from 1")
            }
            // All in the sequential tail, whose witness searches for one node are split over the
            // workers by in-neighbour: the parts' shortcuts must come back in the same order.
            let sequential = ContractionHierarchyBuilder.build(nodeCount: n, arcs: arcs, options: .init(threads: 1, sequentialTail: Int.max))
            for threads in [2, 3] {
                XCTAssertTrue(sequential == ContractionHierarchyBuilder.build(nodeCount: n, arcs: arcs, options: .init(threads: threads, sequentialTail: Int.max)),
                              "sequential tail on \(threads) threads differs from 1")
            }
            // The arc order of the input does not matter either.
            var shuffled = ArcList()
            for i in (0..<arcs.count).reversed() { shuffled.append(tail: arcs.tails[i], head: arcs.heads[i], weight: arcs.weights[i]) }
            XCTAssertTrue(one == ContractionHierarchyBuilder.build(nodeCount: n, arcs: shuffled, options: .init(threads: 2, sequentialTail: 100)))
        }
    }

    func testOutputIsSortedAndFree_OfDominatedArcs() {
        let g = TestGraphs.edgeBasedRoadGraph(targetNodes: 3000, seed: 31)
        let ch = ContractionHierarchyBuilder.build(nodeCount: g.nodeCount, arcs: g.arcs)
        var shortcuts = 0
        for r in 0..<ch.nodeCount {
            let range = Int(ch.firstOut[r])..<Int(ch.firstOut[r + 1])
            var seen: [UInt64: UInt32] = [:]  // (head, bit) → weight
            for a in range {
                if a > range.lowerBound {
                    XCTAssertLessThanOrEqual(ch.head[a - 1], ch.head[a])
                    if ch.head[a - 1] == ch.head[a] { XCTAssertLessThanOrEqual(ch.weight[a - 1], ch.weight[a]) }
                }
                for bit in [CHDirection.forward, CHDirection.backward] where ch.direction[a] & bit != 0 {
                    let key = UInt64(ch.head[a]) << 8 | UInt64(bit)
                    XCTAssertNil(seen[key], "two arcs to the same head in the same direction")
                    seen[key] = ch.weight[a]
                }
                if ch.middle[a] != UInt32.max { shortcuts += 1 }
            }
        }
        XCTAssertEqual(shortcuts, ch.shortcutCount)
        XCTAssertEqual(ch.firstOut.count, ch.nodeCount + 1)
    }

    func testCSRGraphOrderAndDijkstraBasics() {
        let arcs = ArcList(tails: [2, 0, 0, 0, 1, 1], heads: [0, 2, 1, 1, 1, 2], weights: [1, 9, 5, 3, 0, 2])
        let csr = CSRGraph(nodeCount: 3, arcs: arcs)
        XCTAssertEqual(csr.firstOut, [0, 3, 5, 6])
        XCTAssertEqual(csr.head, [1, 1, 2, 1, 2, 0])
        XCTAssertEqual(csr.weight, [3, 5, 9, 0, 2, 1])
        let dijkstra = DijkstraQuery(csr)
        XCTAssertEqual(dijkstra.distance(from: 0, to: 2), 5)
        XCTAssertEqual(dijkstra.path(from: 0, to: 2)?.nodes, [0, 1, 2])
        XCTAssertEqual(dijkstra.distance(sources: [(0, 10), (1, 0)], targets: [(0, 1)]), 4)
        XCTAssertEqual(csr.reversed().reversed(), csr)
    }
}
