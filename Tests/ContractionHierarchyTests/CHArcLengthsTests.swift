import XCTest
@testable import ContractionHierarchy
import TestSupport

/// The arc sums' cache is lossy: evicted sums are found again from their halves, so any cache
/// size gives the same sums, and each equals the sum over the arc's unpacked path.
final class CHArcLengthsTests: XCTestCase {
    func testSumsAreTheUnpackedPathsWhateverTheCacheSize() {
        let g = TestGraphs.edgeBasedRoadGraph(targetNodes: 3000, seed: 7)
        let built = ContractionHierarchyBuilder.build(nodeCount: g.nodeCount, arcs: g.arcs, options: ExactnessChecker.roundsOptions)
        let storage = CHGraphStorage(built)
        let view = storage.view
        let metric = CHNodeMetric { r in r % 97 + 3 }
        let tiny = CHArcLengths(graph: view, metric: metric, maxSlots: 2)
        let roomy = CHArcLengths(graph: view, metric: metric, maxSlots: 1 << 20)
        let query = CHQuery(storage: storage)
        var shortcuts = 0
        for r in 0..<view.nodeCount {
            for a in Int(view.firstOut[r])..<Int(view.firstOut[r + 1]) {
                let arc = view.arcs[a]
                for bit in [CHDirection.forward, CHDirection.backward] where arc.allows(bit) {
                    let sum = tiny.length(arc: a, tail: UInt32(r), bit: bit)
                    XCTAssertEqual(sum, roomy.length(arc: a, tail: UInt32(r), bit: bit), "arc \(a)")
                    // The arc's own path: unpack it alone.
                    let (from, to) = bit == CHDirection.forward ? (UInt32(r), arc.head) : (arc.head, UInt32(r))
                    var stack: [CHQuery.PendingArc] = [(from, to, view.middle[a], arc.weight)]
                    var nodes: [UInt32] = [from], arcWeights: [UInt32] = []
                    XCTAssertTrue(query.unpack(&stack, into: &nodes, arcWeights: &arcWeights))
                    XCTAssertEqual(sum, nodes.dropFirst().reduce(UInt64(0)) { $0 + UInt64(metric.value($1)) }, "arc \(a)")
                    // The original arcs' weights add up to the arc's, one per arc.
                    XCTAssertEqual(arcWeights.count, nodes.count - 1, "arc \(a)")
                    XCTAssertEqual(arcWeights.reduce(UInt64(0)) { $0 + UInt64($1) }, UInt64(arc.weight), "arc \(a)")
                    if view.middle[a] != UInt32.max { shortcuts += 1 }
                }
            }
        }
        XCTAssertGreaterThan(shortcuts, 1000)
    }
}
