import OffgridCore
import Foundation

/// Builds a contraction hierarchy (Geisberger, Sanders, Schultes, Delling 2008) of a directed
/// graph with non-negative integer weights.
public enum ContractionHierarchyBuilder {
    /// Contracts all nodes and returns the hierarchy in rank numbering.
    ///
    /// The result depends only on `nodeCount`, `arcs` and the settle limits and switches in
    /// `options`, never on `options.threads` or timing. `progress` is called from the calling
    /// thread after each round with the number of nodes contracted so far.
    public static func build(nodeCount: Int, arcs: ArcList, options: ContractionOptions = .init(),
                             progress: ((_ contracted: Int, _ total: Int) -> Void)? = nil) -> ContractedGraph {
        let run = ContractionRun(nodeCount: nodeCount, arcs: arcs, options: options, progress: progress)
        return run.run()
    }
}

/// The state of one contraction: the shrinking graph, node keys and levels, per-worker search
/// state, and the upward arcs collected so far.
///
/// Most nodes are contracted in rounds: every node whose key is the smallest within two hops is
/// contracted at once, the witness searches of a round running in parallel; shortcuts are then
/// inserted in node order and the priorities of the touched neighbours recomputed in parallel.
/// The last `options.sequentialTail` nodes (the dense core, where such sets are tiny) are
/// contracted one at a time from a priority queue.
final class ContractionRun {
    let nodeCount: Int
    let options: ContractionOptions
    let progress: ((_ contracted: Int, _ total: Int) -> Void)?
    let graph: DynamicGraph
    let searches: [WitnessSearch]
    let lists: [ShortcutList]
    /// The sequential tail's shortcuts, one list per in-neighbour of the node being contracted.
    var tailLists: [ShortcutList] = []
    /// Per node: `priority << 32 | node`.
    let key: UnsafeMutablePointer<UInt64>
    /// Per node: the level term of the priority.
    let level: UnsafeMutablePointer<UInt32>
    /// Per node: the quotient terms of the priority from its last (simulated) contraction.
    let quotients: UnsafeMutablePointer<UInt32>
    /// Per node: 1 when a neighbour was contracted since `quotients` was computed.
    let dirty: UnsafeMutablePointer<UInt8>
    /// Per node: 1 while the node is being contracted in the current round.
    let excluded: UnsafeMutablePointer<UInt8>
    /// Scratch for the independent-set selection.
    let oneHopMinimum: UnsafeMutablePointer<UInt64>
    /// Per node: the round in which it was last added to `touched`.
    let touchedMark: UnsafeMutablePointer<UInt32>
    var touchRound: UInt32 = 0
    var touched: [UInt32] = []
    var rankOfNode: [UInt32]
    var nextRank = 0
    var collector = UpwardArcCollector()
    var rounds = 0
    var deferrals = 0
    /// Seconds spent per phase of the rounds (for the build log): selection, witness searches,
    /// applying contractions, priority updates.
    var phaseSeconds = [Double](repeating: 0, count: 4)
    private let clock = ContinuousClock()
    private var phaseStart = ContinuousClock.now

    private func endPhase(_ phase: Int) {
        let now = clock.now
        let elapsed = now - phaseStart
        phaseSeconds[phase] += Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        phaseStart = now
    }

    init(nodeCount: Int, arcs: ArcList, options: ContractionOptions,
         progress: ((_ contracted: Int, _ total: Int) -> Void)?) {
        self.nodeCount = nodeCount
        self.options = options
        self.progress = progress
        graph = DynamicGraph(nodeCount: nodeCount, arcs: arcs)
        searches = (0..<options.threads).map { _ in WitnessSearch(nodeCount: nodeCount) }
        lists = (0..<options.threads).map { _ in ShortcutList() }
        let n = max(1, nodeCount)
        key = .allocate(capacity: n); key.initialize(repeating: 0, count: n)
        level = .allocate(capacity: n); level.initialize(repeating: 0, count: n)
        excluded = .allocate(capacity: n); excluded.initialize(repeating: 0, count: n)
        quotients = .allocate(capacity: n); quotients.initialize(repeating: 0, count: n)
        dirty = .allocate(capacity: n); dirty.initialize(repeating: 0, count: n)
        oneHopMinimum = .allocate(capacity: n); oneHopMinimum.initialize(repeating: 0, count: n)
        touchedMark = .allocate(capacity: n); touchedMark.initialize(repeating: 0, count: n)
        rankOfNode = [UInt32](repeating: UInt32.max, count: nodeCount)
    }

    deinit {
        key.deallocate(); level.deallocate(); excluded.deallocate()
        quotients.deallocate(); dirty.deallocate()
        oneHopMinimum.deallocate(); touchedMark.deallocate()
    }

