import ContractionHierarchy
import CustomizableHierarchy
import RouteQuery
import TestSupport
import XCTest

/// The customizable hierarchy on the sample's real turn graph: the default metric gives the
/// contraction hierarchy's distances, a metric without motorways (or ferries, or a random tenth of
/// the roads) gives Dijkstra's on the turn graph without them.
final class CustomizableTurnGraphTests: XCTestCase {
    func testSampleDistancesMatchTheHierarchyAndDijkstraWithRoadsRemoved() throws {
        let data = try RoutingData(path: try SampleGraphFixture.graphPath())
        let turns = CustomizableTurnGraph(data: data)
        XCTAssertNil(turns.topology.invariantViolation())
        XCTAssertEqual(turns.topology.nodeCount, data.rankCount)
        var rng = SplitMix64(seed: 11)
        let n = data.rankCount
        let query = CCHQuery(topology: turns.topology, metric: turns.customize(turns.weights))
        let ch = CHQuery(graph: data.ch)
        for _ in 0..<1000 {
            let s = UInt32(rng.below(n)), t = UInt32(rng.below(n))
            XCTAssertEqual(query.distance(from: s, to: t).map { UInt64($0) }, ch.distance(from: s, to: t), "\(s) -> \(t)")
        }
        let edges = data.edges
        let removals: [(String, (Int) -> Bool)] = [
            ("primary roads", { edges[$0 >> 1].roadClass == 4 }),
            ("secondary and tertiary roads", { (6...9).contains(edges[$0 >> 1].roadClass) }),
            ("a tenth of the roads", { ($0 >> 1) % 10 == 3 }),
        ]
        for (label, removed) in removals {
            let weights = turns.weights(removing: removed)
            XCTAssertTrue(weights.contains(CCHMetric.infinity), "\(label): nothing removed")
            query.use(turns.customize(weights))
            var kept = ArcList()
            for i in weights.indices where weights[i] < CCHMetric.infinity {
                kept.append(tail: turns.topology.inputTail[i], head: turns.topology.inputHead[i], weight: weights[i])
            }
            let dijkstra = DijkstraQuery(CSRGraph(nodeCount: n, arcs: kept))
            var differing = 0
            for _ in 0..<300 {
                let s = UInt32(rng.below(n)), t = UInt32(rng.below(n))
                let expected = dijkstra.distance(from: s, to: t)
                XCTAssertEqual(query.distance(from: s, to: t).map { UInt64($0) }, expected, "\(label): \(s) -> \(t)")
                if expected != ch.distance(from: s, to: t) { differing += 1 }
                if let path = query.path(from: s, to: t) {
                    XCTAssertEqual(UInt64(path.distance), expected)
                    for k in 1..<path.nodes.count {
                        XCTAssertFalse(removed(Int(data.rankEdgeDirection[Int(path.nodes[k])])), "\(label): the path enters a removed road")
                    }
                }
            }
            // The removal changes answers (the test would pass vacuously otherwise).
            XCTAssertGreaterThan(differing, 0, label)
        }
    }
}
