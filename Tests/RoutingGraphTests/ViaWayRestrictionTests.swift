import OSMPBF
import RoutingGraph
import RoutingProfile
import RoutingTiles
import XCTest

/// Every form of turn restriction, on hand-made maps (after OSRM's car/restrictions.feature and
/// car/multi_via_restrictions.feature): via ways (one or several, `no_*` and `only_*`), several
/// from / to members, generic values, `except=`, ambiguous ways, and a via way across a tile border.
final class ViaWayRestrictionTests: XCTestCase {
    /// The OSM nodes of the best route that starts by driving `a → b` and ends arriving at `target`,
    /// over the edge-based graph (copies included), or nil when there is none.
    func route(_ nodes: [OSMNode], _ ways: [OSMWay], _ relations: [OSMRelation], start a: Int64, _ b: Int64, to target: Int64) throws -> [Int64]? {
        let g = ChainCompression.compress(RoadGraph(tiles: try tiles(ofHandMade: nodes, ways, relations)))
        let eb = EdgeBasedGraph(g, profile: TravelProfile.embeddedDefault)
        let (start, forward) = try XCTUnwrap(g.edge(a, b))
        let source = eb.nodeOfEdgeDirection[2 * start + (forward ? 0 : 1)]
        var targets = Set<UInt32>()
        for v in 0..<eb.nodeCount {
            let ed = Int(eb.edgeDirectionOfNode[v]), e = ed >> 1
            if g.nodeOsmId[Int(ed & 1 == 0 ? g.edgeTo[e] : g.edgeFrom[e])] == target { targets.insert(UInt32(v)) }
        }
        guard let (_, path) = oracleShortestPath(eb, from: [source], to: targets) else { return nil }
        var osm: [Int64] = [a]
        for v in path {
            let ed = Int(eb.edgeDirectionOfNode[Int(v)]), e = ed >> 1
            osm.append(g.nodeOsmId[Int(ed & 1 == 0 ? g.edgeTo[e] : g.edgeFrom[e])])
        }
        return osm
    }

    func road(_ id: Int64, _ refs: [Int64], oneway: Bool = false) -> OSMWay {
        OSMWay(id: id, refs: refs, tags: [("highway", "residential")] + (oneway ? [("oneway", "yes")] : []))
    }

    func restriction(_ id: Int64, _ value: String, from: [Int64], via: [Int64] = [], viaNode: Int64? = nil, to: [Int64],
                     extra: [(String, String)] = []) -> OSMRelation {
        var members: [(type: Relation.MemberType, ref: Int64, role: String)] = from.map { (type: .way, ref: $0, role: "from") }
        if let n = viaNode { members.append((type: .node, ref: n, role: "via")) }
        members += via.map { (type: .way, ref: $0, role: "via") }
        members += to.map { (type: .way, ref: $0, role: "to") }
        return OSMRelation(id: id, members: members, tags: [("type", "restriction"), ("restriction", value)] + extra)
    }

    // MARK: One via way (restrictions.feature, "Car - prohibit turn")
    //
    //   c
    //   |   f
    //   b---e
    //   |   |
    //   a   d
    func square(lon0: Double = 9.51) -> [OSMNode] {
        let g = 0.001
        func n(_ id: Int64, _ x: Double, _ y: Double) -> OSMNode { OSMNode(id: id, lat: 47.1 + y * g, lon: lon0 + x * g) }
        return [n(1, 0, 0), n(2, 0, 1), n(3, 0, 3), n(4, 1, 0), n(5, 1, 1), n(6, 1, 2)]
    }
    let squareWays = [OSMWay(id: 10, refs: [1, 2], tags: [("highway", "residential")]),   // ab
                      OSMWay(id: 11, refs: [2, 3], tags: [("highway", "residential")]),   // bc
                      OSMWay(id: 12, refs: [2, 5], tags: [("highway", "residential")]),   // be
                      OSMWay(id: 13, refs: [4, 5], tags: [("highway", "residential")]),   // de
                      OSMWay(id: 14, refs: [5, 6], tags: [("highway", "residential")])]   // ef

