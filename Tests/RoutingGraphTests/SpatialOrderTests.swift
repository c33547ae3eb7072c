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
        // Edges along roads: where a road goes on past a node (an edge of the same name and class
        // there), it mostly goes on in the next or the previous edge.
        let (first, ends) = p.edgeEnds()
        var continued = 0, adjacent = 0
        for e in 0..<p.edgeCount {
            for v in [Int(p.edgeFrom[e]), Int(p.edgeTo[e])] {
                let same = (Int(first[v])..<Int(first[v + 1])).map { Int(ends[$0] >> 1) }
                    .filter { $0 != e && p.edgeName[$0] == p.edgeName[e] && p.edgeRoadClass[$0] == p.edgeRoadClass[e] }
                guard !same.isEmpty else { continue }
                continued += 1
                if same.contains(where: { abs($0 - e) == 1 }) { adjacent += 1 }
            }
        }
        XCTAssertGreaterThan(adjacent * 2, continued, "\(adjacent) of \(continued) roads going on past a node go on next to their edge")
        // The first run starts at the node first by place, and nodes are numbered as runs reach them.
        let keys = (0..<g.nodeCount).map { mortonKey(latE7: g.nodeLatE7[$0], lonE7: g.nodeLonE7[$0]) }
        let firstByPlace = (0..<g.nodeCount).min { (keys[$0], $0) < (keys[$1], $1) }!
        XCTAssertEqual(p.nodeOsmId[0], g.nodeOsmId[firstByPlace])
        func medianEndGap(_ graph: RoadGraph) -> Int {
            let gaps = (0..<graph.edgeCount).map { abs(Int(graph.edgeFrom[$0]) - Int(graph.edgeTo[$0])) }.sorted()
            return gaps[gaps.count / 2]
        }
        XCTAssertLessThan(medianEndGap(p) * 4, medianEndGap(g), "an edge's two nodes: placed \(medianEndGap(p)) apart, before \(medianEndGap(g))")
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
