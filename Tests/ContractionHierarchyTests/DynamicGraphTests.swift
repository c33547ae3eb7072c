import XCTest
@testable import ContractionHierarchy

/// The dynamic graph's batch insertion: room reserved up front (through a pool rebuild when the
/// pool is too small), then arcs added with no block moving.
final class DynamicGraphTests: XCTestCase {
    /// Contracting the centre of a 100-in, 100-out star needs 10,000 shortcuts: far more room
    /// than the pool's slack, so `reserveRoom` must rebuild the pool before growing the blocks.
    func testReserveRoomThroughAPoolRebuildThenInsertsEveryShortcut() {
        let ins = 1...100, outs = 101...200
        var arcs = ArcList()
        for u in ins { arcs.append(tail: UInt32(u), head: 0, weight: 1) }
        for w in outs { arcs.append(tail: 0, head: UInt32(w), weight: UInt32(w)) }
        // An existing arc 1 → 101 heavier than the shortcut: improved in place, not added.
        arcs.append(tail: 1, head: 101, weight: 500)
        let graph = DynamicGraph(nodeCount: 201, arcs: arcs)
        let poolBefore = graph.memoryBytes
        let shortcuts = ShortcutList()
        for u in ins {
            for w in outs { shortcuts.append(tail: UInt32(u), head: UInt32(w), weight: UInt32(1 + w), hops: 2) }
        }
        graph.reserveRoom(for: [DecidedContraction(node: 0, list: shortcuts, shortcuts: 0..<shortcuts.count)])
        XCTAssertGreaterThan(graph.memoryBytes, poolBefore, "the pool was rebuilt larger")

        for s in graph.slots(0, DynamicGraph.inSide) { graph.removeFromBlock(Int(graph.neighbour(s)), DynamicGraph.outSide, 0) }
        for s in graph.slots(0, DynamicGraph.outSide) { graph.removeFromBlock(Int(graph.neighbour(s)), DynamicGraph.inSide, 0) }
        var added = -graph.clearNode(0)
        for k in 0..<shortcuts.count {
            added += graph.addOrImprove(tail: shortcuts.tail[k], head: shortcuts.head[k], weight: shortcuts.weight[k],
                                        middle: 0, hops: shortcuts.hops[k])
        }
        graph.countArcs(added: added)
        XCTAssertEqual(graph.arcCount, 10_000)
        for u in ins {
            let heads = graph.slots(u, DynamicGraph.outSide).map { (graph.neighbour($0), graph.weight($0)) }
            XCTAssertEqual(heads.sorted { $0.0 < $1.0 }.map { $0.0 }, outs.map { UInt32($0) })
            XCTAssertEqual(heads.map { $0.1 }.sorted(), outs.map { UInt32(1 + $0) }, "node \(u): shortcut weights")
        }
        for w in outs {
            XCTAssertEqual(graph.slots(w, DynamicGraph.inSide).map { graph.neighbour($0) }.sorted(), ins.map { UInt32($0) })
        }
        XCTAssertEqual(graph.degree(0, DynamicGraph.inSide) + graph.degree(0, DynamicGraph.outSide), 0)
    }
}
