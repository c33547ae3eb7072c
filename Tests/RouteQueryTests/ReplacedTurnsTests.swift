import ContractionHierarchy
import CustomizableHierarchy
import RouteQuery
import RoutingGraph
import TestSupport
import XCTest

/// Section chReplacedTurns (graph format 12): the turns the contraction hierarchy dropped because
/// a path through lower ranks was no longer. Under the default weights they change no distance;
/// with roads removed some of them are the only way left, so the customizable turn graph needs them.
/// On the sample: the customizable turn graph has every turn, and its default metric answers as
/// the hierarchy and Dijkstra do.
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
        // (The sample's turn costs never make a path through lower ranks shorter than a turn, so
        // its section is empty; RoutingGraphTests.ReplacedTurnsSectionTests builds graphs where they do.)
        let turns = CustomizableTurnGraph(data: data)
        XCTAssertEqual(turns.weights.count, real.arcCount + replaced.count, "every turn is an input arc")
        let cch = CCHQuery(topology: turns.topology, metric: turns.customize(turns.weights))
        let ch = CHQuery(graph: data.ch)
        let dijkstra = DijkstraQuery(Self.graph(real, replaced) { _, _ in true })
        var rng = SplitMix64(seed: 69)
        // The replaced turns' own ends (a path through lower ranks is as short), then random pairs.
        var pairs = replaced.isEmpty ? [] : (0..<400).map { _ in replaced[rng.below(replaced.count)] }.map { ($0.tail, $0.head) }
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
}
