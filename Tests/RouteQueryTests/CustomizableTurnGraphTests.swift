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

extension CustomizableTurnGraphTests {
    /// Several sources and targets with offsets (a snapped point's two directions): the same
    /// answer as Dijkstra's, with the same semantics as the hierarchy's.
    func testEndpointSetsMatchDijkstra() throws {
        let data = try RoutingData(path: try SampleGraphFixture.graphPath())
        let turns = CustomizableTurnGraph(data: data)
        let weights = turns.weights { data.edges[$0 >> 1].roadClass == 4 }
        let query = CCHQuery(topology: turns.topology, metric: turns.customize(weights))
        var kept = ArcList()
        for i in weights.indices where weights[i] < CCHMetric.infinity {
            kept.append(tail: turns.topology.inputTail[i], head: turns.topology.inputHead[i], weight: weights[i])
        }
        let dijkstra = DijkstraQuery(CSRGraph(nodeCount: data.rankCount, arcs: kept))
        var rng = SplitMix64(seed: 5)
        func endpoints() -> [CHEndpoint] {
            (0..<(1 + rng.below(3))).map { _ in (UInt32(rng.below(data.rankCount)), UInt32(rng.below(600))) }
        }
        for _ in 0..<500 {
            let s = endpoints(), t = endpoints()
            let expected = dijkstra.distance(sources: s, targets: t)
            XCTAssertEqual(query.distance(sources: s, targets: t), expected)
            let path = query.path(sources: s, targets: t)
            XCTAssertEqual(path?.distance, expected)
            if let path {
                XCTAssertTrue(s.contains { $0.node == path.nodes.first }, "starts at a source")
                XCTAssertTrue(t.contains { $0.node == path.nodes.last }, "ends at a target")
            }
        }
    }

    /// A route service on a customized metric: with nothing removed the same durations as the
    /// hierarchy's; with the secondary and tertiary roads removed, routes that never enter one
    /// after leaving the start, never faster than before.
    func testRouteServiceOnACustomizedMetric() throws {
        let data = try RoutingData(path: try SampleGraphFixture.graphPath())
        let turns = CustomizableTurnGraph(data: data)
        let plain = try RouteService(data: data)
        let same = try RouteService(data: data, avoiding: AvoidanceMetric(turns: turns, closed: ClosedEdges(edgeCount: data.edgeCount) { _ in false }))
        let isRemoved = { (ed: Int) in (6...9).contains(data.edges[ed >> 1].roadClass) }
        let avoiding = try RouteService(data: data, avoiding: AvoidanceMetric(turns: turns, closed: ClosedEdges(edgeCount: data.edgeCount) {
            (6...9).contains(data.edges[$0].roadClass)
        }))
        var rng = SplitMix64(seed: 8)
        var longer = 0, compared = 0
        for _ in 0..<300 {
            let a = (lon: 9.50 + 0.08 * rng.double(0, 1), lat: 47.08 + 0.14 * rng.double(0, 1))
            let b = (lon: 9.50 + 0.08 * rng.double(0, 1), lat: 47.08 + 0.14 * rng.double(0, 1))
            let request = RouteRequest(coordinates: [a, b])
            guard let reference = try? plain.routes(request).routes.first else { continue }
            let again = try same.routes(request).routes.first
            XCTAssertEqual(again?.duration, reference.duration)
            XCTAssertEqual(again?.distance, reference.distance)
            // Waypoints on a removed road are not for this metric (snapping will avoid them).
            guard let phantoms = try? plain.phantoms(request),
                  !phantoms.contains(where: { isRemoved(2 * $0.edge) }) else { continue }
            // Without them some places cannot be reached (Dijkstra agrees: CustomizableTurnGraphTests).
            guard let legs = try? avoiding.legs(phantoms, algorithm: .ch) else { continue }
            compared += 1
            let duration = legs.reduce(0.0) { $0 + Double($1.weight) / 10 }
            XCTAssertGreaterThanOrEqual(duration + 0.05, reference.duration)
            if duration > reference.duration + 0.05 { longer += 1 }
            for leg in legs {
                // After the first road (a start on a primary road may leave along it), none is entered.
                var left = !isRemoved(Int(data.rankEdgeDirection[Int(leg.ranks[0])]))
                for r in leg.ranks.dropFirst() {
                    let primary = isRemoved(Int(data.rankEdgeDirection[Int(r)]))
                    if left { XCTAssertFalse(primary, "a route without secondary/tertiary roads enters one") }
                    if !primary { left = true }
                }
            }
        }
        XCTAssertGreaterThan(compared, 50)
        XCTAssertGreaterThan(longer, 10, "removing the secondary and tertiary roads changes routes")
    }
}
