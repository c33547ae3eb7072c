import OSMPBF
import RouteQuery
import TestSupport
import XCTest

/// The rules of the road end to end on hand-made maps (PBF → tiles → pack → unpacked tiles →
/// graph file → routes with steps): what a driver is told, as OSRM's features expect it.
final class RulesOfTheRoadRouteTests: XCTestCase {
    var scratch: Scratch!
    var map: HandMadeMap!
    override func setUp() { scratch = Scratch(); map = HandMadeMap(scratch: scratch) }
    override func tearDown() { scratch.remove() }

    func node(_ id: Int64, _ east: Double, _ north: Double, _ tags: [(String, String)] = []) -> OSMNode {
        HandMadeMap.node(id, east, north, tags)
    }
    func way(_ id: Int64, _ refs: [Int64], _ name: String, _ tags: [(String, String)] = [("highway", "primary")]) -> OSMWay {
        HandMadeMap.way(id, refs, name, tags)
    }
    func service(_ nodes: [OSMNode], _ ways: [OSMWay], _ relations: [OSMRelation] = []) throws -> (RouteService, [Int64: OSMNode]) {
        try map.service(nodes, ways, relations)
    }
    func steps(_ s: RouteService, _ at: [Int64: OSMNode], _ from: Int64, _ to: Int64) throws -> [String] {
        try HandMadeMap.steps(s, at, from, to)
    }

    func testABollardSendsTheRouteAround() throws {
        let nodes = [node(1, 0, 0), node(2, 300, 0, [("barrier", "bollard")]), node(3, 600, 0), node(4, 300, 300)]
        let (s, at) = try service(nodes, [way(10, [1, 2, 3], "Main"), way(11, [1, 4, 3], "Detour")])
        XCTAssertTrue(try steps(s, at, 1, 3).contains { $0.hasSuffix("Detour") }, "around the bollard")

        let (open, at2) = try service([node(1, 0, 0), node(2, 300, 0), node(3, 600, 0), node(4, 300, 300)],
                                      [way(10, [1, 2, 3], "Main"), way(11, [1, 4, 3], "Detour")])
        XCTAssertFalse(try steps(open, at2, 1, 3).contains { $0.hasSuffix("Detour") }, "straight through without it")
    }

    /// OSRM's "prohibit turn" map: no right turn from ab via be into de, so the route turns
    /// back at f's dead end, with a U-turn step.
    ///
    ///     c
    ///     |   f
    ///     b---e
    ///     |   |
    ///     a   d
    func testAViaWayRestrictionAndAUTurnAtADeadEnd() throws {
        let nodes = [node(1, 0, 0), node(2, 0, 200), node(3, 0, 500), node(4, 400, 0), node(5, 400, 200), node(6, 400, 400)]
        let ways = [way(10, [1, 2], "ab"), way(11, [2, 3], "bc"), way(12, [2, 5], "be"), way(13, [4, 5], "de"), way(14, [5, 6], "ef")]
        let restriction = OSMRelation(id: 1, members: [(.way, 10, "from"), (.way, 12, "via"), (.way, 13, "to")],
                                      tags: [("type", "restriction"), ("restriction", "no_right_turn")])
        let (s, at) = try service(nodes, ways, [restriction])
        let got = try steps(s, at, 1, 4)
        XCTAssertEqual(got.first, "depart ab")
        XCTAssertTrue(got.contains("continue uturn ef"), "\(got)")
        XCTAssertEqual(got.last, "arrive de")
    }

    func testAFerryIsAnnouncedAndRiddenInFerryMode() throws {
        let nodes = [node(1, 0, 0), node(2, 500, 0), node(3, 1500, 300), node(4, 2000, 300)]
        let ways = [way(10, [1, 2], "Seestrasse"), way(11, [2, 3], "Fähre", [("route", "ferry"), ("duration", "00:20")]),
                    way(12, [3, 4], "Hafenstrasse")]
        let (s, at) = try service(nodes, ways)
        let got = try steps(s, at, 1, 4)
        XCTAssertTrue(got.contains { $0.hasPrefix("notification") && $0.hasSuffix("Fähre (ferry)") }, "\(got)")
        XCTAssertTrue(got.contains { $0.hasPrefix("notification") && $0.hasSuffix("Hafenstrasse") }, "\(got)")
        var request = RouteRequest(coordinates: [(at[1]!.lon, at[1]!.lat), (at[4]!.lon, at[4]!.lat)])
        request.steps = false
        XCTAssertGreaterThan(try XCTUnwrap(try s.routes(request).routes.first).duration, 1200, "the crossing takes its 20 minutes")
    }

    /// OSRM's "snap source/target to via restriction way": a destination on a restriction's via
    /// way is reached along the restriction's path too (through the via way's copy), and a start
    /// on it is not bound by the restriction.
    ///
    ///     a - 1 - b - 2 - c - 3 - d      no_straight_on from ab via bc to cd
    func testARouteEndsAndStartsOnAViaWay() throws {
        // 200 m on each road: a name lasting under 105 m would get no step of its own.
        let nodes = [node(1, 0, 0), node(2, 400, 0), node(3, 800, 0), node(4, 1200, 0),
                     node(91, 200, 0), node(92, 600, 0), node(93, 1000, 0)]
        let ways = [way(10, [1, 2], "ab"), way(11, [2, 3], "bc"), way(12, [3, 4], "cd")]
        let restriction = OSMRelation(id: 1, members: [(.way, 10, "from"), (.way, 11, "via"), (.way, 12, "to")],
                                      tags: [("type", "restriction"), ("restriction", "no_straight_on")])
        let (s, at) = try service(nodes, ways, [restriction])
        XCTAssertEqual(try steps(s, at, 91, 92), ["depart ab", "new name straight bc", "arrive bc"])
        XCTAssertEqual(try steps(s, at, 92, 93), ["depart bc", "new name straight cd", "arrive cd"])
    }
}
