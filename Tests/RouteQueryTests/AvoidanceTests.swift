import ContractionHierarchy
import CustomizableHierarchy
import Foundation
import RouteQuery
import RoutingGraph
import TestSupport
import TileMath
import XCTest

/// Exclusions and closures on the sample's real graph: the customized metric's answers equal plain
/// Dijkstra on the turn graph (the hierarchy's real turns and those it replaced) without the
/// removed roads, told apart by the test from the edge records alone; routes never use them.
final class AvoidanceTests: XCTestCase {
    static let turnGraph: (RoutingData, CustomizableTurnGraph) = {
        let data = try! RoutingData(path: try! SampleGraphFixture.graphPath())
        return (data, CustomizableTurnGraph(data: data))
    }()

    /// Dijkstra on every turn into a road `removed` does not name.
    func dijkstra(_ data: RoutingData, removing removed: (Int) -> Bool) -> DijkstraQuery {
        let (real, replaced) = ReplacedTurnsTests.allTurns(data)
        return DijkstraQuery(ReplacedTurnsTests.graph(real, replaced) { _, head in
            !removed(Int(data.rankEdgeDirection[Int(head)]) >> 1)
        })
    }

    func testEveryExclusionSetEqualsDijkstraWithoutThoseRoads() throws {
        let (data, turns) = Self.turnGraph
        let snapper = try Snapper(file: data.file)
        let edges = data.edges
        // The classes as the test reads them from the records (not through Avoidance).
        let predicates: [String: (EdgeRecord) -> Bool] = [
            "motorway": { $0.roadClass <= 1 },
            "ferry": { $0.roadClass == 14 || $0.roadClass == 15 },
            "toll": { $0.attributes & EdgeAttributes.toll != 0 },
            "unpaved": { $0.attributes & EdgeAttributes.unpaved != 0 },
            "tunnel": { $0.attributes & EdgeAttributes.tunnel != 0 },
        ]
        var rng = SplitMix64(seed: 51)
        let sets = ["motorway", "ferry", "toll", "unpaved", "tunnel", "motorway,toll,unpaved", "motorway,toll,ferry,unpaved,tunnel"]
        for text in sets {
            let avoidance = try Avoidance.parseExclude(text)
            let metric = AvoidanceMetric(turns: turns, avoidance: avoidance, data: data, snapper: snapper)
            let names = text.split(separator: ",").map(String.init)
            let removed = { (e: Int) in names.contains { predicates[$0]!(edges[e]) } }
            let expectedCount = (0..<data.edgeCount).filter(removed).count
            XCTAssertEqual(metric.closed.count, expectedCount, text)
            guard expectedCount > 0 || text != "unpaved" else { XCTFail("the sample has unpaved roads"); continue }
            let reference = dijkstra(data, removing: removed)
            let query = metric.query()
            for _ in 0..<300 {
                let s = UInt32(rng.below(data.rankCount)), t = UInt32(rng.below(data.rankCount))
                XCTAssertEqual(query.distance(from: s, to: t).map { UInt64($0) }, reference.distance(from: s, to: t), "\(text): \(s) -> \(t)")
            }
        }
    }

    /// Routes between random points of the sample under `--exclude unpaved,tunnel` (which the
    /// sample has) and a closure: never on a removed road after leaving the start's, durations
    /// never below the plain route's, and the same as Dijkstra's between the snapped points.
    func testRoutesNeverUseRemovedRoads() throws {
        let (data, turns) = Self.turnGraph
        let snapper = try Snapper(file: data.file)
        let plain = try RouteService(data: data)
        let avoidance = try Avoidance.parseExclude("unpaved,tunnel,motorway")
        let metric = AvoidanceMetric(turns: turns, avoidance: avoidance, data: data, snapper: snapper)
        XCTAssertGreaterThan(metric.closed.count, 0)
        let service = try RouteService(data: data, avoiding: metric)
        var rng = SplitMix64(seed: 9)
        var routed = 0, longer = 0
        for _ in 0..<200 {
            let a = (lon: 9.50 + 0.08 * rng.double(0, 1), lat: 47.08 + 0.14 * rng.double(0, 1))
            let b = (lon: 9.50 + 0.08 * rng.double(0, 1), lat: 47.08 + 0.14 * rng.double(0, 1))
            var request = RouteRequest(coordinates: [a, b])
            request.overview = .full
            guard let response = try? service.routes(request), let reference = try? plain.routes(request) else { continue }
            routed += 1
            let phantoms = try service.phantoms(request)
            for p in phantoms { XCTAssertFalse(metric.closed.contains(p.edge), "snapped onto a removed road") }
            let legs = try service.legs(phantoms, algorithm: .ch)
            for leg in legs {
                for r in leg.ranks { XCTAssertFalse(metric.closed.contains(Int(data.rankEdgeDirection[Int(r)]) >> 1), "a route drives a removed road") }
            }
            if response.routes[0].duration > reference.routes[0].duration + 0.05 { longer += 1 }
            // The leg's times add up to its weight, turns the hierarchy replaced included.
            for leg in legs { XCTAssertEqual(leg.times.reduce(0, +), Double(leg.weight), accuracy: 1.5) }
        }
        XCTAssertGreaterThan(routed, 100)
        XCTAssertGreaterThan(longer, 0, "the exclusions change some routes")
    }

