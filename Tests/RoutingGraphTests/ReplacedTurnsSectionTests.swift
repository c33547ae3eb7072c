import ContractionHierarchy
@testable import RoutingGraph
import TestSupport
import XCTest

/// `GraphBuild.replacedTurns` (section chReplacedTurns) on random turn graphs whose direct turns
/// are often heavier than a detour through a third node, so the hierarchy replaces them: the
/// hierarchy's real arcs plus the section are every turn of the input (the lightest of parallel
/// ones), and with nodes removed Dijkstra needs the section to give the input's distances.
final class ReplacedTurnsSectionTests: XCTestCase {
    func testRealArcsAndReplacedTurnsAreEveryTurn() {
        var rng = SplitMix64(seed: 69)
        var neededSomewhere = 0
        for round in 0..<20 {
            let n = 60 + rng.below(60)
            var arcs = ArcList()
            for _ in 0..<(4 * n) {
                let t = UInt32(rng.below(n)), h = UInt32(rng.below(n))
                // Heavy direct turns beside light ones: detours through lower nodes are shorter.
                arcs.append(tail: t, head: h, weight: UInt32(rng.below(3) == 0 ? 50 + rng.below(100) : 1 + rng.below(10)))
            }
            let ch = ContractionHierarchyBuilder.build(nodeCount: n, arcs: arcs)
            let rank = ch.rankOfNode
            let kept = ch.originalGraph()
            let replaced = GraphBuild.replacedTurns(arcs, rank: rank, kept: kept)
            XCTAssertEqual(replaced.count % 3, 0)
            // Sorted, no loops, none of them a real arc.
            var previous: (UInt32, UInt32)?
            var union: [UInt64: UInt32] = [:]
            for v in 0..<n {
                for a in Int(kept.firstOut[v])..<Int(kept.firstOut[v + 1]) {
                    union[UInt64(v) << 32 | UInt64(kept.head[a]), default: .max] = min(union[UInt64(v) << 32 | UInt64(kept.head[a])] ?? .max, kept.weight[a])
                }
            }
            for i in stride(from: 0, to: replaced.count, by: 3) {
                let key = (replaced[i], replaced[i + 1])
                XCTAssertNotEqual(key.0, key.1)
                if let previous { XCTAssertTrue(previous < key, "sorted") }
                previous = key
                XCTAssertNil(union[UInt64(key.0) << 32 | UInt64(key.1)], "a replaced turn is not a real arc")
                union[UInt64(key.0) << 32 | UInt64(key.1)] = replaced[i + 2]
            }
            // Every input turn, at its lightest weight, is in one or the other.
            var lightest: [UInt64: UInt32] = [:]
            for i in 0..<arcs.count where arcs.tails[i] != arcs.heads[i] {
                let key = UInt64(rank[Int(arcs.tails[i])]) << 32 | UInt64(rank[Int(arcs.heads[i])])
                lightest[key] = min(lightest[key] ?? .max, arcs.weights[i])
            }
            XCTAssertEqual(union, lightest, "round \(round)")
            // With a fifth of the nodes removed, only the real arcs and the replaced turns together
            // give the input's distances.
            let removed = Set((0..<n).filter { _ in rng.below(5) == 0 }.map { rank[$0] })
            func graph(_ turns: [UInt64: UInt32]) -> DijkstraQuery {
                var list = ArcList()
                for (key, w) in turns.sorted(by: { $0.key < $1.key }) where !removed.contains(UInt32(key >> 32)) && !removed.contains(UInt32(truncatingIfNeeded: key)) {
                    list.append(tail: UInt32(key >> 32), head: UInt32(truncatingIfNeeded: key), weight: w)
                }
                return DijkstraQuery(CSRGraph(nodeCount: n, arcs: list))
            }
            var realOnly: [UInt64: UInt32] = [:]
            for v in 0..<n {
                for a in Int(kept.firstOut[v])..<Int(kept.firstOut[v + 1]) {
                    realOnly[UInt64(v) << 32 | UInt64(kept.head[a])] = min(realOnly[UInt64(v) << 32 | UInt64(kept.head[a])] ?? .max, kept.weight[a])
                }
            }
            let both = graph(union), real = graph(realOnly), input = graph(lightest)
            for s in 0..<UInt32(n) {
                for t in 0..<UInt32(n) {
                    XCTAssertEqual(both.distance(from: s, to: t), input.distance(from: s, to: t))
                    if real.distance(from: s, to: t) != input.distance(from: s, to: t) { neededSomewhere += 1 }
                }
            }
        }
        XCTAssertGreaterThan(neededSomewhere, 0, "some distances need a replaced turn (else the test proves nothing)")
    }
}
