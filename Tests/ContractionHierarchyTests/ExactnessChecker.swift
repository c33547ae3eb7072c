import XCTest
import ContractionHierarchy
import TestSupport

/// Compares a contraction hierarchy of a graph against plain Dijkstra on the same graph:
/// distances (incl. unreachable), multi-source/target with offsets, unpacked paths and tables.
struct ExactnessChecker {
    let nodeCount: Int
    let hierarchy: ContractedGraph
    let query: CHQuery
    let oracle: DijkstraQuery
    /// Lightest original arc per (tail, head).
    let arcWeight: [UInt64: UInt32]
    let nodeOfRank: [UInt32]
    let original: CSRGraph

    /// The default contracts all but the last 16 nodes in parallel rounds: test graphs are
    /// smaller than the default sequential tail, which would otherwise take them whole.
    static let roundsOptions = ContractionOptions(threads: 2, sequentialTail: 16)

    /// With `spatialKeys`, the hierarchy is renumbered for locality (`renumberedForLocality`); with
    /// `coreSize` > 0, distance queries go through a table of the top `coreSize` ranks.
    /// With `uncontracted`, that core is left uncontracted (`ContractionOptions.uncontractedCore`).
    init(nodeCount: Int, arcs: ArcList, options: ContractionOptions = ExactnessChecker.roundsOptions,
         spatialKeys: [UInt64]? = nil, coreSize: Int = 0, uncontracted: Bool = false,
         file: StaticString = #filePath, line: UInt = #line) {
        self.nodeCount = nodeCount
        var options = options
        if uncontracted { options.uncontractedCore = coreSize }
        let built = ContractionHierarchyBuilder.build(nodeCount: nodeCount, arcs: arcs, options: options)
        if uncontracted {
            XCTAssertEqual(built.uncontractedCore, min(coreSize, nodeCount), file: file, line: line)
        }
        hierarchy = spatialKeys.map { built.renumberedForLocality(spatialKey: $0) } ?? built
        let storage = CHGraphStorage(hierarchy, coreSize: coreSize)
        XCTAssertNil(storage.view.validate(), file: file, line: line)
        XCTAssertEqual(storage.view.core?.size ?? 0, min(coreSize, nodeCount), file: file, line: line)
        if let core = storage.view.core { XCTAssertNil(core.problem(in: storage.view, complete: true), file: file, line: line) }
        XCTAssertEqual(Set(hierarchy.rankOfNode).count, nodeCount, "ranks are a permutation", file: file, line: line)
        query = CHQuery(storage: storage)
        original = CSRGraph(nodeCount: nodeCount, arcs: arcs)
        oracle = DijkstraQuery(original)
        var weights: [UInt64: UInt32] = [:]
        for i in 0..<arcs.count {
            let k = UInt64(arcs.tails[i]) << 32 | UInt64(arcs.heads[i])
            weights[k] = min(weights[k] ?? UInt32.max, arcs.weights[i])
        }
        arcWeight = weights
        nodeOfRank = hierarchy.nodeOfRank
    }

    func rank(_ v: UInt32) -> UInt32 { hierarchy.rankOfNode[Int(v)] }

    /// Checks that `nodes` (ranks) is a path of original arcs from a source to a target whose
    /// weight plus the endpoint offsets is `distance`.
    func checkPath(_ result: (distance: UInt64, nodes: [UInt32]), sources: [CHEndpoint], targets: [CHEndpoint],
                   file: StaticString, line: UInt) {
        guard let first = result.nodes.first, let last = result.nodes.last else {
            return XCTFail("empty path", file: file, line: line)
        }
        var total: UInt64 = 0
        for (a, b) in zip(result.nodes, result.nodes.dropFirst()) {
            let key = UInt64(nodeOfRank[Int(a)]) << 32 | UInt64(nodeOfRank[Int(b)])
            guard let w = arcWeight[key] else {
                return XCTFail("path uses \(nodeOfRank[Int(a)])→\(nodeOfRank[Int(b)]), not an arc", file: file, line: line)
            }
            total += UInt64(w)
        }
        let sourceOffset = sources.filter { $0.node == first }.map { UInt64($0.offset) }.min()
        let targetOffset = targets.filter { $0.node == last }.map { UInt64($0.offset) }.min()
        guard let so = sourceOffset, let to = targetOffset else {
            return XCTFail("path does not run from a source to a target", file: file, line: line)
        }
        XCTAssertEqual(so + total + to, result.distance, "path weight plus offsets", file: file, line: line)
    }

