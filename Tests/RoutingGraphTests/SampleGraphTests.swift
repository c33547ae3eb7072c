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

    /// Every snapping-grid entry's box holds each of the edge's segments that reach into the
    /// cell, clipped to it (snapping skips an edge by its box: one too small loses roads), and
    /// most boxes are smaller than their cell (or they would skip nothing).
    func testSnappingGridBoxesHoldTheirSegments() throws {
        let g = ChainCompression.compress(RoadGraph(tiles: try tiles(ofPBF: samplePBF)))
        let grid = SegmentGrid(g)
        XCTAssertEqual(grid.cellEdgeBox.count, grid.cellEdges.count)
        let c = Int64(grid.cellE7), columns = Int(grid.columns)
        var checked = 0, smaller = 0
        for cell in 0..<(grid.cellFirst.count - 1) {
            let south = Int64(grid.minLatE7) + Int64(cell / columns) * c, west = Int64(grid.minLonE7) + Int64(cell % columns) * c
            for i in Int(grid.cellFirst[cell])..<Int(grid.cellFirst[cell + 1]) {
                let box = grid.cellEdgeBox[i]
                XCTAssertTrue(CellEdgeBox.isOrdered(box))
                let sides = CellEdgeBox.sides(box, south: south, west: west, cellE7: c)
                if box != CellEdgeBox.wholeCell { smaller += 1 }
                let e = Int(grid.cellEdges[i])
                for k in Int(g.shapeFirst[e])..<(Int(g.shapeFirst[e + 1]) - 1) {
                    let lats = [Int64(g.shapeLatE7[k]), Int64(g.shapeLatE7[k + 1])], lons = [Int64(g.shapeLonE7[k]), Int64(g.shapeLonE7[k + 1])]
                    let latLo = max(lats.min()!, south), latHi = min(lats.max()!, south + c - 1)
                    let lonLo = max(lons.min()!, west), lonHi = min(lons.max()!, west + c - 1)
                    guard latLo <= latHi, lonLo <= lonHi else { continue }
                    XCTAssertTrue(sides.south <= latLo && latHi <= sides.north && sides.west <= lonLo && lonHi <= sides.east,
                                  "cell \(cell) entry \(i) edge \(e) segment \(k): \(sides) vs \(latLo)...\(latHi), \(lonLo)...\(lonHi)")
                    checked += 1
                }
            }
        }
        XCTAssertGreaterThan(checked, 10_000)
        XCTAssertGreaterThan(smaller * 2, grid.cellEdges.count)
    }

    func testComponentsPutTheMainNetworkFirst() throws {
        let g = ChainCompression.compress(RoadGraph(tiles: try tiles(ofPBF: samplePBF)))
        let eb = EdgeBasedGraph(g, profile: TravelProfile.embeddedDefault)
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
