import OSMPBF
import RoutingGraph
import RoutingProfile
import RoutingTiles
import XCTest

/// The rules of the road as the graph applies them, on hand-made networks: barriers, U-turns,
/// restricted access, ferries at their duration, startpoints.
///
///   1 — 2 — 3          a straight road W (1–2) and E (2–3),
///       |              with a side road 2–4 to the south
///       4
final class RulesOfTheRoadGraphTests: XCTestCase {
    let nodes = [OSMNode(id: 1, lat: 47.10, lon: 9.50), OSMNode(id: 2, lat: 47.10, lon: 9.51),
                 OSMNode(id: 3, lat: 47.10, lon: 9.52), OSMNode(id: 4, lat: 47.09, lon: 9.51)]

    func graph(nodes: [OSMNode]? = nil, _ ways: [OSMWay], profile: TravelProfile = .embeddedDefault) throws -> (RoadGraph, EdgeBasedGraph) {
        let g = ChainCompression.compress(RoadGraph(tiles: try tiles(ofHandMade: nodes ?? self.nodes, ways)))
        return (g, EdgeBasedGraph(g, profile: profile))
    }

    func road(_ id: Int64, _ refs: [Int64], _ tags: [(String, String)] = []) -> OSMWay {
        OSMWay(id: id, refs: refs, tags: [("highway", "residential"), ("name", "r\(id)")] + tags)
    }

    /// Edge-based node of driving a → b.
    func node(_ g: RoadGraph, _ eb: EdgeBasedGraph, _ a: Int64, _ b: Int64) throws -> UInt32 {
        let (e, forward) = try XCTUnwrap(g.edge(a, b))
        return eb.nodeOfEdgeDirection[2 * e + (forward ? 0 : 1)]
    }

    func arc(_ eb: EdgeBasedGraph, _ a: UInt32, _ b: UInt32) -> UInt32? {
        for i in 0..<eb.arcs.tails.count where eb.arcs.tails[i] == a && eb.arcs.heads[i] == b { return eb.arcs.weights[i] }
        return nil
    }

    func testABarrierLetsRoutesTurnBackButNotPass() throws {
        var withBollard = nodes
        withBollard[1] = OSMNode(id: 2, lat: 47.10, lon: 9.51, tags: [("barrier", "bollard")])
        let (g, eb) = try graph(nodes: withBollard, [road(10, [1, 2, 3]), road(11, [2, 4])])
        let west = try node(g, eb, 1, 2)
        XCTAssertNil(arc(eb, west, try node(g, eb, 2, 3)), "no way through the bollard")
        XCTAssertNil(arc(eb, west, try node(g, eb, 2, 4)))
        XCTAssertNotNil(arc(eb, west, try node(g, eb, 2, 1)), "turning back at it")

        let (g2, eb2) = try graph([road(10, [1, 2, 3]), road(11, [2, 4])])
        XCTAssertNotNil(arc(eb2, try node(g2, eb2, 1, 2), try node(g2, eb2, 2, 3)), "without the bollard the road goes on")
    }

    func testAGateWithAccessNoBlocksAndAPrivateGatePasses() throws {
        for (tags, blocks) in [([("barrier", "gate"), ("access", "no")], true), ([("barrier", "gate"), ("access", "private")], false),
                               ([("barrier", "gate")], false)] {
            var n = nodes
            n[1] = OSMNode(id: 2, lat: 47.10, lon: 9.51, tags: tags)
            let (g, eb) = try graph(nodes: n, [road(10, [1, 2]), road(12, [2, 3])])
            XCTAssertEqual(arc(eb, try node(g, eb, 1, 2), try node(g, eb, 2, 3)) == nil, blocks, "\(tags)")
        }
    }

    /// OSRM's rule (the default, `notAtIntersections`): no U-turn at a usual junction; at a
    /// dead end, a turning circle, or where the road arrived on is the only way in.
    func testUTurnsNotAtIntersectionsAnywhereOrOnlyAtDeadEnds() throws {
        let ways = [road(10, [1, 2]), road(12, [2, 3]), road(11, [2, 4])]
        let (g, eb) = try graph(ways)
        XCTAssertNil(arc(eb, try node(g, eb, 1, 2), try node(g, eb, 2, 1)), "no U-turn at a junction")
        XCTAssertNotNil(arc(eb, try node(g, eb, 2, 4), try node(g, eb, 4, 2)), "a dead end has one")

        var circle = nodes
        circle[1] = OSMNode(id: 2, lat: 47.10, lon: 9.51, tags: [("highway", "turning_circle")])
        let (gc, ebc) = try graph(nodes: circle, ways)
        XCTAssertNotNil(arc(ebc, try node(gc, ebc, 1, 2), try node(gc, ebc, 2, 1)), "at a turning circle")

        // The other two roads one-way out of the junction: the road arrived on is the only way in.
        let oneways = [road(10, [1, 2]), road(12, [2, 3], [("oneway", "yes")]), road(11, [2, 4], [("oneway", "yes")])]
        let (go, ebo) = try graph(oneways)
        XCTAssertNotNil(arc(ebo, try node(go, ebo, 1, 2), try node(go, ebo, 2, 1)), "the only way in")

        var settings = TravelProfile.embeddedDefault.settings
        settings.uTurns = .anywhere
        let (ga, eba) = try graph(ways, profile: TravelProfile(settings: settings))
        let uTurn = try XCTUnwrap(arc(eba, try node(ga, eba, 1, 2), try node(ga, eba, 2, 1)), "anywhere: at a junction too")
        XCTAssertGreaterThanOrEqual(uTurn, eba.nodeWeight[Int(try node(ga, eba, 2, 1))] + 200, "at the U-turn penalty")

        settings.uTurns = .deadEnds
        let (g2, eb2) = try graph(nodes: circle, ways, profile: TravelProfile(settings: settings))
        XCTAssertNil(arc(eb2, try node(g2, eb2, 1, 2), try node(g2, eb2, 2, 1)), "deadEnds: not even at a turning circle")
        XCTAssertNotNil(arc(eb2, try node(g2, eb2, 2, 4), try node(g2, eb2, 4, 2)), "dead ends keep theirs")
    }