    /// `pairs` random point-to-point queries, with paths.
    func checkPairs(_ pairs: Int, rng: inout SplitMix64, file: StaticString = #filePath, line: UInt = #line) {
        guard nodeCount > 0 else { return }
        var mismatches = 0
        for _ in 0..<pairs {
            let s = UInt32(rng.below(nodeCount)), t = UInt32(rng.below(nodeCount))
            let expected = oracle.distance(from: s, to: t)
            let got = query.distance(from: rank(s), to: rank(t))
            if expected != got {
                mismatches += 1
                if mismatches <= 5 { XCTFail("\(s)→\(t): CH \(String(describing: got)), Dijkstra \(String(describing: expected))", file: file, line: line) }
                continue
            }
            let path = query.path(from: rank(s), to: rank(t))
            XCTAssertEqual(path?.distance, expected, file: file, line: line)
            if let path {
                XCTAssertEqual(path.nodes.first, rank(s), file: file, line: line)
                XCTAssertEqual(path.nodes.last, rank(t), file: file, line: line)
                checkPath(path, sources: [(rank(s), 0)], targets: [(rank(t), 0)], file: file, line: line)
                // The arc weights unpacking reports are the graph's weights of the arcs it took.
                if let weighted = query.pathWithArcWeights(sources: [(rank(s), 0)], targets: [(rank(t), 0)]) {
                    XCTAssertEqual(weighted.nodes, path.nodes, file: file, line: line)
                    let taken = zip(weighted.nodes, weighted.nodes.dropFirst()).map { a, b in
                        arcWeight[UInt64(nodeOfRank[Int(a)]) << 32 | UInt64(nodeOfRank[Int(b)])]
                    }
                    XCTAssertEqual(weighted.arcWeights.map { Optional($0) }, taken, "\(s)→\(t) arc weights", file: file, line: line)
                } else {
                    XCTFail("\(s)→\(t): a path, but none with arc weights", file: file, line: line)
                }
                if let dijkstraPath = oracle.path(from: s, to: t) {
                    XCTAssertEqual(dijkstraPath.distance, path.distance, file: file, line: line)
                    XCTAssertEqual(dijkstraPath.nodes.first, s, file: file, line: line)
                    XCTAssertEqual(dijkstraPath.nodes.last, t, file: file, line: line)
                }
            }
        }
        XCTAssertEqual(mismatches, 0, "distance mismatches", file: file, line: line)
    }

    func randomEnds(_ count: Int, rng: inout SplitMix64, maxOffset: Int) -> [CHEndpoint] {
        (0..<count).map { _ in (UInt32(rng.below(nodeCount)), UInt32(rng.below(maxOffset + 1))) }
    }

    /// Multi-source / multi-target queries against the minimum over pairs of offsets + distance.
    func checkMultiEndpoint(_ queries: Int, rng: inout SplitMix64, file: StaticString = #filePath, line: UInt = #line) {
        guard nodeCount > 0 else { return }
        for _ in 0..<queries {
            let sources = randomEnds(1 + rng.below(3), rng: &rng, maxOffset: 50)
            let targets = randomEnds(1 + rng.below(3), rng: &rng, maxOffset: 50)
            var expected: UInt64? = nil
            for s in sources {
                for t in targets {
                    if let d = oracle.distance(from: s.node, to: t.node) {
                        expected = min(expected ?? UInt64.max, UInt64(s.offset) + d + UInt64(t.offset))
                    }
                }
            }
            XCTAssertEqual(oracle.distance(sources: sources, targets: targets), expected, "Dijkstra multi", file: file, line: line)
            let rankedSources = sources.map { (rank($0.node), $0.offset) }
            let rankedTargets = targets.map { (rank($0.node), $0.offset) }
            XCTAssertEqual(query.distance(sources: rankedSources, targets: rankedTargets), expected, "CH multi", file: file, line: line)
            let path = query.path(sources: rankedSources, targets: rankedTargets)
            XCTAssertEqual(path?.distance, expected, file: file, line: line)
            if let path { checkPath(path, sources: rankedSources, targets: rankedTargets, file: file, line: line) }
        }
    }

