import Foundation
import OSMPBF
import RouteQuery
import RoutingProfile
import TestSupport
import XCTest

/// One hand-made map, one routing pack, three graphs: the car, the bicycle and the foot profile
/// of `profiles/` each choose their own roads from the same tiles.
final class EveryTravellerTests: XCTestCase {
    var scratch: Scratch!
    var map: HandMadeMap!
    override func setUp() { scratch = Scratch(); map = HandMadeMap(scratch: scratch) }
    override func tearDown() { scratch.remove() }

    static let profiles = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("profiles")
    func profile(_ name: String) throws -> TravelProfile { try TravelProfile.load(path: Self.profiles.appendingPathComponent(name + ".json").path) }

    /// Metres of the route between nodes `from` and `to`, or nil when there is none.
    func metres(_ s: RouteService, _ at: [Int64: OSMNode], _ from: Int64, _ to: Int64) -> Double? {
        let request = RouteRequest(coordinates: [(at[from]!.lon, at[from]!.lat), (at[to]!.lon, at[to]!.lat)])
        return (try? s.routes(request))?.routes.first?.distance
    }

    // a ==(one-way east, contraflow cycle lane)== b, a -- footway (with a bollard) -- b on a short
    // cut, and a long two-way road a - c - d - b round the block.
    func testEachProfileTakesItsOwnRoads() throws {
        func n(_ id: Int64, _ east: Double, _ north: Double, _ tags: [(String, String)] = []) -> OSMNode { HandMadeMap.node(id, east, north, tags) }
        let nodes = [n(1, 0, 0), n(2, 400, 0), n(3, 0, 600), n(4, 400, 600), n(5, 200, -50, [("barrier", "bollard")]),
                     n(6, -100, 0), n(7, 500, 0)]
        let ways = [
            HandMadeMap.way(10, [1, 2], "Einbahn", [("highway", "residential"), ("oneway", "yes"), ("cycleway", "opposite_lane")]),
            HandMadeMap.way(11, [1, 5, 2], "Fussweg", [("highway", "footway")]),
            HandMadeMap.way(12, [1, 3, 4, 2], "Umweg", [("highway", "residential")]),
            HandMadeMap.way(13, [6, 1], "West", [("highway", "residential")]),
            HandMadeMap.way(14, [2, 7], "Ost", [("highway", "residential")]),
        ]
        let (car, at) = try map.service(nodes, ways)
        let (bicycle, _) = try map.service(nodes, ways, profile: try profile("bicycle"))
        let (foot, _) = try map.service(nodes, ways, profile: try profile("foot"))
        // East: everyone may take the one-way street (400 m from a to b, plus 200 m of approaches).
        XCTAssertEqual(try XCTUnwrap(metres(car, at, 6, 7)), 600, accuracy: 2)
        XCTAssertEqual(try XCTUnwrap(metres(bicycle, at, 6, 7)), 600, accuracy: 2)
        // West: the car goes round the block (400 + 2 × 600), the cyclist up the contraflow lane,
        // the walker along the one-way street too (oneway does not bind walkers).
        XCTAssertEqual(try XCTUnwrap(metres(car, at, 7, 6)), 1800, accuracy: 2)
        XCTAssertEqual(try XCTUnwrap(metres(bicycle, at, 7, 6)), 600, accuracy: 2)
        XCTAssertEqual(try XCTUnwrap(metres(foot, at, 7, 6)), 600, accuracy: 2)
        // Each graph's steps say who travels (OSRM's step mode).
        XCTAssertEqual(try HandMadeMap.steps(bicycle, at, 7, 6).first, "depart Ost (cycling)")
        XCTAssertEqual(try HandMadeMap.steps(foot, at, 7, 6).first, "depart Ost (walking)")
        XCTAssertEqual(try HandMadeMap.steps(car, at, 7, 6).first, "depart Ost")
        // The footway's bollard stops no walker; the car never gets onto the footway at all.
        XCTAssertNotNil(metres(foot, at, 5, 7))
        XCTAssertGreaterThan(try XCTUnwrap(metres(car, at, 5, 7)), 150)
    }

    /// A turn restriction binds cars and cyclists, not walkers; a cars-only one binds cars only.
    func testRestrictionsByMode() throws {
        func n(_ id: Int64, _ east: Double, _ north: Double, _ tags: [(String, String)] = []) -> OSMNode { HandMadeMap.node(id, east, north, tags) }
        // a - b - c west to east, d north of b.
        let nodes = [n(1, 0, 0), n(2, 300, 0), n(3, 600, 0), n(4, 300, 300)]
        let ways = [HandMadeMap.way(1, [1, 2], "West", [("highway", "residential")]),
                    HandMadeMap.way(2, [2, 3], "Ost", [("highway", "residential")]),
                    HandMadeMap.way(3, [2, 4], "Nord", [("highway", "residential")])]
        func restriction(_ tags: [(String, String)]) -> [OSMRelation] {
            [OSMRelation(id: 1, members: [(.way, 1, "from"), (.node, 2, "via"), (.way, 3, "to")], tags: [("type", "restriction")] + tags)]
        }
        let all = restriction([("restriction", "no_left_turn")])
        let carsOnly = restriction([("restriction:motorcar", "no_left_turn")])
        func direct(_ p: TravelProfile, _ r: [OSMRelation]) throws -> Bool {
            let (s, at) = try map.service(nodes, ways, r, profile: p)
            return abs((metres(s, at, 1, 4) ?? 0) - 600) < 2
        }
        let car = TravelProfile.embeddedDefault, bicycle = try profile("bicycle"), foot = try profile("foot")
        XCTAssertFalse(try direct(car, all))
        XCTAssertFalse(try direct(bicycle, all))
        XCTAssertTrue(try direct(foot, all))
        XCTAssertFalse(try direct(car, carsOnly))
        XCTAssertTrue(try direct(bicycle, carsOnly))
    }
}
