import OSMPBF
import RoutingGraph
import RoutingProfile
import XCTest

/// A junction C with roads to W, E, N and S, and two bypasses E–N and E–S:
///
///          N
///        / |
///   W — C — E
///        \ |
///          S
///
/// Turn restrictions at C must force the detours through E.
final class TurnRestrictionTests: XCTestCase {
    let nodes = [
        OSMNode(id: 1, lat: 47.10, lon: 9.50), OSMNode(id: 2, lat: 47.10, lon: 9.51), OSMNode(id: 3, lat: 47.10, lon: 9.52),
        OSMNode(id: 4, lat: 47.11, lon: 9.51), OSMNode(id: 5, lat: 47.09, lon: 9.51),
    ]
    func ways() -> [OSMWay] {
        func road(_ id: Int64, _ a: Int64, _ b: Int64, _ name: String) -> OSMWay {
            OSMWay(id: id, refs: [a, b], tags: [("highway", "residential"), ("name", name)])
        }
        return [road(10, 1, 2, "West"), road(11, 2, 3, "East"), road(12, 2, 4, "North"), road(13, 2, 5, "South"),
                road(14, 3, 4, "Northeast"), road(15, 3, 5, "Southeast")]
    }

    /// The OSM node sequence of the best route from W (having driven W→C) to a node.
    func route(to target: Int64, _ relations: [OSMRelation]) throws -> [Int64] {
        let g = ChainCompression.compress(RoadGraph(tiles: try tiles(ofHandMade: nodes, ways(), relations)))
        let eb = EdgeBasedGraph(g, profile: TravelProfile.embeddedDefault)
        let (start, forward) = try XCTUnwrap(g.edge(1, 2))
        let source = eb.nodeOfEdgeDirection[2 * start + (forward ? 0 : 1)]
        // Any direction of travel that ends at the target node.
        var targets = Set<UInt32>()
        for e in 0..<g.edgeCount {
            if g.nodeOsmId[Int(g.edgeTo[e])] == target, eb.nodeOfEdgeDirection[2 * e] != UInt32.max { targets.insert(eb.nodeOfEdgeDirection[2 * e]) }
            if g.nodeOsmId[Int(g.edgeFrom[e])] == target, eb.nodeOfEdgeDirection[2 * e + 1] != UInt32.max { targets.insert(eb.nodeOfEdgeDirection[2 * e + 1]) }
        }
        let (_, path) = try XCTUnwrap(oracleShortestPath(eb, from: [source], to: targets))
        var osm: [Int64] = [1]
        for v in path {
            let ed = Int(eb.edgeDirectionOfNode[Int(v)])
            let e = ed >> 1
            osm.append(g.nodeOsmId[Int(ed & 1 == 0 ? g.edgeTo[e] : g.edgeFrom[e])])
        }
        return osm
    }

    func restriction(_ value: String, from: Int64, to: Int64, key: String = "restriction") -> OSMRelation {
        OSMRelation(id: from * 100 + to, members: [(.way, from, "from"), (.node, 2, "via"), (.way, to, "to")],
                    tags: [("type", "restriction"), (key, value)])
    }

    func testWithoutRestrictionsTheTurnIsDirect() throws {
        XCTAssertEqual(try route(to: 4, []), [1, 2, 4])
        XCTAssertEqual(try route(to: 5, []), [1, 2, 5])
    }

    func testNoLeftTurnForcesTheDetour() throws {
        XCTAssertEqual(try route(to: 4, [restriction("no_left_turn", from: 10, to: 12)]), [1, 2, 3, 4])
        // Other turns are untouched.
        XCTAssertEqual(try route(to: 5, [restriction("no_left_turn", from: 10, to: 12)]), [1, 2, 5])
    }

    func testOnlyStraightOnForbidsTheOthers() throws {
        let only = [restriction("only_straight_on", from: 10, to: 11, key: "restriction:motorcar")]
        XCTAssertEqual(try route(to: 4, only), [1, 2, 3, 4])
        XCTAssertEqual(try route(to: 5, only), [1, 2, 3, 5])
        XCTAssertEqual(try route(to: 3, only), [1, 2, 3])
    }