    func testViaWayNoTurnMakesOnlyTheEnteringDriverTurnBack() throws {
        let r = [restriction(1, "no_right_turn", from: [10], via: [12], to: [13])]
        XCTAssertEqual(try route(square(), squareWays, [], start: 1, 2, to: 4), [1, 2, 5, 4])
        // From a, through b and e, the right turn onto de is gone: turn at f's dead end.
        XCTAssertEqual(try route(square(), squareWays, r, start: 1, 2, to: 4), [1, 2, 5, 6, 5, 4])
        XCTAssertEqual(try route(square(), squareWays, r, start: 1, 2, to: 6), [1, 2, 5, 6])
        // From c the same turn is allowed.
        XCTAssertEqual(try route(square(), squareWays, r, start: 3, 2, to: 4), [3, 2, 5, 4])
        let g = ChainCompression.compress(RoadGraph(tiles: try tiles(ofHandMade: square(), squareWays, r)))
        let eb = EdgeBasedGraph(g, profile: TravelProfile.embeddedDefault)
        XCTAssertEqual(eb.nodeCount - eb.firstCopy, 1)   // be, copied for drivers from ab
        XCTAssertEqual(eb.edgeDirectionOfNode[eb.firstCopy], eb.edgeDirectionOfNode[Int(eb.nodeOfEdgeDirection[Int(eb.edgeDirectionOfNode[eb.firstCopy])])])
    }

    func testViaWayOnlyTurn() throws {
        // only_left_on (a generic only_* value): from ab through be, ef is the only exit.
        let r = [restriction(1, "only_left_on", from: [10], via: [12], to: [14])]
        XCTAssertEqual(try route(square(), squareWays, r, start: 1, 2, to: 4), [1, 2, 5, 6, 5, 4])
        XCTAssertEqual(try route(square(), squareWays, r, start: 3, 2, to: 4), [3, 2, 5, 4])
    }

    func testViaWayExceptForCarsIsIgnored() throws {
        let r = [restriction(1, "no_right_turn", from: [10], via: [12], to: [13], extra: [("except", "psv;motorcar")])]
        XCTAssertEqual(try route(square(), squareWays, r, start: 1, 2, to: 4), [1, 2, 5, 4])
    }

    func testViaWayAgainstItsOnewayIsIgnored() throws {
        var ways = squareWays
        ways[2] = road(12, [2, 5], oneway: true)
        let r = [restriction(1, "no_left_turn", from: [13], via: [12], to: [10])]
        XCTAssertEqual(try route(square(), ways, r, start: 1, 2, to: 6), [1, 2, 5, 6])
    }

    func testViaWayAcrossATileBorder() throws {
        // b, c and a west of 9.5°E, e, d and f east of it: two tiles of the 0.25° grid.
        let nodes = square(lon0: 9.4995)
        let r = [restriction(1, "no_right_turn", from: [10], via: [12], to: [13])]
        let t = try tiles(ofHandMade: nodes, squareWays, r)
        XCTAssertEqual(t.count, 2)
        XCTAssertEqual(t.flatMap(\.restrictions).map(\.nodeOsmIds), [[2, 5]])
        XCTAssertEqual(try route(nodes, squareWays, r, start: 1, 2, to: 4), [1, 2, 5, 6, 5, 4])
    }

    // MARK: Several via ways (multi_via_restrictions.feature)
    //
    //               8
    //       y       x
    //       |       | \
    //   a - b - c - d - e - 9
    func line() -> ([OSMNode], [OSMWay]) {
        let g = 0.001
        func n(_ id: Int64, _ x: Double, _ y: Double) -> OSMNode { OSMNode(id: id, lat: 47.1 + y * g, lon: 9.51 + x * g) }
        let nodes = [n(1, 0, 0), n(2, 1, 0), n(3, 2, 0), n(4, 3, 0), n(5, 4, 0), n(6, 3, 1), n(7, 1, 1), n(8, 3, 2), n(9, 5, 0)]
        // (x and e get a stub each, 8 and 9, so that they stay junctions.)
        let ways = [road(1, [1, 2]), road(2, [2, 3]), road(3, [3, 4]), road(4, [4, 6]), road(5, [4, 5]), road(6, [5, 6]), road(7, [7, 2]),
                    road(8, [6, 8]), road(9, [5, 9])]
        return (nodes, ways)
    }

