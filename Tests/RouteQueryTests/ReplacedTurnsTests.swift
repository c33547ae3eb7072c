import ContractionHierarchy
import CustomizableHierarchy
import RouteQuery
import RoutingGraph
import TestSupport
import XCTest

/// Section chReplacedTurns (graph format 12): the turns the contraction hierarchy dropped because
/// a path through lower ranks was no longer. Under the default weights they change no distance;
/// with roads removed some of them are the only way left, so the customizable turn graph needs them.
final class ReplacedTurnsTests: XCTestCase {
    /// Every turn of the file: the hierarchy's real arcs and the replaced ones.
    static func allTurns(_ data: RoutingData) -> (real: CSRGraph, replaced: [(tail: UInt32, head: UInt32, weight: UInt32)]) {
        let section: UnsafeBufferPointer<UInt32> = data.file.array(.chReplacedTurns)
        let replaced = stride(from: 0, to: section.count, by: 3).map { (section[$0], section[$0 + 1], section[$0 + 2]) }
        return (data.ch.originalGraph(), replaced)
    }

    static func graph(_ real: CSRGraph, _ replaced: [(tail: UInt32, head: UInt32, weight: UInt32)],
                      keeping keep: (UInt32, UInt32) -> Bool) -> CSRGraph {
        var arcs = ArcList()
        for v in 0..<real.nodeCount {
            for a in Int(real.firstOut[v])..<Int(real.firstOut[v + 1]) where keep(UInt32(v), real.head[a]) {
                arcs.append(tail: UInt32(v), head: real.head[a], weight: real.weight[a])
            }
        }
        for t in replaced where keep(t.tail, t.head) { arcs.append(tail: t.tail, head: t.head, weight: t.weight) }
        return CSRGraph(nodeCount: real.nodeCount, arcs: arcs)
    }

    func testDefaultMetricEqualsTheHierarchyAndDijkstraAcrossReplacedTurns() throws {
        let data = try RoutingData(path: try SampleGraphFixture.graphPath())
        let (real, replaced) = Self.allTurns(data)
        XCTAssertGreaterThan(replaced.count, 100, "the sample's hierarchy replaces turns")
        let turns = CustomizableTurnGraph(data: data)
        XCTAssertEqual(turns.weights.count, real.arcCount + replaced.count, "every turn is an input arc")
        let cch = CCHQuery(topology: turns.topology, metric: turns.customize(turns.weights))
        let ch = CHQuery(graph: data.ch)
        let dijkstra = DijkstraQuery(Self.graph(real, replaced) { _, _ in true })
        var rng = SplitMix64(seed: 69)
        // The replaced turns' own ends (a path through lower ranks is as short), then random pairs.
        var pairs = (0..<400).map { _ in replaced[rng.below(replaced.count)] }.map { ($0.tail, $0.head) }
        pairs += (0..<400).map { _ in (UInt32(rng.below(data.rankCount)), UInt32(rng.below(data.rankCount))) }
        for (s, t) in pairs {
            let expected = dijkstra.distance(from: s, to: t)
            XCTAssertEqual(ch.distance(from: s, to: t), expected, "\(s) -> \(t)")
            XCTAssertEqual(cch.distance(from: s, to: t).map { UInt64($0) }, expected, "\(s) -> \(t)")
        }
        for t in replaced.prefix(400) {
            XCTAssertLessThanOrEqual(dijkstra.distance(from: t.tail, to: t.head) ?? .max, UInt64(t.weight),
                                     "a replaced turn is never shorter than the hierarchy's path")
        }
    }

    /// Remove the middle of each replaced turn's lower path (here: every road but the turn's two
    /// ends, one tenth at a time): the customized metric equals Dijkstra on all remaining turns,
    /// and for some pairs only a replaced turn gives that answer.
    func testRemovalsThatNeedTheReplacedTurns() throws {
        let data = try RoutingData(path: try SampleGraphFixture.graphPath())
        let (real, replaced) = Self.allTurns(data)
        let turns = CustomizableTurnGraph(data: data)
        let cch = CCHQuery(topology: turns.topology, metric: turns.customize(turns.weights))
        var rng = SplitMix64(seed: 12)
        var needed = 0, checked = 0
        for k in 0..<10 {
            // Remove a tenth of the edge directions, but never a replaced turn's own ends.
            var protected = Set<UInt32>()
            for t in replaced where Int(t.tail) % 10 == k {
                protected.insert(data.rankEdgeDirection[Int(t.tail)])
                protected.insert(data.rankEdgeDirection[Int(t.head)])
            }
            let removed = { (ed: Int) in (ed >> 1) % 10 == k && !protected.contains(UInt32(ed)) }
            cch.use(turns.customize(turns.weights(removing: removed)))
            let keep = { (_: UInt32, h: UInt32) in !removed(Int(data.rankEdgeDirection[Int(h)])) }
            let full = DijkstraQuery(Self.graph(real, replaced, keeping: keep))
            let withoutReplaced = DijkstraQuery(Self.graph(real, [], keeping: keep))
            for t in replaced where Int(t.tail) % 10 == k {
                guard rng.below(4) == 0 else { continue }
                checked += 1
                let expected = full.distance(from: t.tail, to: t.head)
                XCTAssertEqual(cch.distance(from: t.tail, to: t.head).map { UInt64($0) }, expected, "\(t.tail) -> \(t.head)")
                if withoutReplaced.distance(from: t.tail, to: t.head) != expected { needed += 1 }
            }
        }
        XCTAssertGreaterThan(checked, 100)
        XCTAssertGreaterThan(needed, 0, "some pairs need a replaced turn (the test would pass vacuously otherwise)")
    }
}
