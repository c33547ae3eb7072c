import RoutingGraph
import TileMath
import XCTest

/// The road graph as the file stores it, renumbered by place (`orderBySpace`).
final class SpatialOrderTests: XCTestCase {
    func testThePlacedGraphIsTheSameNetworkInPlaceOrder() throws {
        let g = ChainCompression.compress(RoadGraph(tiles: try tiles(ofPBF: samplePBF)))
        var p = g
        let renumbering = p.orderBySpace()
        XCTAssertEqual(p.nodeCount, g.nodeCount)
        XCTAssertEqual(p.edgeCount, g.edgeCount)
        XCTAssertEqual(p.shapeLatE7.count, g.shapeLatE7.count)
        XCTAssertEqual(Set(renumbering.newEdge).count, g.edgeCount, "a permutation of the edges")
        // Nodes by Morton key, edges grouped by start node in node order.
        let keys = (0..<p.nodeCount).map { mortonKey(latE7: p.nodeLatE7[$0], lonE7: p.nodeLonE7[$0]) }
        XCTAssertTrue(zip(keys, keys.dropFirst()).allSatisfy { $0 <= $1 }, "nodes sorted by place")
        XCTAssertTrue(zip(p.edgeFrom, p.edgeFrom.dropFirst()).allSatisfy { $0 <= $1 }, "edges grouped by start node")
        // Every edge is the same road: its ends (by OSM id), shape, length, speeds, names and flags.
        for e in 0..<g.edgeCount {
            let n = Int(renumbering.newEdge[e])
            XCTAssertEqual(p.nodeOsmId[Int(p.edgeFrom[n])], g.nodeOsmId[Int(g.edgeFrom[e])])
            XCTAssertEqual(p.nodeOsmId[Int(p.edgeTo[n])], g.nodeOsmId[Int(g.edgeTo[e])])
            let old = Int(g.shapeFirst[e])..<Int(g.shapeFirst[e + 1]), new = Int(p.shapeFirst[n])..<Int(p.shapeFirst[n + 1])
            XCTAssertEqual(Array(p.shapeLatE7[new]), Array(g.shapeLatE7[old]))
            XCTAssertEqual(Array(p.shapeLonE7[new]), Array(g.shapeLonE7[old]))
            XCTAssertEqual(p.edgeLengthCm[n], g.edgeLengthCm[e])
            XCTAssertEqual(p.edgeSpeedForward[n], g.edgeSpeedForward[e])
            XCTAssertEqual(p.edgeSpeedBackward[n], g.edgeSpeedBackward[e])
            XCTAssertEqual(p.edgeName[n], g.edgeName[e])
            XCTAssertEqual(p.edgeRef[n], g.edgeRef[e])
            XCTAssertEqual(p.edgeFlags[n], g.edgeFlags[e])
            XCTAssertEqual(p.edgeRoadClass[n], g.edgeRoadClass[e])
            XCTAssertEqual(renumbering.edgeDirection(UInt32(2 * e + 1)), UInt32(2 * n + 1))
        }
        for v in 0..<g.nodeCount where v % 7 == 0 {
            let i = p.nodeOsmId.firstIndex(of: g.nodeOsmId[v])!
            XCTAssertEqual(p.nodeLatE7[i], g.nodeLatE7[v])
            XCTAssertEqual(p.nodeControl[i], g.nodeControl[v])
        }
        // The point of it: consecutive edges of a road lie close in the array. Along each edge's
        // successors at its end node, the index gap is far smaller than in OSM id / tile order.
        func medianGap(_ graph: RoadGraph) -> Int {
            let (first, ends) = graph.edgeEnds()
            var gaps: [Int] = []
            for e in 0..<graph.edgeCount {
                let v = Int(graph.edgeTo[e])
                for i in Int(first[v])..<Int(first[v + 1]) where Int(ends[i] >> 1) != e { gaps.append(abs(Int(ends[i] >> 1) - e)) }
            }
            return gaps.sorted()[gaps.count / 2]
        }
        XCTAssertLessThan(medianGap(p) * 4, medianGap(g), "placed \(medianGap(p)), before \(medianGap(g))")
    }
}
