import XCTest
@testable import ContractionHierarchy
import TestSupport

/// Hierarchies whose core is left uncontracted (`ContractionOptions.uncontractedCore`): the core's
/// arcs are the graph that remained, not an up-down hierarchy, so every query (distances, paths,
/// spans, tables) must stay below the core and finish with the table, and still equal Dijkstra.
final class UncontractedCoreTests: XCTestCase {
    func testQueriesEqualDijkstraOnRoadGraphs() {
        let road = TestGraphs.edgeBasedRoadGraph(targetNodes: 3000, seed: 31)
        for core in [1, 40, 300, road.nodeCount / 2, road.nodeCount] {
            ExactnessChecker(nodeCount: road.nodeCount, arcs: road.arcs, coreSize: core, uncontracted: true)
                .checkAll(seed: UInt64(core), pairs: 1500)
        }
        let grid = TestGraphs.edgeBasedGridGraph(targetNodes: 3000, seed: 32)
        ExactnessChecker(nodeCount: grid.nodeCount, arcs: grid.arcs, coreSize: 200, uncontracted: true).checkAll(seed: 33, pairs: 2000)
    }

    func testQueriesEqualDijkstraOnSparseTiedDisconnectedAndZeroWeightGraphs() {
        var rng = SplitMix64(seed: 34)
        for n in [2, 30, 400] {
            let arcs = TestGraphs.randomSparse(nodeCount: n, arcsPerNode: 1.5, maxWeight: 1000, rng: &rng)
            ExactnessChecker(nodeCount: n, arcs: arcs, coreSize: max(1, n / 5), uncontracted: true).checkAll(seed: UInt64(n), pairs: 1000)
        }
        let road = TestGraphs.roadNetwork(width: 20, height: 15, rng: &rng, onewayShare: 0.3)
        let sparse = TestGraphs.randomSparse(nodeCount: 200, arcsPerNode: 1.2, maxWeight: 50, rng: &rng)
        let union = TestGraphs.disjointUnion([(road.nodeCount, road.arcs), (200, sparse), (5, ArcList())])
        ExactnessChecker(nodeCount: union.nodeCount, arcs: union.arcs, coreSize: 100, uncontracted: true).checkAll(seed: 35, pairs: 2000)
        for core in [20, 80, 300] {
            ExactnessChecker(nodeCount: 300, arcs: Self.zeroWeightGraph(seed: 36), coreSize: core, uncontracted: true)
                .checkAll(seed: UInt64(core), pairs: 1500)
        }
    }

    /// The top ranks are exactly the uncontracted nodes, also after renumbering for locality: no
    /// arc between two of them bypasses another core rank, and the table covers them.
    func testTheCoreKeepsTheTopRanksAndHasNoShortcutsOfItsOwn() {
        let road = TestGraphs.edgeBasedRoadGraph(targetNodes: 3000, seed: 37)
        var options = ExactnessChecker.roundsOptions
        let contracted = ContractionHierarchyBuilder.build(nodeCount: road.nodeCount, arcs: road.arcs, options: options)
        options.uncontractedCore = 150
        let built = ContractionHierarchyBuilder.build(nodeCount: road.nodeCount, arcs: road.arcs, options: options)
        XCTAssertEqual(built.uncontractedCore, 150)
        XCTAssertLessThan(built.shortcutCount, contracted.shortcutCount)
        var rng = SplitMix64(seed: 38)
        let keys = (0..<road.nodeCount).map { _ in rng.next() }
        let renumbered = built.renumberedForLocality(spatialKey: keys)
        XCTAssertEqual(renumbered.uncontractedCore, 150)
        // The core by place alone (its arcs moved to their new lower ends, which `validate` checks).
        let coreKeys = renumbered.nodeOfRank[(road.nodeCount - 150)...].map { keys[Int($0)] }
        XCTAssertTrue(zip(coreKeys, coreKeys.dropFirst()).allSatisfy { $0 <= $1 }, "the core is ordered by place")
        for graph in [built, renumbered] {
            let first = graph.nodeCount - 150
            XCTAssertEqual(Set(graph.nodeOfRank[first...]), Set(built.nodeOfRank[first...]), "the same nodes on top")
            for r in first..<graph.nodeCount {
                for a in Int(graph.firstOut[r])..<Int(graph.firstOut[r + 1]) where graph.middle[a] != UInt32.max {
                    XCTAssertLessThan(Int(graph.middle[a]), first, "a core arc bypasses core rank \(graph.middle[a])")
                }
            }
            let storage = CHGraphStorage(graph)
            XCTAssertNil(storage.view.validate())
            XCTAssertEqual(storage.view.core?.size, 150, "the storage makes the core's table unasked")
        }
    }

