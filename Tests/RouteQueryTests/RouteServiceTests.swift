import Foundation
@testable import RouteQuery
import TileMath
import XCTest
import TestSupport

/// Routes on the sample graph: CH = Dijkstra, steps add up, geometry matches, error codes.
final class RouteServiceTests: XCTestCase {
    static var shared: RoutingData?
    func data() throws -> RoutingData {
        if let d = Self.shared { return d }
        Self.shared = try RoutingData(path: try SampleGraphFixture.graphPath())
        return Self.shared!
    }

    /// Random points inside Liechtenstein's road network area.
    func randomPoints(_ count: Int, seed: UInt64) -> [(lon: Double, lat: Double)] {
        var rng = FixtureRandom(seed: seed)
        return (0..<count).map { _ in
            (9.48 + Double(rng.next() % 10_000) / 10_000 * 0.14, 47.06 + Double(rng.next() % 10_000) / 10_000 * 0.18)
        }
    }

    /// `summary` sums lengths along the search's up-down path without unpacking it: the same
    /// duration and metres, to the bit, as the unpacked legs, with vias and continue_straight.
    func testSummaryMatchesUnpackedLegs() throws {
        let d = try data()
        let service = try RouteService(data: d)
        let points = randomPoints(1200, seed: 31)
        var compared = 0
        for i in stride(from: 0, to: points.count - 3, by: 4) {
            var request = RouteRequest(coordinates: Array(points[i..<(i + 2 + i % 3)]))
            request.continueStraight = i % 8 == 0
            guard let summary = try? service.summary(request), let ps = try? service.routedPhantoms(request),
                  let legs = try? service.legs(ps, algorithm: .ch, continueStraight: request.continueStraight) else { continue }
            var duration = 0.0, distance = 0.0
            for (leg, (a, b)) in zip(legs, zip(ps, ps.dropFirst())) {
                duration += Double(leg.weight) / 10
                distance += leg.meters(d, source: a, target: b)
            }
            XCTAssertEqual(summary.duration, duration, "\(request.coordinates)")
            XCTAssertEqual(summary.distance, distance, "\(request.coordinates)")
            compared += 1
        }
        XCTAssertGreaterThan(compared, 200)
        // A target behind on a one-way edge: the search starts from the turns out of it.
        let e = try XCTUnwrap(longestStraightEdge(d, flags: 1))
        let (quarter, threeQuarters) = quarterPoints(d, e)
        let request = RouteRequest(coordinates: [threeQuarters, quarter])
        let ps = try service.phantoms(request)
        let leg = try XCTUnwrap(service.legs(ps, algorithm: .ch).first)
        XCTAssertEqual(try service.summary(request).distance, leg.meters(d, source: ps[0], target: ps[1]))
    }

    func testCHAndDijkstraAgreeOnDurationAndDistance() throws {
        let service = try RouteService(data: try data())
        let points = randomPoints(4000, seed: 11)
        var compared = 0
        for i in stride(from: 0, to: points.count - 1, by: 2) {
            var request = RouteRequest(coordinates: [points[i], points[i + 1]])
            let ch = try? service.summary(request)
            request.algorithm = .dijkstra
            let dijkstra = try? service.summary(request)
            XCTAssertEqual(ch?.duration, dijkstra?.duration, "\(points[i]) → \(points[i + 1])")
            if let a = ch, let b = dijkstra {
                // Equal weights; equal-weight paths may differ by metres.
                XCTAssertEqual(a.distance, b.distance, accuracy: max(1, a.distance * 0.05))
                compared += 1
            }
        }
        XCTAssertGreaterThan(compared, 1800)
    }

    func testStepsAddUpAndGeometryDecodesToTheRoute() throws {
        let service = try RouteService(data: try data())
        let points = randomPoints(60, seed: 5)
        for i in stride(from: 0, to: points.count - 1, by: 2) {
            var request = RouteRequest(coordinates: [points[i], points[i + 1]])
            request.steps = true
            request.overview = .full
            guard let response = try? service.routes(request) else { continue }
            XCTAssertEqual(response.code, "Ok")
            let route = try XCTUnwrap(response.routes.first)
            let leg = try XCTUnwrap(route.legs.first)
            let steps = leg.steps
            let distance = route.distance
            let stepSum = steps.reduce(0.0) { $0 + $1.distance }
            XCTAssertEqual(stepSum, distance, accuracy: 0.1 * Double(steps.count) + 0.1)
            XCTAssertEqual(steps.first?.maneuver.type, "depart")
            XCTAssertEqual(steps.last?.maneuver.type, "arrive")
            guard case .polyline(let encoded)? = route.geometry else { return XCTFail("polyline6 geometry expected") }
            let shape = try Polyline.decode(encoded.string, precision: 6)
            let start = try XCTUnwrap(response.waypoints.first?.location), end = try XCTUnwrap(response.waypoints.last?.location)
            XCTAssertLessThan(haversineMeters(GeoPoint(lon: shape[0].lon, lat: shape[0].lat), GeoPoint(lon: start.lon, lat: start.lat)), 0.5)
            XCTAssertLessThan(haversineMeters(GeoPoint(lon: shape.last!.lon, lat: shape.last!.lat), GeoPoint(lon: end.lon, lat: end.lat)), 0.5)
            var length = 0.0
            for (a, b) in zip(shape, shape.dropFirst()) {
                length += haversineMeters(GeoPoint(lon: a.lon, lat: a.lat), GeoPoint(lon: b.lon, lat: b.lat))
            }
            XCTAssertEqual(length, distance, accuracy: max(2, distance * 0.005))
        }
    }

