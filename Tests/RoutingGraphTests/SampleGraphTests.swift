import RoutingGraph
import RoutingProfile
import XCTest

/// The node-based and edge-based graphs of the real sample.
final class SampleGraphTests: XCTestCase {
    func testStitchingAndChainCompressionKeepTheNetwork() throws {
        let road = RoadGraph(tiles: try tiles(ofPBF: samplePBF))
        XCTAssertEqual(road.droppedEdges, 0)
        let g = ChainCompression.compress(road)
        XCTAssertLessThan(g.nodeCount, road.nodeCount)
        XCTAssertLessThan(g.edgeCount, road.edgeCount)
        // Merging keeps every centimetre and every shape point (minus the shared joints).
        XCTAssertEqual(g.edgeLengthCm.reduce(0) { $0 + UInt64($1) }, road.edgeLengthCm.reduce(0) { $0 + UInt64($1) })
        XCTAssertEqual(g.shapeLatE7.count, road.shapeLatE7.count - (road.edgeCount - g.edgeCount))
        for e in 0..<g.edgeCount {
            let s = Int(g.shapeFirst[e]), t = Int(g.shapeFirst[e + 1]) - 1
            XCTAssertEqual(g.shapeLatE7[s], g.nodeLatE7[Int(g.edgeFrom[e])])
            XCTAssertEqual(g.shapeLonE7[t], g.nodeLonE7[Int(g.edgeTo[e])])
        }
    }

    func testComponentsPutTheMainNetworkFirst() throws {
        let g = ChainCompression.compress(RoadGraph(tiles: try tiles(ofPBF: samplePBF)))
        let eb = EdgeBasedGraph(g, profile: CarProfile.embeddedDefault)
        var first = [UInt32](repeating: 0, count: eb.nodeCount + 1)
        for t in eb.arcs.tails { first[Int(t) + 1] += 1 }
        for v in 0..<eb.nodeCount { first[v + 1] += first[v] }
        var fill = Array(first[0..<eb.nodeCount])
        var head = [UInt32](repeating: 0, count: eb.arcs.tails.count)
        for i in 0..<eb.arcs.tails.count { head[Int(fill[Int(eb.arcs.tails[i])])] = eb.arcs.heads[i]; fill[Int(eb.arcs.tails[i])] += 1 }
        let (component, sizes) = StronglyConnectedComponents.compute(nodeCount: eb.nodeCount, firstOut: first, head: head)
        XCTAssertEqual(sizes, sizes.sorted(by: >))
        XCTAssertGreaterThan(Double(sizes[0]) / Double(eb.nodeCount), 0.9)
        XCTAssertEqual(sizes.reduce(0, +), eb.nodeCount)
        // Within the main component every node reaches every other: check from one node.
        let main = (0..<eb.nodeCount).filter { component[$0] == 0 }
        var seen = Set<Int>([main[0]]), stack = [main[0]]
        while let v = stack.popLast() {
            for i in Int(first[v])..<Int(first[v + 1]) where seen.insert(Int(head[i])).inserted { stack.append(Int(head[i])) }
        }
        XCTAssertTrue(Set(main).isSubset(of: seen))
    }
}