    func testRestrictionsForOtherVehiclesAreIgnored() throws {
        let r = OSMRelation(id: 1, members: [(.way, 10, "from"), (.node, 2, "via"), (.way, 12, "to")],
                            tags: [("type", "restriction"), ("restriction", "no_left_turn"), ("except", "motorcar")])
        XCTAssertEqual(try route(to: 4, [r]), [1, 2, 4])
    }

    func testTurnCountsAndPenalties() throws {
        let g = ChainCompression.compress(RoadGraph(tiles: try tiles(ofHandMade: nodes, ways(), [restriction("no_left_turn", from: 10, to: 12)])))
        let eb = EdgeBasedGraph(g, profile: TravelProfile.embeddedDefault)
        XCTAssertEqual(g.edgeCount, 6)
        XCTAssertEqual(eb.nodeCount, 12)
        XCTAssertEqual(eb.restrictedTurns, 1)
        XCTAssertEqual(eb.uTurns, 1)   // OSRM's rule: only at the dead end W, at no junction
        // A left turn costs more than going straight on the same junction (right-hand traffic).
        let (wc, _) = try XCTUnwrap(g.edge(1, 2))
        let (ce, _) = try XCTUnwrap(g.edge(2, 3))
        let (cs, _) = try XCTUnwrap(g.edge(2, 5))
        func arcWeight(_ a: Int, _ b: Int) -> UInt32? {
            let from = eb.nodeOfEdgeDirection[a], to = eb.nodeOfEdgeDirection[b]
            return (0..<eb.arcs.tails.count).first { eb.arcs.tails[$0] == from && eb.arcs.heads[$0] == to }.map { eb.arcs.weights[$0] - eb.nodeWeight[Int(to)] }
        }
        let straight = try XCTUnwrap(arcWeight(2 * wc, 2 * ce))
        let right = try XCTUnwrap(arcWeight(2 * wc, 2 * cs))
        XCTAssertLessThan(straight, right)
        XCTAssertNil(arcWeight(2 * wc, 2 * wc + 1), "no U-turn at a usual junction")

        // With U-turns anywhere: one for each direction arriving at a node, dearer than any turn.
        var settings = TravelProfile.embeddedDefault.settings
        settings.uTurns = .anywhere
        let anywhere = EdgeBasedGraph(g, profile: TravelProfile(settings: settings))
        XCTAssertEqual(anywhere.uTurns, 12)
        let uTurn = try XCTUnwrap((0..<anywhere.arcs.tails.count).first {
            anywhere.arcs.tails[$0] == anywhere.nodeOfEdgeDirection[2 * wc] && anywhere.arcs.heads[$0] == anywhere.nodeOfEdgeDirection[2 * wc + 1]
        })
        XCTAssertGreaterThan(anywhere.arcs.weights[uTurn] - anywhere.nodeWeight[Int(anywhere.nodeOfEdgeDirection[2 * wc + 1])], right)
    }

    func testDeadEndAllowsTheUTurn() throws {
        let nodes = [OSMNode(id: 1, lat: 47.10, lon: 9.50), OSMNode(id: 2, lat: 47.10, lon: 9.51)]
        let ways = [OSMWay(id: 1, refs: [1, 2], tags: [("highway", "residential")])]
        let g = ChainCompression.compress(RoadGraph(tiles: try tiles(ofHandMade: nodes, ways)))
        let eb = EdgeBasedGraph(g, profile: TravelProfile.embeddedDefault)
        XCTAssertEqual(eb.uTurns, 2)
        // 20 s U-turn penalty on top of the drive back.
        XCTAssertTrue(zip(eb.arcs.heads, eb.arcs.weights).allSatisfy { $1 >= eb.nodeWeight[Int($0)] + 200 })
    }
}