    /// Mid-edge snapping: a start and an end on the same long edge give a route of just the piece between.
    func testRouteAlongOneEdgeUsesThePartialEdge() throws {
        let d = try data()
        let service = try RouteService(data: d)
        // The longest straight edge (two shape points, so points between them are on the road)
        // drivable both ways.
        let e = try XCTUnwrap(longestStraightEdge(d, flags: 3))
        let (quarter, threeQuarters) = quarterPoints(d, e)
        let s = try service.summary(RouteRequest(coordinates: [quarter, threeQuarters]))
        XCTAssertEqual(s.distance, Double(d.edges[e].lengthCm) / 100 / 2, accuracy: 1)
        let back = try service.summary(RouteRequest(coordinates: [threeQuarters, quarter]))
        XCTAssertEqual(back.distance, Double(d.edges[e].lengthCm) / 100 / 2, accuracy: 1)
    }

    /// On a one-way edge with the target behind the source, the route leaves the edge by its
    /// turns and comes back: longer than the gap, and the same with CH and plain Dijkstra.
    func testTargetBehindOnAOneWayEdgeGoesAround() throws {
        let d = try data()
        let service = try RouteService(data: d)
        let e = try XCTUnwrap(longestStraightEdge(d, flags: 1))
        let (quarter, threeQuarters) = quarterPoints(d, e)
        var request = RouteRequest(coordinates: [threeQuarters, quarter])
        let ch = try service.summary(request)
        request.algorithm = .dijkstra
        let dijkstra = try service.summary(request)
        XCTAssertGreaterThan(ch.distance, Double(d.edges[e].lengthCm) / 100 / 2 + 1, "the route goes around")
        XCTAssertEqual(ch.duration, dijkstra.duration)
    }

    private func longestStraightEdge(_ d: RoutingData, flags: UInt8) -> Int? {
        (0..<d.edgeCount).filter { d.edges[$0].flags & 3 == flags && d.shapes.count($0) == 2 }
            .max { d.edges[$0].lengthCm < d.edges[$1].lengthCm }
    }

    private func quarterPoints(_ d: RoutingData, _ e: Int) -> ((lon: Double, lat: Double), (lon: Double, lat: Double)) {
        let from = d.shapes.point(e, 0), to = d.shapes.point(e, d.shapes.count(e) - 1)
        let a = (lon: Double(from.lonE7) / 1e7, lat: Double(from.latE7) / 1e7)
        let b = (lon: Double(to.lonE7) / 1e7, lat: Double(to.latE7) / 1e7)
        return ((a.lon + (b.lon - a.lon) * 0.25, a.lat + (b.lat - a.lat) * 0.25),
                (a.lon + (b.lon - a.lon) * 0.75, a.lat + (b.lat - a.lat) * 0.75))
    }

    /// The turns out of a node, found at its junction, are exactly the plain turn graph's arcs
    /// (which the same-edge case used to build whole), for every node of the sample.
    func testTurnsAtTheJunctionAreThePlainGraphsArcs() throws {
        let d = try data()
        let plain = d.plainGraph()
        var turns = 0
        for r in 0..<UInt32(plain.nodeCount) {
            let arcs = Int(plain.firstOut[Int(r)])..<Int(plain.firstOut[Int(r) + 1])
            let found = d.turns(from: r)
            XCTAssertEqual(found.map(\.head), arcs.map { plain.head[$0] }, "heads out of \(r)")
            XCTAssertEqual(found.map(\.weight), arcs.map { plain.weight[$0] }, "weights out of \(r)")
            turns += found.count
        }
        XCTAssertEqual(turns, plain.arcCount, "every turn found")
        XCTAssertGreaterThan(turns, 10_000)
    }

