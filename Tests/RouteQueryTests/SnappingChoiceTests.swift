import Foundation
@testable import RouteQuery
import RoutingGraph
import TestSupport
import XCTest

/// OSRM's choice between a waypoint's nearest road and its road on a big component, on the
/// sample graph: routes inside one tiny component stay there; a tiny component's waypoint with
/// any other moves to the big network; tables choose as routes do.
final class SnappingChoiceTests: XCTestCase {
    static var shared: RoutingData?
    func data() throws -> RoutingData {
        if let d = Self.shared { return d }
        Self.shared = try RoutingData(path: try SampleGraphFixture.graphPath())
        return Self.shared!
    }

    /// Two points on one edge of a tiny component that has a big-network road within reach: the
    /// middles of its first and last segments (away from junctions, where roads of other
    /// components meet it), where the nearest road is that edge.
    func tinyComponentPoints(_ service: RouteService) throws -> [(lon: Double, lat: Double)] {
        let d = try data()
        func middle(_ e: Int, _ k: Int) -> (lon: Double, lat: Double) {
            let p = d.shapes.point(e, k), q = d.shapes.point(e, k + 1)
            return ((Double(p.lonE7) + Double(q.lonE7)) / 2e7, (Double(p.latE7) + Double(q.latE7)) / 2e7)
        }
        for e in 0..<d.edgeCount where d.shapes.count(e) >= 3 {
            let points = [middle(e, 0), middle(e, d.shapes.count(e) - 2)]
            let snapped = points.compactMap { service.snapper.nearestAndMain(lon: $0.lon, lat: $0.lat) }
            guard snapped.count == points.count,
                  snapped.allSatisfy({ $0.nearest.edge == e && service.snapper.isTiny(component: $0.nearest.component) && $0.main != nil })
            else { continue }
            return points
        }
        XCTFail("the sample graph has no tiny component with a big road in reach")
        throw CocoaError(.featureUnsupported)
    }

    func testWaypointsAllOnOneTinyComponentStayOnIt() throws {
        let service = try RouteService(data: try data())
        let tiny = try tinyComponentPoints(service)
        let phantoms = try service.phantoms(RouteRequest(coordinates: tiny))
        let nearest = try XCTUnwrap(service.snapper.nearestAndMain(lon: tiny[0].lon, lat: tiny[0].lat)).nearest
        XCTAssertEqual(phantoms.map(\.edge), [nearest.edge, nearest.edge], "both ends on the tiny component's road")
        XCTAssertTrue(phantoms.allSatisfy { $0.distance < 0.5 }, "at the points themselves")
    }

    func testATinyComponentWaypointWithAnotherMovesToTheBigNetwork() throws {
        let service = try RouteService(data: try data())
        let tiny = try tinyComponentPoints(service)
        let elsewhere = (lon: 9.5209, lat: 47.1410)   // Vaduz, on the main network
        let phantoms = try service.phantoms(RouteRequest(coordinates: [tiny[0], elsewhere]))
        XCTAssertFalse(service.snapper.isTiny(component: phantoms[0].component), "moved off the tiny component")
        XCTAssertGreaterThan(phantoms[0].distance, 0.5)
        XCTAssertFalse(service.snapper.isTiny(component: phantoms[1].component))
    }

    /// A table over the same points chooses the same end points, so its cell is the route's.
    func testTablesChooseAsRoutesDo() throws {
        let d = try data()
        let service = try RouteService(data: d)
        let tiny = try tinyComponentPoints(service)
        let elsewhere = (lon: 9.5209, lat: 47.1410)
        for (a, b) in [(tiny[0], tiny[1]), (tiny[0], elsewhere), (elsewhere, tiny[1])] {
            let route = try service.summary(RouteRequest(coordinates: [a, b]))
            let table = try TableService(service: service).table(sources: [a], destinations: [b])
            XCTAssertEqual(try XCTUnwrap(table.durations?[0][0]), route.duration, accuracy: 0.1, "\(a) -> \(b)")
        }
    }
}