    func run() -> ContractedGraph {
        let clock = ContinuousClock()
        let started = clock.now
        func log(_ text: @autoclosure () -> String) {
            guard let sink = options.log else { return }
            let seconds = Double((clock.now - started).components.attoseconds) / 1e18
                + Double((clock.now - started).components.seconds)
            sink(String(format: "%7.2f s  ", seconds) + text())
        }
        log("graph: \(nodeCount) nodes, \(graph.arcCount) arcs after dropping loops and parallel arcs")
        var remaining = (0..<nodeCount).map { UInt32($0) }
        updatePriorities(of: remaining)
        log("initial priorities")
        var lazy = options.lazyReevaluation
        var nextReport = nodeCount - nodeCount / 10
        let core = min(options.uncontractedCore, nodeCount)
        while remaining.count > max(options.sequentialTail, core) {
            // An uncontracted core keeps exactly its size: the last round stops there.
            let contracted = contractRound(&remaining, lazy: lazy, limit: core > 0 ? remaining.count - core : .max)
            // A round in which every chosen node was put back only raised keys; the next one
            // contracts unconditionally so that progress is guaranteed.
            lazy = options.lazyReevaluation && contracted > 0
            progress?(nextRank, nodeCount)
            if remaining.count <= nextReport {
                nextReport = remaining.count - remaining.count / 10
                log("round \(rounds): \(remaining.count) left, \(graph.arcCount) arcs among them, " +
                    "\(collector.arcCount) upward arcs, \(deferrals) deferred, pool \(graph.memoryBytes >> 20) MiB")
            }
        }
        log("searches \(searches.map(\.searchCount).reduce(0, +)), settled \(searches.map(\.settledCount).reduce(0, +)), limit hits \(searches.map(\.limitHits).reduce(0, +)), settled by real contraction \(searches.map(\.realSettled).reduce(0, +))")
        log("round phases (s): selection \(phaseSeconds[0]), contraction searches \(phaseSeconds[1]), applying \(phaseSeconds[2]), priority updates \(phaseSeconds[3])")
        log("after \(rounds) rounds: \(remaining.count) left, \(graph.arcCount) arcs among them")
        updatePriorities(of: remaining.filter { dirty[Int($0)] != 0 })
        contractSequentially(remaining, leaving: core)
        let uncontracted = remaining.filter { rankOfNode[Int($0)] == UInt32.max }
        if !uncontracted.isEmpty {
            log("contracted all but \(uncontracted.count); \(collector.arcCount) upward arcs, \(graph.arcCount) arcs among the rest")
            rankUncontracted(uncontracted)
        }
        progress?(nextRank, nodeCount)
        log("contracted; \(collector.arcCount) upward arcs, \(deferrals) deferrals")
        var result = collector.assemble(rankOfNode: rankOfNode, threads: options.threads)
        result.uncontractedCore = uncontracted.count
        log("assembled: \(result.arcCount) arcs, \(result.shortcutCount) shortcuts")
        return result
    }

    /// One parallel round of at most `limit` nodes (those of smallest key among the chosen);
    /// returns how many nodes it contracted.
    func contractRound(_ remaining: inout [UInt32], lazy: Bool, limit: Int = .max) -> Int {
        rounds += 1
        phaseStart = clock.now
        var chosen = NodeOrdering.localMinima(remaining: remaining, key: key, oneHopMinimum: oneHopMinimum,
                                              graph: graph, threads: options.threads)
        if chosen.count > limit {
            let bar = chosen.map { key[Int($0)] }.sorted()[limit - 1]
            chosen.removeAll { key[Int($0)] > bar }
        }
        endPhase(0)
        if options.lazyNeighbourUpdates { chosen = refreshDirty(chosen) }
        endPhase(3)
        for v in chosen { excluded[Int(v)] = 1 }
        for list in lists { list.removeAll() }
        let count = chosen.count
        var owner = [Int](repeating: 0, count: count)
        var first = [Int](repeating: 0, count: count)
        var end = [Int](repeating: 0, count: count)
        var deferredKey = [UInt64](repeating: 0, count: count)  // 0: contract now
        var freshQuotients = [UInt32](repeating: 0, count: count)
        owner.withUnsafeMutableBufferPointer { owner in
        first.withUnsafeMutableBufferPointer { first in
        end.withUnsafeMutableBufferPointer { end in
        freshQuotients.withUnsafeMutableBufferPointer { freshQuotients in
        deferredKey.withUnsafeMutableBufferPointer { deferredKey in
            // Small chunks when few nodes are chosen (the late rounds), so both cores still help.
            let chunk = min(256, max(1, count / (4 * options.threads)))
            Parallel.forEachChunk(count: count, threads: options.threads, chunkSize: chunk) { worker, range in
                let search = searches[worker], list = lists[worker]
                for i in range {
                    let v = Int(chosen[i])
                    owner[i] = worker
                    first[i] = list.count
                    let estimate = search.contract(node: v, graph: graph, excluded: excluded,
                                                   settleLimit: options.witnessSettleLimit, collectInto: list)
                    end[i] = list.count
                    guard lazy else { continue }
                    // Lazy update: the real contraction re-evaluates the priority; a node that
                    // is no longer the smallest around it waits for a later round.
                    freshQuotients[i] = NodeOrdering.quotients(estimate, options.weights)
                    let fresh = NodeOrdering.key(priority: NodeOrdering.priority(quotients: freshQuotients[i], level: level[v], options.weights), node: v)
                    if fresh > key[v] && fresh > NodeOrdering.smallestKeyAround(v, key: key, graph: graph) {
                        deferredKey[i] = fresh
                    }
                }
            }
        }}}}}
        for v in chosen { excluded[Int(v)] = 0 }
        endPhase(1)

        beginTouching()
        var batch: [DecidedContraction] = []
        for i in 0..<count {
            let v = Int(chosen[i])
            if deferredKey[i] != 0 {
                key[v] = deferredKey[i]
                quotients[v] = freshQuotients[i]
                deferrals += 1
                continue
            }
            batch.append(DecidedContraction(node: v, list: lists[owner[i]], shortcuts: first[i]..<end[i]))
        }
        apply(batch)
        let contracted = batch.count
        endPhase(2)
        if options.lazyNeighbourUpdates {
            for x in touched {
                let v = Int(x)
                dirty[v] = 1
                key[v] = NodeOrdering.key(priority: NodeOrdering.priority(quotients: quotients[v], level: level[v], options.weights), node: v)
            }
        } else {
            updatePriorities(of: touched)
        }
        if contracted > 0 { remaining.removeAll { rankOfNode[Int($0)] != UInt32.max } }
        endPhase(3)
        return contracted
    }