    func testSeveralViaWaysInOrder() throws {
        let (nodes, ways) = line()
        // (Without the restriction c is merged away.)
        XCTAssertEqual(try route(nodes, ways, [], start: 1, 2, to: 6), [1, 2, 4, 6])
        let r = [restriction(1, "no_left_turn", from: [1], via: [2, 3], to: [4])]
        XCTAssertEqual(try route(nodes, ways, r, start: 1, 2, to: 6), [1, 2, 3, 4, 5, 6])
        // Who joins the via path at b is not concerned.
        XCTAssertEqual(try route(nodes, ways, r, start: 7, 2, to: 6), [7, 2, 3, 4, 6])
        // c stays a junction although only the two via ways meet there.
        let g = ChainCompression.compress(RoadGraph(tiles: try tiles(ofHandMade: nodes, ways, r)))
        XCTAssertTrue(g.nodeOsmId.contains(3))
        // Via ways out of order do not chain: ignored.
        let swapped = [restriction(1, "no_left_turn", from: [1], via: [3, 2], to: [4])]
        XCTAssertEqual(try route(nodes, ways, swapped, start: 1, 2, to: 6), [1, 2, 4, 6])
    }

    func testOnlyThroughSeveralViaWays() throws {
        let (nodes, ways) = line()
        let r = [restriction(1, "only_straight_on", from: [1], via: [2, 3], to: [5])]
        XCTAssertEqual(try route(nodes, ways, r, start: 1, 2, to: 6), [1, 2, 3, 4, 5, 6])
        XCTAssertEqual(try route(nodes, ways, r, start: 7, 2, to: 6), [7, 2, 3, 4, 6])
    }

    func testRestrictionStartingInsideAnothersViaPath() throws {
        // The second restriction's from way is the first's first via way: both hold.
        let (nodes, ways) = line()
        let r = [restriction(1, "no_left_turn", from: [1], via: [2, 3], to: [4]),
                 restriction(2, "no_straight_on", from: [2], via: [3], to: [5])]
        // From y, onto bc then cd: the second holds (no straight on at d), the first does not.
        XCTAssertEqual(try route(nodes, ways, r, start: 7, 2, to: 5), [7, 2, 3, 4, 6, 5])
        // From a both hold: neither exit at d.
        let fromA = try route(nodes, ways, r, start: 1, 2, to: 5)
        XCTAssertNotEqual(fromA, [1, 2, 3, 4, 5])
        XCTAssertNotEqual(fromA, [1, 2, 3, 4, 6, 5])
    }

    // MARK: Via node forms (restrictions.feature)
    //
    //        b
    //        |
    //   a----e----c
    //        |
    //        d
    func cross() -> ([OSMNode], [OSMWay]) {
        let g = 0.001
        func n(_ id: Int64, _ x: Double, _ y: Double) -> OSMNode { OSMNode(id: id, lat: 47.1 + y * g, lon: 9.51 + x * g) }
        return ([n(1, 0, 1), n(2, 1, 2), n(3, 2, 1), n(4, 1, 0), n(5, 1, 1)],
                [road(1, [1, 5]), road(2, [2, 5]), road(3, [3, 5]), road(4, [4, 5])])
    }

    func testNoEntryWithSeveralFromWays() throws {
        let (nodes, ways) = cross()
        let r = [restriction(1, "no_entry", from: [1, 2], viaNode: 5, to: [4])]
        XCTAssertEqual(try route(nodes, ways, r, start: 1, 5, to: 4), [1, 5, 3, 5, 4])
        XCTAssertEqual(try route(nodes, ways, r, start: 2, 5, to: 4), [2, 5, 3, 5, 4])
        XCTAssertEqual(try route(nodes, ways, r, start: 3, 5, to: 4), [3, 5, 4])
    }

    func testNoExitWithSeveralToWays() throws {
        let (nodes, ways) = cross()
        let r = [restriction(1, "no_exit", from: [1], viaNode: 5, to: [3, 4])]
        XCTAssertEqual(try route(nodes, ways, r, start: 1, 5, to: 2), [1, 5, 2])
        XCTAssertEqual(try route(nodes, ways, r, start: 1, 5, to: 3), [1, 5, 2, 5, 3])
        XCTAssertEqual(try route(nodes, ways, r, start: 1, 5, to: 4), [1, 5, 2, 5, 4])
    }