    /// A closed polygon across the middle of a route, and a closed point on it: the new route
    /// has no geometry inside them, and is longer.
    func testClosuresAreNeverEntered() throws {
        let (data, turns) = Self.turnGraph
        let snapper = try Snapper(file: data.file)
        let plain = try RouteService(data: data)
        var request = RouteRequest(coordinates: [(9.5215, 47.1410), (9.4990, 47.0660)])
        request.overview = .full
        request.geometries = .geojson
        let before = try plain.routes(request).routes[0]
        let line = try XCTUnwrap(before.geometry?.points).map { GeoPoint(lon: $0.lon, lat: $0.lat) }
        let middle = line[line.count / 2]
        let d = 0.002
        let square = [GeoPoint(lon: middle.lon - d, lat: middle.lat - d), GeoPoint(lon: middle.lon + d, lat: middle.lat - d),
                      GeoPoint(lon: middle.lon + d, lat: middle.lat + d), GeoPoint(lon: middle.lon - d, lat: middle.lat + d),
                      GeoPoint(lon: middle.lon - d, lat: middle.lat - d)]
        let quarter = line[line.count / 4]
        let closures: [Closure] = [.polygon(rings: [square]), .circle(center: quarter, radiusMeters: 30)]
        for closure in closures {
            let metric = AvoidanceMetric(turns: turns, avoidance: Avoidance(closures: [closure]), data: data, snapper: snapper)
            XCTAssertGreaterThan(metric.closed.count, 0)
            // The closed edges are exactly those with a shape segment touching the closure (every
            // edge tested, those the snapping grid leaves out included).
            let touching = (0..<data.edgeCount).filter { e in
                let n = data.shapes.count(e)
                return (1..<n).contains { k in
                    let a = data.shapes.point(e, k - 1), b = data.shapes.point(e, k)
                    return closure.touches(GeoPoint(lon: Double(a.lonE7) * 1e-7, lat: Double(a.latE7) * 1e-7),
                                           GeoPoint(lon: Double(b.lonE7) * 1e-7, lat: Double(b.latE7) * 1e-7))
                }
            }
            XCTAssertEqual((0..<data.edgeCount).filter { metric.closed.contains($0) }, touching)
            let after = try RouteService(data: data, avoiding: metric).routes(request).routes[0]
            let points = try XCTUnwrap(after.geometry?.points).map { GeoPoint(lon: $0.lon, lat: $0.lat) }
            for (p, q) in zip(points, points.dropFirst()) {
                XCTAssertFalse(closure.touches(p, q), "the route passes through the closure at \(p)")
            }
            XCTAssertGreaterThan(after.duration, before.duration)
        }
    }

    /// The cache keeps the metrics used last, as many as fit its byte budget, and builds the
    /// turn graph's topology once.
    func testMetricsCacheKeepsWhatFits() throws {
        let data = Self.turnGraph.0
        let unpaved = try Avoidance.parseExclude("unpaved"), tunnel = try Avoidance.parseExclude("tunnel")
        let roomy = AvoidanceMetrics(data: data, capacity: 8)
        XCTAssertNil(try roomy.metric(for: Avoidance()), "no avoidance: the hierarchy answers")
        let a = try XCTUnwrap(try roomy.metric(for: unpaved))
        _ = try roomy.metric(for: tunnel)
        XCTAssertTrue(try roomy.metric(for: unpaved) === a, "kept")
        XCTAssertEqual(roomy.keptLimit, 8)
        let tight = AvoidanceMetrics(data: data, capacity: 8, byteBudget: 1)
        let b = try XCTUnwrap(try tight.metric(for: unpaved))
        XCTAssertEqual(tight.keptLimit, 1)
        _ = try tight.metric(for: tunnel)
        XCTAssertFalse(try tight.metric(for: unpaved) === b, "dropped beyond the budget, made again")
        XCTAssertEqual(try tight.metric(for: unpaved)?.closed.count, b.closed.count)
    }

    func testExcludeParsing() throws {
        XCTAssertEqual(try Avoidance.parseExclude("toll,motorway").classList, "motorway,toll")
        let point = try Avoidance.parseExclude("ferry,point(9.52 47.14)")
        XCTAssertEqual(point.closures, [.circle(center: GeoPoint(lon: 9.52, lat: 47.14), radiusMeters: Avoidance.pointRadiusMeters)])
        XCTAssertThrowsError(try Avoidance.parseExclude("motorway,highway")) { error in
            XCTAssertEqual(error as? AvoidanceError, .unknownClass("highway"))
        }
        XCTAssertThrowsError(try Avoidance.parseExclude(""))
        XCTAssertThrowsError(try Avoidance.parseExclude("point(9.52,47.14)"))
        XCTAssertThrowsError(try Avoidance.parseExclude("point(200 47)"))
    }
}
