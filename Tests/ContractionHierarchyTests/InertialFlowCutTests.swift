import ContractionHierarchy
@testable import CustomizableHierarchy
import TestSupport
import XCTest

/// The inertial-flow separator against what a grid's geometry says it must be: between the left
/// and right quarters of a W × H grid the smallest node separator is one column (H nodes), and no
/// arc joins the two sides it leaves. Several paths are pushed per search; the cut must still be a
/// minimum one.
final class InertialFlowCutTests: XCTestCase {
    private func grid(width: Int, height: Int, diagonals: Bool) -> (CSRGraph, [UInt32]) {
        var arcs = ArcList()
        func id(_ x: Int, _ y: Int) -> UInt32 { UInt32(y * width + x) }
        func join(_ a: UInt32, _ b: UInt32) {
            arcs.append(tail: a, head: b, weight: 0)
            arcs.append(tail: b, head: a, weight: 0)
        }
        for y in 0..<height {
            for x in 0..<width {
                if x + 1 < width { join(id(x, y), id(x + 1, y)) }
                if y + 1 < height { join(id(x, y), id(x, y + 1)) }
                if diagonals && x + 1 < width && y + 1 < height { join(id(x, y), id(x + 1, y + 1)) }
            }
        }
        // Sorted by x, then y: the projection on the east direction.
        let sorted = (0..<width).flatMap { x in (0..<height).map { y in id(x, y) } }
        return (CSRGraph(nodeCount: width * height, arcs: arcs), sorted)
    }

    func testSeparatorOfAGridIsOneColumnAndSeparates() throws {
        for (width, height, diagonals) in [(40, 12, false), (40, 25, true), (9, 30, false)] {
            let (graph, sorted) = grid(width: width, height: height, diagonals: diagonals)
            var flow = InertialFlowCut(adjacency: graph)
            let cut = try XCTUnwrap(flow.separator(sortedNodes: sorted), "\(width)×\(height)")
            XCTAssertEqual(cut.separator.count, height, "\(width)×\(height) diagonals \(diagonals)")
            XCTAssertEqual(cut.separator.count + cut.sourceSide.count + cut.sinkSide.count, width * height)
            var side = [UInt8](repeating: 0, count: width * height)
            for v in cut.sourceSide { side[Int(v)] = 1 }
            for v in cut.sinkSide { side[Int(v)] = 2 }
            for v in 0..<graph.nodeCount where side[v] != 0 {
                for a in Int(graph.firstOut[v])..<Int(graph.firstOut[v + 1]) {
                    let w = Int(graph.head[a])
                    XCTAssertFalse(side[w] != 0 && side[w] != side[v], "arc \(v)-\(w) crosses the cut")
                }
            }
            // Both sides keep at least the quarter they started from.
            XCTAssertGreaterThanOrEqual(cut.sourceSide.count, width * height / 4)
            XCTAssertGreaterThanOrEqual(cut.sinkSide.count, width * height / 4)
        }
    }

    func testLimitStopsAFlowThatCannotBeatIt() throws {
        let (graph, sorted) = grid(width: 30, height: 15, diagonals: false)
        var flow = InertialFlowCut(adjacency: graph)
        XCTAssertNil(flow.separator(sortedNodes: sorted, limit: 15), "a cut of 15 is not below 15")
        let cut = try XCTUnwrap(flow.separator(sortedNodes: sorted, limit: 16))
        XCTAssertEqual(cut.separator.count, 15)
        // The same instance again, unlimited: no state left over from the stopped flow.
        XCTAssertEqual(flow.separator(sortedNodes: sorted)?.separator.count, 15)
    }
}