    /// Tables against point-to-point distances.
    func checkTable(sourceCount: Int, targetCount: Int, rng: inout SplitMix64, file: StaticString = #filePath, line: UInt = #line) {
        guard nodeCount > 0 else { return }
        let sources = (0..<sourceCount).map { _ in randomEnds(1 + rng.below(2), rng: &rng, maxOffset: 20).map { (rank($0.node), $0.offset) } }
        let targets = (0..<targetCount).map { _ in randomEnds(1 + rng.below(2), rng: &rng, maxOffset: 20).map { (rank($0.node), $0.offset) } }
        let table = query.table(sources: sources, targets: targets)
        XCTAssertEqual(table.count, sourceCount, file: file, line: line)
        for (i, s) in sources.enumerated() {
            for (j, t) in targets.enumerated() {
                XCTAssertEqual(table[i][j], query.distance(sources: s, targets: t), "table[\(i)][\(j)]", file: file, line: line)
            }
        }
    }

    /// A table's path sums (`CHPathSpan`s for a metric of 1...997 per node) against the original
    /// graph: each path runs from one of its pair's sources to one of its targets at the table's
    /// distance, and its sum lies between the least and the most any shortest path between those
    /// two nodes has (equal where the shortest path is unique).
    func checkTableSpans(sourceCount: Int, targetCount: Int, rng: inout SplitMix64, file: StaticString = #filePath, line: UInt = #line) {
        guard nodeCount > 0 else { return }
        let sources: [[CHEndpoint]] = (0..<sourceCount).map { _ in randomEnds(1 + rng.below(2), rng: &rng, maxOffset: 20).map { (rank($0.node), $0.offset) } }
        let targets: [[CHEndpoint]] = (0..<targetCount).map { _ in randomEnds(1 + rng.below(2), rng: &rng, maxOffset: 20).map { (rank($0.node), $0.offset) } }
        let value: (UInt32) -> UInt32 = { r in UInt32(truncatingIfNeeded: (UInt64(r) &* 2_654_435_761) % 997 + 1) }
        let (distances, spans) = query.tableDistances(sources: sources, targets: targets, threads: 2, metric: CHNodeMetric(value))
        XCTAssertEqual(distances, query.tableDistances(sources: sources, targets: targets, threads: 1), file: file, line: line)
        var bounds: [UInt32: (distance: [UInt64], least: [UInt64], most: [UInt64])] = [:]
        for (i, s) in sources.enumerated() {
            for (j, t) in targets.enumerated() {
                let cell = "table[\(i)][\(j)]"
                let d = distances[i * targets.count + j]
                guard let span = spans[i * targets.count + j] else {
                    XCTAssertEqual(d, UInt64.max, "\(cell): a distance without a span", file: file, line: line)
                    continue
                }
                guard let so = s.filter({ $0.node == span.first }).map({ UInt64($0.offset) }).min(),
                      let to = t.filter({ $0.node == span.last }).map({ UInt64($0.offset) }).min() else {
                    XCTFail("\(cell): span \(span) does not run from a source to a target", file: file, line: line)
                    continue
                }
                if bounds[span.first] == nil { bounds[span.first] = metricBounds(from: nodeOfRank[Int(span.first)], value: value) }
                let b = bounds[span.first]!, v = Int(nodeOfRank[Int(span.last)])
                XCTAssertEqual(so + b.distance[v] + to, d, "\(cell): the span's ends are not at the table's distance", file: file, line: line)
                XCTAssertTrue(b.least[v] <= span.length && span.length <= b.most[v],
                              "\(cell): sum \(span.length) outside \(b.least[v])...\(b.most[v])", file: file, line: line)
            }
        }
    }