    func testSeveralMembersOnOtherKindsAreIgnored() throws {
        let (nodes, ways) = cross()
        let r = [restriction(1, "no_entry", from: [1], viaNode: 5, to: [3, 4]),
                 restriction(2, "no_exit", from: [1, 2], viaNode: 5, to: [4]),
                 restriction(3, "no_right_turn", from: [1, 4], viaNode: 5, to: [3, 4])]
        XCTAssertEqual(try route(nodes, ways, r, start: 1, 5, to: 3), [1, 5, 3])
        XCTAssertEqual(try route(nodes, ways, r, start: 1, 5, to: 4), [1, 5, 4])
        XCTAssertEqual(try route(nodes, ways, r, start: 2, 5, to: 4), [2, 5, 4])
    }

    func testGenericNoValueForbidsAndOnRedDoesNot() throws {
        let (nodes, ways) = cross()
        // (Turning back at b or at c costs the same.)
        let detour = try XCTUnwrap(try route(nodes, ways, [restriction(1, "no_weird_zigzags", from: [1], viaNode: 5, to: [4])], start: 1, 5, to: 4))
        XCTAssertEqual(detour.count, 5)
        XCTAssertNotEqual(detour, [1, 5, 4])
        XCTAssertEqual(try route(nodes, ways, [restriction(1, "no_right_turn_on_red", from: [1], viaNode: 5, to: [4])], start: 1, 5, to: 4),
                       [1, 5, 4])
    }

    func testConditionalRestrictionIsKeptButNotApplied() throws {
        let (nodes, ways) = cross()
        let r = [OSMRelation(id: 1, members: [(.way, 1, "from"), (.node, 5, "via"), (.way, 4, "to")],
                             tags: [("type", "restriction"), ("restriction:conditional", "no_right_turn @ (Mo-Fr 07:00-10:30)")])]
        XCTAssertEqual(RoadGraph(tiles: try tiles(ofHandMade: nodes, ways, r)).restrictions.map(\.condition), ["Mo-Fr 07:00-10:30"])
        XCTAssertEqual(try route(nodes, ways, r, start: 1, 5, to: 4), [1, 5, 4])
    }

    /// restrictions.feature "Ambiguous ways": the to way runs on through the via node, so which
    /// branch is meant is unknown; OSRM ignores the restriction, so both branches stay open.
    func testAmbiguousToWayIsIgnored() throws {
        let g = 0.001
        func n(_ id: Int64, _ x: Double, _ y: Double) -> OSMNode { OSMNode(id: id, lat: 47.1 + y * g, lon: 9.51 + x * g) }
        // x---a----b-----c---z, with d below b
        let nodes = [n(1, 0, 1), n(2, 1, 1), n(3, 2, 1), n(4, 3, 1), n(5, 4, 1), n(6, 2, 0)]
        let ways = [road(1, [2, 3, 4]), road(2, [3, 6]), road(3, [1, 2]), road(4, [4, 5])]
        let r = [restriction(1, "no_left_turn", from: [2], viaNode: 3, to: [1])]
        XCTAssertEqual(try tiles(ofHandMade: nodes, ways, r).flatMap(\.restrictions).count, 0)
        // (a and c are merged away: the merged edges run from b to x and z.)
        XCTAssertEqual(try route(nodes, ways, r, start: 6, 3, to: 1), [6, 3, 1])
        XCTAssertEqual(try route(nodes, ways, r, start: 6, 3, to: 5), [6, 3, 5])
    }

    func testRestrictionsOnWaysThatAreNotDrivableAreIgnored() throws {
        var (nodes, ways) = cross()
        nodes = Array(nodes)
        ways[3] = OSMWay(id: 4, refs: [4, 5], tags: [("highway", "footway")])
        let r = [restriction(1, "only_straight_on", from: [1], viaNode: 5, to: [4])]
        // Kept in the tiles (a walker's graph reads it), not in the car's graph.
        XCTAssertEqual(try tiles(ofHandMade: nodes, ways, r).flatMap(\.restrictions).count, 1)
        XCTAssertEqual(RoadGraph(tiles: try tiles(ofHandMade: nodes, ways, r)).restrictions.count, 0)
        XCTAssertEqual(try route(nodes, ways, r, start: 1, 5, to: 2), [1, 5, 2])
    }
}
