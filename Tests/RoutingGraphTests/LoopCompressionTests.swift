import OSMPBF
import RoutingGraph
import XCTest

/// Loops never become an edge from a node back to itself (the turn graph has no arc from such an
/// edge onto itself, so a route on it could not reach a point behind its start): a ring road
/// alone, and a loop at the end of a road, keep a node half-way round.
///
///     1 — 2 — 3          a road 1–2 and a loop 2–3–4–5–2 at its end
///         |   |
///         5 — 4
final class LoopCompressionTests: XCTestCase {
    let nodes = [OSMNode(id: 1, lat: 47.10, lon: 9.50), OSMNode(id: 2, lat: 47.10, lon: 9.51),
                 OSMNode(id: 3, lat: 47.10, lon: 9.52), OSMNode(id: 4, lat: 47.09, lon: 9.52),
                 OSMNode(id: 5, lat: 47.09, lon: 9.51)]

    func compressed(_ ways: [OSMWay]) throws -> RoadGraph {
        ChainCompression.compress(RoadGraph(tiles: try tiles(ofHandMade: nodes, ways)))
    }

    func assertNoSelfLoop(_ g: RoadGraph, _ what: String) {
        XCTAssertTrue((0..<g.edgeCount).allSatisfy { g.edgeFrom[$0] != g.edgeTo[$0] }, what)
    }

    func testARingRoadAloneKeepsTwoNodes() throws {
        let ring = OSMWay(id: 10, refs: [2, 3, 4, 5, 2], tags: [("highway", "primary"), ("junction", "roundabout")])
        let g = try compressed([ring])
        assertNoSelfLoop(g, "the ring alone")
        XCTAssertEqual(g.edgeCount, 2)
        XCTAssertEqual(g.edgeLengthCm.reduce(0, +), RoadGraph(tiles: try tiles(ofHandMade: nodes, [ring])).edgeLengthCm.reduce(0, +),
                       "the whole ring still")
    }

    /// The loop drawn as three ways, so that its nodes 3 and 4 would be merged away.
    func loop() -> [OSMWay] {
        [OSMWay(id: 11, refs: [2, 3], tags: [("highway", "residential")]),
         OSMWay(id: 12, refs: [3, 4], tags: [("highway", "residential")]),
         OSMWay(id: 13, refs: [4, 5, 2], tags: [("highway", "residential")])]
    }

    func testALoopAtTheEndOfARoadKeepsANodeHalfWayRound() throws {
        let g = try compressed([OSMWay(id: 10, refs: [1, 2], tags: [("highway", "residential")])] + loop())
        assertNoSelfLoop(g, "the loop at the road's end")
        XCTAssertEqual(g.edgeCount, 3, "the road and the loop in two halves")
    }

    func testARingOfMergeableNodesKeepsTwo() throws {
        let g = try compressed(loop())
        assertNoSelfLoop(g, "the ring of three ways")
        XCTAssertEqual(g.edgeCount, 2)
    }
}