    /// `pathSpan` against the path `path` unpacks for the same query: same ends, and the sum of
    /// the metric over its nodes after the first.
    func checkPathSpans(_ queries: Int, rng: inout SplitMix64, file: StaticString = #filePath, line: UInt = #line) {
        guard nodeCount > 0 else { return }
        let value: (UInt32) -> UInt32 = { r in UInt32(truncatingIfNeeded: (UInt64(r) &* 40_503) % 1_009 + 1) }
        let metric = CHNodeMetric(value)
        for _ in 0..<queries {
            let s: [CHEndpoint] = randomEnds(1 + rng.below(2), rng: &rng, maxOffset: 20).map { (rank($0.node), $0.offset) }
            let t: [CHEndpoint] = randomEnds(1 + rng.below(2), rng: &rng, maxOffset: 20).map { (rank($0.node), $0.offset) }
            let found = query.pathSpan(sources: s, targets: t, metric: metric)
            guard let path = query.path(sources: s, targets: t) else {
                XCTAssertNil(found, "a span without a path", file: file, line: line)
                continue
            }
            guard let (distance, span) = found, let span else { return XCTFail("no span for a path", file: file, line: line) }
            XCTAssertEqual(distance, path.distance, file: file, line: line)
            let sum = path.nodes.dropFirst().reduce(UInt64(0)) { $0 + UInt64(value($1)) }
            XCTAssertEqual(span, CHPathSpan(first: path.nodes[0], last: path.nodes[path.nodes.count - 1], length: sum,
                                            isSingleNode: path.nodes.count == 1), file: file, line: line)
        }
    }

    /// Dijkstra from original node `source`, then the least and most sum of `value` (by rank,
    /// the source excluded) over the arcs on shortest paths, relaxed until stable.
    func metricBounds(from source: UInt32, value: (UInt32) -> UInt32) -> (distance: [UInt64], least: [UInt64], most: [UInt64]) {
        var distance = [UInt64](repeating: UInt64.max, count: nodeCount)
        var order: [Int] = []
        var done = [Bool](repeating: false, count: nodeCount)
        // A binary min-heap of (distance, node) with stale entries skipped.
        var heap: [(UInt64, Int)] = [(0, Int(source))]
        distance[Int(source)] = 0
        while let top = heap.first {
            heap.swapAt(0, heap.count - 1)
            heap.removeLast()
            var i = 0
            while true {
                let l = 2 * i + 1, r = l + 1
                var m = i
                if l < heap.count && heap[l].0 < heap[m].0 { m = l }
                if r < heap.count && heap[r].0 < heap[m].0 { m = r }
                if m == i { break }
                heap.swapAt(i, m)
                i = m
            }
            let u = top.1
            if done[u] { continue }
            done[u] = true
            order.append(u)
            for a in Int(original.firstOut[u])..<Int(original.firstOut[u + 1]) {
                let v = Int(original.head[a]), nd = distance[u] + UInt64(original.weight[a])
                guard nd < distance[v] else { continue }
                distance[v] = nd
                heap.append((nd, v))
                var c = heap.count - 1
                while c > 0 && heap[(c - 1) / 2].0 > heap[c].0 { heap.swapAt(c, (c - 1) / 2); c = (c - 1) / 2 }
            }
        }
        var least = [UInt64](repeating: UInt64.max, count: nodeCount), most = [UInt64](repeating: 0, count: nodeCount)
        least[Int(source)] = 0
        for _ in 0..<nodeCount {
            var changed = false
            for u in order where least[u] != UInt64.max {
                for a in Int(original.firstOut[u])..<Int(original.firstOut[u + 1]) {
                    let v = Int(original.head[a])
                    guard distance[u] + UInt64(original.weight[a]) == distance[v] else { continue }
                    let m = UInt64(value(rank(UInt32(v))))
                    if least[u] + m < least[v] { least[v] = least[u] + m; changed = true }
                    if most[u] + m > most[v] && most[u] + m < 1 << 40 { most[v] = most[u] + m; changed = true }
                }
            }
            if !changed { break }
        }
        return (distance, least, most)
    }

    /// All of the above.
    func checkAll(seed: UInt64, pairs: Int = 1000, file: StaticString = #filePath, line: UInt = #line) {
        var rng = SplitMix64(seed: seed)
        checkPairs(pairs, rng: &rng, file: file, line: line)
        checkMultiEndpoint(max(10, pairs / 10), rng: &rng, file: file, line: line)
        checkTable(sourceCount: 5, targetCount: 7, rng: &rng, file: file, line: line)
        checkTableSpans(sourceCount: 5, targetCount: 7, rng: &rng, file: file, line: line)
        checkPathSpans(max(10, pairs / 10), rng: &rng, file: file, line: line)
    }
}
