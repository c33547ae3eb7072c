import XCTest
import Foundation
import ContractionHierarchy
import TestSupport

/// Build and query figures on a synthetic edge-based road graph; runs only with OFFGRID_PERF=1
/// (build with `-c release`). OFFGRID_PERF_NODES overrides the size (default 1,000,000),
/// OFFGRID_PERF_THREADS the thread count, OFFGRID_PERF_SETTLE "witness,simulation" the limits.
/// OFFGRID_PERF_GRAPH=file reads the graph instead: little-endian u32 node count, u32 arc
/// count, then the tails, heads and weights as u32 arrays.
final class PerformanceTests: XCTestCase {
    func testBuildAndQueryPerformance() throws {
        let env = ProcessInfo.processInfo.environment
        try XCTSkipUnless(env["OFFGRID_PERF"] == "1", "set OFFGRID_PERF=1 (release build) to run")
        let target = Int(env["OFFGRID_PERF_NODES"] ?? "") ?? 1_000_000
        let clock = ContinuousClock()
        var started = clock.now
        let g: TestGraph
        if let file = env["OFFGRID_PERF_GRAPH"] {
            g = try loadGraph(file)
        } else {
            g = TestGraphs.edgeBasedRoadGraph(targetNodes: target, seed: 2024)
        }
        print("graph: \(g.name), \(g.nodeCount) nodes, \(g.arcs.count) arcs (\(String(format: "%.2f", Double(g.arcs.count) / Double(g.nodeCount))) per node), generated in \(seconds(clock.now - started)) s")
        var options = ContractionOptions(log: { print("  " + $0) })
        if let t = Int(env["OFFGRID_PERF_THREADS"] ?? "") { options.threads = t }
        if let limits = env["OFFGRID_PERF_SETTLE"]?.split(separator: ",").compactMap({ Int($0) }), limits.count == 2 {
            options.witnessSettleLimit = limits[0]
            options.simulationSettleLimit = limits[1]
        }
        if let tail = Int(env["OFFGRID_PERF_TAIL"] ?? "") { options.sequentialTail = tail }
        if env["OFFGRID_PERF_LAZY"] == "0" { options.lazyReevaluation = false }
        started = clock.now
        let ch = ContractionHierarchyBuilder.build(nodeCount: g.nodeCount, arcs: g.arcs, options: options)
        let buildSeconds = seconds(clock.now - started)
        print("build: \(String(format: "%.2f", buildSeconds)) s with \(options.threads) threads (settle \(options.witnessSettleLimit)/\(options.simulationSettleLimit)), \(ch.shortcutCount) shortcuts, \(ch.arcCount) upward arcs, peak RSS \(peakRSSMiB()) MiB")

        let query = CHQuery(ch)
        let oracle = DijkstraQuery(CSRGraph(nodeCount: g.nodeCount, arcs: g.arcs))
        var rng = SplitMix64(seed: 7)
        let pairs = (0..<10_000).map { _ in (UInt32(rng.below(g.nodeCount)), UInt32(rng.below(g.nodeCount))) }
        var distanceMicros: [Double] = [], pathMicros: [Double] = [], settled: [Int] = []
        var checksum: UInt64 = 0
        for (s, t) in pairs {
            let rs = ch.rankOfNode[Int(s)], rt = ch.rankOfNode[Int(t)]
            let t0 = clock.now
            let d = query.distance(from: rs, to: rt)
            distanceMicros.append(micros(clock.now - t0))
            settled.append(query.lastSettledCount)
            let t1 = clock.now
            let p = query.path(from: rs, to: rt)
            pathMicros.append(micros(clock.now - t1))
            checksum &+= (d ?? 0) &+ UInt64(p?.nodes.count ?? 0)
        }
        print("distance query µs: median \(percentile(distanceMicros, 0.5)), p99 \(percentile(distanceMicros, 0.99)); settled median \(Int(percentile(settled.map(Double.init), 0.5))) (checksum \(checksum))")
        print("path query µs:     median \(percentile(pathMicros, 0.5)), p99 \(percentile(pathMicros, 0.99))")
        // A table of 100 × 100.
        let ends = (0..<100).map { _ in [(ch.rankOfNode[rng.below(g.nodeCount)], UInt32(0))] }
        let t2 = clock.now
        _ = query.table(sources: ends, targets: ends)
        print("table 100x100: \(String(format: "%.1f", micros(clock.now - t2) / 1000)) ms")
        // Exactness on a sample (Dijkstra on a graph this size is slow).
        var dijkstraMicros: [Double] = []
        for (s, t) in pairs.prefix(200) {
            let t0 = clock.now
            let expected = oracle.distance(from: s, to: t)
            dijkstraMicros.append(micros(clock.now - t0))
            XCTAssertEqual(query.distance(from: ch.rankOfNode[Int(s)], to: ch.rankOfNode[Int(t)]), expected)
        }
        print("Dijkstra µs: median \(percentile(dijkstraMicros, 0.5)) (200 queries, all equal to CH)")
        print("peak RSS \(peakRSSMiB()) MiB")
    }

    private func loadGraph(_ path: String) throws -> TestGraph {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let words = data.withUnsafeBytes { raw in (0..<(data.count / 4)).map { raw.loadUnaligned(fromByteOffset: $0 * 4, as: UInt32.self).littleEndian } }
        let n = Int(words[0]), m = Int(words[1])
        XCTAssertEqual(words.count, 2 + 3 * m, "graph file size")
        let arcs = ArcList(tails: Array(words[2..<(2 + m)]), heads: Array(words[(2 + m)..<(2 + 2 * m)]),
                           weights: Array(words[(2 + 2 * m)..<(2 + 3 * m)]))
        return TestGraph(name: path, nodeCount: n, arcs: arcs)
    }

    private func seconds(_ d: Duration) -> Double {
        Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
    }

    private func micros(_ d: Duration) -> Double { seconds(d) * 1e6 }

    private func percentile(_ values: [Double], _ p: Double) -> Double {
        let sorted = values.sorted()
        let v = sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
        return (v * 10).rounded() / 10
    }

    /// VmHWM from /proc/self/status: the peak resident set size.
    private func peakRSSMiB() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return -1 }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            let kb = line.split(separator: " ").compactMap { Int($0) }.first ?? 0
            return kb / 1024
        }
        return -1
    }
}