    /// Every core path, rebuilt greedily from the table or by the Dijkstra search it falls back
    /// on, runs from entry to exit along core arcs and weighs the table's distance; zero-weight
    /// cycles make the greedy walk circle back, so the fallback is what answers some pairs.
    func testCorePathsWeighTheTableDistance() {
        var options = ExactnessChecker.roundsOptions
        options.uncontractedCore = 60
        let built = ContractionHierarchyBuilder.build(nodeCount: 300, arcs: Self.zeroWeightGraph(seed: 39), options: options)
        let storage = CHGraphStorage(built)
        guard let core = storage.view.core else { return XCTFail("no core table") }
        let g = storage.view, inArcs = CoreInArcs(graph: g, core: core)
        var pairs = 0, greedyFailed = 0
        for a in 0..<core.size {
            for b in 0..<core.size where core.distance(a, b) != CHCoreTable.unreachable {
                let entry = UInt32(a + core.first), exit = UInt32(b + core.first)
                let greedy = inArcs.greedyPath(from: entry, to: exit, core: core, graph: g)
                let searched = inArcs.searchedPath(from: entry, to: exit, core: core, graph: g)
                if greedy == nil && a != b { greedyFailed += 1 }
                let chosen = inArcs.path(from: entry, to: exit, core: core, graph: g)
                for (name, hops) in [("path", chosen), ("searchedPath", searched)] {
                    guard let hops else { XCTFail("\(name) \(a) → \(b): none"); continue }
                    var at = entry, weight: UInt64 = 0
                    for hop in hops {
                        XCTAssertEqual(hop.from, at, "\(name) \(a) → \(b): hops do not join")
                        let arc = g.arcs[Int(hop.arc)], low = min(hop.from, hop.to)
                        XCTAssertTrue(Int(g.firstOut[Int(low)])..<Int(g.firstOut[Int(low) + 1]) ~= Int(hop.arc))
                        XCTAssertEqual(arc.head, max(hop.from, hop.to))
                        XCTAssertTrue(arc.allows(hop.from < hop.to ? CHDirection.forward : CHDirection.backward))
                        weight += UInt64(arc.weight)
                        at = hop.to
                    }
                    XCTAssertEqual(at, exit, "\(name) \(a) → \(b) ends elsewhere")
                    XCTAssertEqual(weight, UInt64(core.distance(a, b)), "\(name) \(a) → \(b)")
                }
                pairs += 1
            }
        }
        XCTAssertGreaterThan(pairs, 1000)
        XCTAssertGreaterThan(greedyFailed, 0, "the fallback was never needed: the test graph lost its zero-weight cycles")
        XCTAssertEqual(inArcs.path(from: UInt32(core.first), to: UInt32(core.first), core: core, graph: g)?.count, 0)
    }

    /// What route-graph builds (`buildWithCoreTable`): the core uncontracted when the table holds
    /// its distances; with weights that put them past an entry's 16.7 M, the whole hierarchy
    /// contracted and no table, and queries still exact.
    func testACoreWhoseDistancesDoNotFitTheTableIsContracted() {
        let road = TestGraphs.edgeBasedRoadGraph(targetNodes: 1500, seed: 42)
        let heavy = ArcList(tails: road.arcs.tails, heads: road.arcs.heads, weights: road.arcs.weights.map { $0 * 20_000 + 1 })
        for (arcs, fits) in [(road.arcs, true), (heavy, false)] {
            let cored = ContractionHierarchyBuilder.buildWithCoreTable(
                nodeCount: road.nodeCount, arcs: arcs, options: ExactnessChecker.roundsOptions, coreSize: 64, renumber: { $0 })
            XCTAssertEqual(cored.graph.uncontractedCore, fits ? 64 : 0)
            XCTAssertEqual(cored.table.count, fits ? 64 * 64 * CHCoreTable.entryBytes : 0)
            let query = CHQuery(storage: CHGraphStorage(cored.graph, coreSize: fits ? 64 : 0))
            let oracle = DijkstraQuery(CSRGraph(nodeCount: road.nodeCount, arcs: arcs))
            var rng = SplitMix64(seed: 43)
            var beyondAnEntry = 0
            for _ in 0..<400 {
                let s = UInt32(rng.below(road.nodeCount)), t = UInt32(rng.below(road.nodeCount))
                let d = oracle.distance(from: s, to: t)
                XCTAssertEqual(query.distance(from: cored.graph.rankOfNode[Int(s)], to: cored.graph.rankOfNode[Int(t)]), d)
                if let d, d >= UInt64(CHCoreTable.unreachable) { beyondAnEntry += 1 }
            }
            if !fits { XCTAssertGreaterThan(beyondAnEntry, 100) }
        }
    }

    /// 300 nodes, 900 random arcs, 60 % of them of zero weight.
    static func zeroWeightGraph(seed: UInt64) -> ArcList {
        var rng = SplitMix64(seed: seed)
        var arcs = ArcList()
        for _ in 0..<900 {
            let w = rng.chance(0.6) ? 0 : UInt32(1 + rng.below(3))
            arcs.append(tail: UInt32(rng.below(300)), head: UInt32(rng.below(300)), weight: w)
        }
        return arcs
    }
}