    func testErrorCodes() throws {
        let service = try RouteService(data: try data())
        func code(_ request: RouteRequest) -> String? { service.route(request).code }
        XCTAssertEqual(code(RouteRequest(coordinates: [(9.52, 47.14)])), "InvalidInput")
        XCTAssertEqual(code(RouteRequest(coordinates: [(9.52, 47.14), (200, 47)])), "InvalidInput")
        XCTAssertEqual(code(RouteRequest(coordinates: [(8.0, 46.0), (9.52, 47.14)])), "NoSegment")
        var tight = RouteRequest(coordinates: [(9.5300, 47.1300), (9.52, 47.14)])
        tight.radiuses = [0.5, nil]
        XCTAssertEqual(code(tight), "NoSegment")
        // A small island of roads (component > 0) cannot reach the main network: NoRoute.
        let d = try data()
        if let island = (0..<d.rankCount).first(where: { d.rankComponent[$0] > 0 }) {
            let e = Int(d.rankEdgeDirection[island] >> 1)
            let p = d.shapes.point(e, 0)
            var request = RouteRequest(coordinates: [(Double(p.lonE7) / 1e7, Double(p.latE7) / 1e7), (9.5215, 47.1410)])
            request.radiuses = [1, nil]
            let c = code(request)
            XCTAssertEqual(c, "NoRoute")
        }
        XCTAssertEqual(code(RouteRequest(coordinates: [(9.5215, 47.1410), (9.4990, 47.0660)])), "Ok")
    }

    func testBearingsPickTheDirection() throws {
        let service = try RouteService(data: try data())
        // Heading south and heading north from the same point towards a southern destination.
        var south = RouteRequest(coordinates: [(9.5215, 47.1410), (9.4990, 47.0660)])
        south.bearings = [(200, 60), nil]
        var north = south
        north.bearings = [(20, 60), nil]
        let s = try service.summary(south), n = try service.summary(north)
        XCTAssertLessThanOrEqual(s.duration, n.duration)
    }

    func testTableMatchesRoutes() throws {
        let d = try data()
        let table = try TableService(data: d)
        let service = try RouteService(data: d)
        // Distances come from the bucket search's own paths: the same as a route's wherever the
        // fastest path is unique (two equally fast paths may differ in length).
        // Points whose nearest road is on the big network: elsewhere the choice of end point
        // depends on all of a request's points (OSRM's rule, `RouteService.endPoints`), so a
        // table's cell and a two-point route may rightly differ (SnappingChoiceTests).
        let snaps: ((lon: Double, lat: Double)) -> Bool = { p in
            guard let n = service.snapper.nearestAndMain(lon: p.lon, lat: p.lat)?.nearest else { return false }
            return !service.snapper.isTiny(component: n.component)
        }
        var sources = randomPoints(40, seed: 21).filter(snaps), destinations = randomPoints(40, seed: 22).filter(snaps)
        XCTAssertGreaterThan(sources.count, 20)
        XCTAssertGreaterThan(destinations.count, 20)
        // Two pairs on one edge (Städtle): the destination ahead, and behind in one direction.
        sources += [(9.52150, 47.14100), (9.52150, 47.14100)]
        destinations += [(9.52160, 47.14110), (9.52148, 47.141064)]
        let t = try table.table(sources: sources, destinations: destinations, durations: true, distances: true)
        XCTAssertEqual(t.code, "Ok")
        let durations = try XCTUnwrap(t.durations), distances = try XCTUnwrap(t.distances)
        for (i, s) in sources.enumerated() {
            for (j, dst) in destinations.enumerated() {
                let route = try? service.summary(RouteRequest(coordinates: [s, dst]))
                XCTAssertEqual(durations[i][j], route?.duration, "\(i),\(j)")
                XCTAssertEqual(distances[i][j], route.map { ($0.distance * 10).rounded() / 10 }, "\(i),\(j)")
            }
        }
    }
}

final class AlternativeRouteTests: XCTestCase {
    func testAlternativesAreDistinctAndNotMuchSlower() throws {
        let service = try RouteService(data: try RoutingData(path: try SampleGraphFixture.graphPath()))
        var request = RouteRequest(coordinates: [(9.5215, 47.1410), (9.4990, 47.0660)])
        request.alternatives = 2
        request.overview = .full
        let routes = try service.routes(request).routes
        XCTAssertGreaterThanOrEqual(routes.count, 2, "Vaduz → Balzers has a second way along the Rhine")
        let best = routes[0].duration
        var geometries = Set<String>()
        for r in routes {
            let duration = r.duration
            XCTAssertGreaterThanOrEqual(duration, best)
            XCTAssertLessThanOrEqual(duration, best * 1.26)
            guard case .polyline(let encoded)? = r.geometry else { return XCTFail("polyline6 geometry expected") }
            geometries.insert(encoded.string)
            XCTAssertEqual(r.legs.count, 1)
        }
        XCTAssertEqual(geometries.count, routes.count)
    }
}