    func testEnteringADestinationOnlyRoadCostsThePenalty() throws {
        let (g, eb) = try graph([road(10, [1, 2]), road(12, [2, 3], [("access", "destination")]), road(11, [2, 4])])
        let into = try node(g, eb, 2, 3), side = try node(g, eb, 2, 4)
        let restricted = try XCTUnwrap(arc(eb, try node(g, eb, 1, 2), into)) - eb.nodeWeight[Int(into)]
        let open = try XCTUnwrap(arc(eb, try node(g, eb, 1, 2), side)) - eb.nodeWeight[Int(side)]
        XCTAssertGreaterThanOrEqual(restricted, open + 6000 - 100, "600 s more than an ordinary turn (turn costs differ a little)")
        XCTAssertLessThan(try XCTUnwrap(arc(eb, try node(g, eb, 3, 2), try node(g, eb, 2, 1))), 1000, "leaving it is free")
    }

    func testAFerryTakesItsDuration() throws {
        let ferry = OSMWay(id: 20, refs: [1, 2], tags: [("route", "ferry"), ("duration", "00:10")])
        let (g, eb) = try graph([ferry, road(12, [2, 3])])
        let crossing = try node(g, eb, 1, 2)
        XCTAssertEqual(Double(eb.nodeWeight[Int(crossing)]), 6000, accuracy: 60, "10 minutes, whatever the length")
        XCTAssertEqual(g.edgeRoadClass[try XCTUnwrap(g.edge(1, 2)).0], RoadClass.ferry.rawValue)
        XCTAssertNotEqual(g.edgeFlags[try XCTUnwrap(g.edge(1, 2)).0] & EdgeFlags.notStartpoint, 0)
    }

    /// Two ways over the same nodes: per direction only the faster is driven, on a tie the one
    /// whose name sorts first (OSRM keeps one segment per node pair and direction).
    func testOfParallelWaysOnlyTheFasterIsDriven() throws {
        let slow = OSMWay(id: 20, refs: [1, 2], tags: [("highway", "residential"), ("name", "a slow")])
        let fast = OSMWay(id: 21, refs: [1, 2], tags: [("highway", "primary"), ("name", "b fast")])
        var g = RoadGraph(tiles: try tiles(ofHandMade: nodes, [slow, fast, road(12, [2, 3])]))
        XCTAssertEqual(g.keepOneOfParallelEdges(), 2, "both directions of the slow twin")
        let kept = (0..<g.edgeCount).filter { g.edgeSpeedForward[$0] > 0 && g.nodeOsmId[Int(g.edgeFrom[$0])] == 1 }
        XCTAssertEqual(kept.map { g.strings[Int(g.edgeName[$0])] }, ["b fast"])

        let twin = OSMWay(id: 22, refs: [1, 2], tags: [("highway", "residential"), ("name", "c twin")])
        var tie = RoadGraph(tiles: try tiles(ofHandMade: nodes, [twin, slow, road(12, [2, 3])]))
        XCTAssertEqual(tie.keepOneOfParallelEdges(), 2)
        let named = (0..<tie.edgeCount).filter { tie.edgeSpeedBackward[$0] > 0 && tie.nodeOsmId[Int(tie.edgeTo[$0])] == 2 }
        XCTAssertEqual(named.map { tie.strings[Int(tie.edgeName[$0])] }, ["a slow"], "the name that sorts first")

        let other = OSMWay(id: 23, refs: [1, 4, 2], tags: [("highway", "residential"), ("name", "around")])
        var apart = RoadGraph(tiles: try tiles(ofHandMade: nodes, [other, slow, road(12, [2, 3])]))
        XCTAssertEqual(apart.keepOneOfParallelEdges(), 0, "another shape between the same nodes is another road")
    }
}

