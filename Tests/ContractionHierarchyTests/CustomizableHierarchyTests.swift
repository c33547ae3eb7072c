import ContractionHierarchy
import CustomizableHierarchy
import TestSupport
import XCTest

/// The customizable hierarchy against plain Dijkstra: the same distances for every metric,
/// including metrics with removed arcs (exclusions, closures), and paths made of real arcs.
final class CustomizableHierarchyTests: XCTestCase {
    fileprivate struct Network {
        let nodeCount: Int
        let arcs: ArcList
        let topology: CCHTopology
    }

    fileprivate func network(seed: UInt64, width: Int = 24, height: Int = 20) -> Network {
        var rng = SplitMix64(seed: seed)
        let road = TestGraphs.roadNetwork(width: width, height: height, rng: &rng)
        let order = NestedDissectionOrder(adjacency: undirected(road.nodeCount, road.arcs),
                                          x: road.x.map { Float($0) }, y: road.y.map { Float($0) })
        let topology = CCHTopology(nodeCount: road.nodeCount, tails: road.arcs.tails, heads: road.arcs.heads, order: order)
        return Network(nodeCount: road.nodeCount, arcs: road.arcs, topology: topology)
    }

    private func undirected(_ n: Int, _ arcs: ArcList) -> CSRGraph {
        var both = ArcList()
        for i in 0..<arcs.count {
            both.append(tail: arcs.tails[i], head: arcs.heads[i], weight: 0)
            both.append(tail: arcs.heads[i], head: arcs.tails[i], weight: 0)
        }
        return CSRGraph(nodeCount: n, arcs: both)
    }

    func testOrderIsAPermutationAndDeterministic() {
        let a = network(seed: 3), b = network(seed: 3)
        XCTAssertEqual(a.topology.order, b.topology.order)
        XCTAssertEqual(Set(a.topology.order).count, a.nodeCount)
        for r in 0..<a.nodeCount { XCTAssertEqual(a.topology.rank[Int(a.topology.order[r])], UInt32(r)) }
    }

    func testTopologyIsChordalAndSmall() {
        let net = network(seed: 5)
        XCTAssertNil(net.topology.invariantViolation())
        // A nested-dissection order keeps the fill-in small on a road network: a few arcs per node.
        XCTAssertLessThan(Double(net.topology.arcCount) / Double(net.nodeCount), 6.0,
                          "\(net.topology.arcCount) arcs for \(net.nodeCount) nodes")
    }

    func testDistancesAndPathsMatchDijkstraUnderRandomExclusions() throws {
        for seed: UInt64 in [1, 2, 7] {
            let net = network(seed: seed)
            var rng = SplitMix64(seed: seed &* 31)
            for round in 0..<4 {
                // Round 0: the plain metric; then 5 %, 20 %, 50 % of the arcs removed.
                let share = [0.0, 0.05, 0.2, 0.5][round]
                var weights = net.arcs.weights
                var kept = ArcList()
                for i in 0..<weights.count {
                    if rng.chance(share) {
                        weights[i] = CCHMetric.infinity
                    } else {
                        kept.append(tail: net.arcs.tails[i], head: net.arcs.heads[i], weight: weights[i])
                    }
                }
                let metric = weights.withUnsafeBufferPointer { net.topology.customize(weights: $0) }
                let cch = CCHQuery(topology: net.topology, metric: metric)
                let plain = CSRGraph(nodeCount: net.nodeCount, arcs: kept)
                let dijkstra = DijkstraQuery(plain)
                var reachable = 0
                for _ in 0..<300 {
                    let s = UInt32(rng.below(net.nodeCount)), t = UInt32(rng.below(net.nodeCount))
                    let expected = dijkstra.distance(from: s, to: t)
                    let got = cch.distance(from: s, to: t)
                    XCTAssertEqual(got.map { UInt64($0) }, expected, "seed \(seed) round \(round): \(s) -> \(t)")
                    guard let expected, let path = cch.path(from: s, to: t) else { continue }
                    reachable += 1
                    XCTAssertEqual(UInt64(path.distance), expected)
                    XCTAssertEqual(path.nodes.first, s)
                    XCTAssertEqual(path.nodes.last, t)
                    var sum: UInt64 = 0
                    for k in 1..<path.nodes.count {
                        let u = Int(path.nodes[k - 1]), v = path.nodes[k]
                        let arc = (Int(plain.firstOut[u])..<Int(plain.firstOut[u + 1])).filter { plain.head[$0] == v }
                            .map { plain.weight[$0] }.min()
                        guard let arc else { XCTFail("seed \(seed) round \(round): path uses a removed or absent arc \(u) -> \(v)"); break }
                        sum += UInt64(arc)
                    }
                    XCTAssertEqual(sum, expected, "path length")
                }
                if round == 0 { XCTAssertGreaterThan(reachable, 200) }
            }
        }
    }

    func testEverythingRemovedLeavesOnlyTheSource() {
        let net = network(seed: 9, width: 8, height: 8)
        let weights = [UInt32](repeating: CCHMetric.infinity, count: net.arcs.count)
        let metric = weights.withUnsafeBufferPointer { net.topology.customize(weights: $0) }
        let cch = CCHQuery(topology: net.topology, metric: metric)
        XCTAssertEqual(cch.distance(from: 3, to: 3), 0)
        XCTAssertNil(cch.distance(from: 3, to: 4))
    }
}

extension CustomizableHierarchyTests {
    /// A path query with no answer leaves nothing behind for the next query.
    func testUnreachablePathLeavesTheQueryClean() {
        let net = network(seed: 4, width: 10, height: 10)
        var weights = net.arcs.weights
        // Cut node 0 off: every arc into it removed.
        for i in weights.indices where net.arcs.heads[i] == 0 { weights[i] = CCHMetric.infinity }
        let metric = weights.withUnsafeBufferPointer { net.topology.customize(weights: $0) }
        let cch = CCHQuery(topology: net.topology, metric: metric)
        let reachable = cch.distance(from: 5, to: 50)
        XCTAssertNil(cch.path(from: 5, to: 0))
        XCTAssertEqual(cch.distance(from: 5, to: 50), reachable)
        XCTAssertEqual(cch.path(from: 5, to: 50)?.distance, reachable)
    }
}