    func beginTouching() {
        touched.removeAll(keepingCapacity: true)
        if touchRound == UInt32.max {
            touchedMark.update(repeating: 0, count: max(1, nodeCount))
            touchRound = 0
        }
        touchRound += 1
    }

    func touch(_ node: Int) {
        if touchedMark[node] != touchRound {
            touchedMark[node] = touchRound
            touched.append(UInt32(node))
        }
    }

    /// Re-simulates the dirty nodes among `chosen` and returns `chosen` without those whose
    /// fresh key rose above the smallest key within two hops (measured before any update).
    func refreshDirty(_ chosen: [UInt32]) -> [UInt32] {
        let stale = chosen.filter { dirty[Int($0)] != 0 }
        if stale.isEmpty { return chosen }
        var bar = [UInt64](repeating: 0, count: stale.count)
        var fresh = [UInt64](repeating: 0, count: stale.count)
        var freshQuotients = [UInt32](repeating: 0, count: stale.count)
        bar.withUnsafeMutableBufferPointer { bar in
        fresh.withUnsafeMutableBufferPointer { fresh in
        freshQuotients.withUnsafeMutableBufferPointer { freshQuotients in
            Parallel.forEachChunk(count: stale.count, threads: options.threads, chunkSize: 256) { worker, range in
                for i in range {
                    let v = Int(stale[i])
                    bar[i] = NodeOrdering.smallestKeyAround(v, key: key, graph: graph)
                    let estimate = searches[worker].contract(node: v, graph: graph, excluded: excluded,
                                                             settleLimit: options.simulationSettleLimit, collectInto: nil)
                    freshQuotients[i] = NodeOrdering.quotients(estimate, options.weights)
                    fresh[i] = NodeOrdering.key(priority: NodeOrdering.priority(quotients: freshQuotients[i], level: level[v], options.weights), node: v)
                }
            }
        }}}
        var putBack = 0
        for (i, x) in stale.enumerated() {
            let v = Int(x)
            let old = key[v]
            key[v] = fresh[i]
            quotients[v] = freshQuotients[i]
            dirty[v] = 0
            if fresh[i] > old && fresh[i] > bar[i] {
                excluded[v] = 2  // marks "put back" for the filter below
                putBack += 1
            }
        }
        if putBack == 0 { return chosen }
        deferrals += putBack
        let kept = chosen.filter { excluded[Int($0)] != 2 }
        for x in stale { excluded[Int(x)] = 0 }
        return kept
    }

    /// Recomputes the keys of `nodes` by simulated contraction, in parallel.
    func updatePriorities(of nodes: [UInt32]) {
        // Small chunks when there are few nodes (the sequential tail), so both cores still help.
        let chunk = min(256, max(4, nodes.count / (4 * options.threads)))
        nodes.withUnsafeBufferPointer { nodes in
            Parallel.forEachChunk(count: nodes.count, threads: options.threads, chunkSize: chunk) { worker, range in
                let search = searches[worker]
                for i in range {
                    let v = Int(nodes[i])
                    let estimate = search.contract(node: v, graph: graph, excluded: excluded,
                                                   settleLimit: options.simulationSettleLimit, collectInto: nil)
                    quotients[v] = NodeOrdering.quotients(estimate, options.weights)
                    dirty[v] = 0
                    key[v] = NodeOrdering.key(priority: NodeOrdering.priority(quotients: quotients[v], level: level[v], options.weights), node: v)
                }
            }
        }
    }
}
