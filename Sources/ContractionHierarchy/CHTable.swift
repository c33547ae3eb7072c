#if canImport(Glibc)
import Glibc
#endif
import OffgridCore

/// Many-to-many distances on a contraction hierarchy with buckets (Knopp, Sanders, Schultes,
/// Schulz, Wagner 2007): one backward upward search per target leaves `(target, distance)` in a
/// bucket at every node it settles; one forward upward search per source then scans the buckets
/// of the nodes it settles. Cost: |sources| + |targets| searches instead of their product.
///
/// Both phases run on `threads` workers, each with its own search state (kept for the next
/// table). Results are written by index, so they do not depend on scheduling. Buckets lie in one
/// flat array ordered by rank, each holding its targets in ascending order: the nodes every
/// forward search reaches (the top of the hierarchy) have their buckets side by side.
extension CHQuery {
    /// `distances[s][t]` = the distance from `sources[s]` to `targets[t]` as in
    /// `distance(sources:targets:)` (each entry a set of endpoints with offsets), nil if unreachable.
    public func table(sources: [[CHEndpoint]], targets: [[CHEndpoint]], threads: Int = 1) -> [[UInt64?]] {
        let flat = tableDistances(sources: sources, targets: targets, threads: threads)
        let n = targets.count
        return (0..<sources.count).map { s in (0..<n).map { t in flat[s * n + t] == UInt64.max ? nil : flat[s * n + t] } }
    }

    /// The same distances row by row in one flat array (`sources.count × targets.count`),
    /// `UInt64.max` where unreachable.
    public func tableDistances(sources: [[CHEndpoint]], targets: [[CHEndpoint]], threads: Int = 1) -> [UInt64] {
        tableSearch(sources: sources, targets: targets, threads: threads, metric: nil).distances
    }

    /// The distances, and for each pair the sum of `metric` along the shortest path found
    /// (`CHPathSpan`): a road's length where the distance is its time. Each path is the one its
    /// pair's best meeting node gives; among paths of equal distance, another search may pick
    /// another. The span is nil where there is no path, or the hierarchy does not unpack.
    public func tableDistances(sources: [[CHEndpoint]], targets: [[CHEndpoint]], threads: Int = 1,
                               metric: CHNodeMetric) -> (distances: [UInt64], spans: [CHPathSpan?]) {
        tableSearch(sources: sources, targets: targets, threads: threads, metric: metric)
    }

    private func tableSearch(sources: [[CHEndpoint]], targets: [[CHEndpoint]], threads: Int,
                             metric: CHNodeMetric?) -> (distances: [UInt64], spans: [CHPathSpan?]) {
        var result = [UInt64](repeating: UInt64.max, count: sources.count * targets.count)
        var spans = [CHPathSpan?](repeating: nil, count: metric == nil ? 0 : result.count)
        guard !sources.isEmpty, !targets.isEmpty else { return (result, spans) }
        let scratch = tableScratch(threads: max(1, threads))
        let workers = scratch.workers
        let g = graph
        let trees = metric.map { m in workers.map { $0.pathTrees(graph: g, metric: m) } }
        // With a core table every search stays below the core (`CHTableCore.swift`).
        let join = g.core.map { TableCoreJoin(core: $0, workers: workers, inArcs: metric == nil ? nil : coreInArcs($0)) }
        // Backward searches, one per target: the nodes each settles unstalled, with distances
        // (and with a metric, each one's path down to the target), and the core ranks it reaches.
        var hits = [[BucketHit]](repeating: [], count: targets.count)
        var tails = [[BucketTail]](repeating: [], count: metric == nil ? 0 : targets.count)
        var access = [[TargetAccess]](repeating: [], count: join == nil ? 0 : targets.count)
        hits.withUnsafeMutableBufferPointer { slots in
            tails.withUnsafeMutableBufferPointer { tailSlots in
            access.withUnsafeMutableBufferPointer { accessSlots in
                Parallel.forEachChunk(count: targets.count, threads: workers.count, chunkSize: 8) { w, range in
                    for t in range {
                        var found: [BucketHit] = [], foundTails: [BucketTail] = []
                        trees?[w].startSearch()
                        var list = join?.accessList(worker: w, forward: false) ?? .none
                        workers[w].exhaustUpward(from: targets[t], graph: g, stallBit: CHDirection.forward, core: &list) { v, d, parentArc in
                            found.append(BucketHit(node: v, distance: d))
                            if let trees { foundTails.append(trees[w].extend(v, parentArc: parentArc, bit: CHDirection.backward)) }
                        }
                        slots[t] = found
                        if trees != nil { tailSlots[t] = foundTails }
                        if let join { accessSlots[t] = join.targetAccess(worker: w, list: list, tree: trees?[w]) }
                    }
                }
            }
            }
        }
        let buckets = scratch.fillBuckets(hits, tails: metric == nil ? nil : tails)
        let targetAccess = join.map { TableTargetAccess(access, coreSize: $0.core.size, withTails: metric != nil) }
        // Forward searches, one per source, each filling its own row.
        result.withUnsafeMutableBufferPointer { matrix in
            spans.withUnsafeMutableBufferPointer { spanMatrix in
                Parallel.forEachChunk(count: sources.count, threads: workers.count, chunkSize: 4) { w, range in
                    let tree = trees?[w]
                    for s in range {
                        let row = matrix.baseAddress! + s * targets.count
                        tree?.startRow(targets: targets.count)
                        tree?.startSearch()
                        var list = join?.accessList(worker: w, forward: true) ?? .none
                        workers[w].exhaustUpward(from: sources[s], graph: g, stallBit: CHDirection.backward, core: &list) { v, d, parentArc in
                            let slot = buckets.slot[Int(v)]
                            if let tree { _ = tree.extend(v, parentArc: parentArc, bit: CHDirection.forward) }
                            guard slot.stamp == buckets.stamp else { return }
                            var e = Int(slot.begin)
                            let end = Int(slot.end)
                            while e < end {
                                let entry = buckets.entries[e]
                                let total = d &+ entry.distance
                                let t = Int(entry.target)
                                if total < row[t] {
                                    row[t] = total
                                    tree?.meet(target: t, node: v, entry: e)
                                }
                                e &+= 1
                            }
                        }
                        let sourceSet = join.flatMap { j in targetAccess.map { j.joinRow(worker: w, list: list, into: row, targets: $0) } }
                        if let tree {
                            for t in 0..<targets.count where row[t] != UInt64.max {
                                if let join, let sourceSet, let targetAccess, join.scratch[w].meets[t] >= 0 {
                                    spanMatrix[s * targets.count + t] = join.span(worker: w, target: t, sources: sourceSet,
                                                                                  targets: targetAccess, tree: tree, graph: g)
                                } else {
                                    spanMatrix[s * targets.count + t] = tree.span(target: t, tails: buckets.tails)
                                }
                            }
                        }
                    }
                }
            }
        }
        return (result, spans)
    }

    /// The table scratch with at least `threads` workers.
    func tableScratch(threads: Int) -> BucketScratch {
        if let existing = bucketScratch, existing.workers.count >= threads { return existing }
        let scratch = BucketScratch(nodeCount: graph.nodeCount, threads: threads)
        bucketScratch = scratch
        return scratch
    }
}

struct BucketHit {
    var node: UInt32
    var distance: UInt64
}

/// A bucket entry's path down to its target, for `CHNodeMetric` sums: the target endpoint it
/// ends at, and the sum after the bucket's node (`UInt64.max` if unknown).
struct BucketTail {
    var root: UInt32
    var length: UInt64
}

struct BucketEntry {
    var distance: UInt64
    var target: UInt32
}

/// Where node v's bucket lies in `entries`, valid when `stamp` is the table's.
struct BucketSlot {
    var stamp: UInt32 = 0
    var begin: UInt32 = 0
    var end: UInt32 = 0
}

/// One table's buckets (non-owning pointers into `BucketScratch`).
struct Buckets: @unchecked Sendable {
    let slot: UnsafeMutablePointer<BucketSlot>
    let entries: UnsafeMutablePointer<BucketEntry>
    /// Beside `entries`, when a metric was asked for.
    let tails: UnsafeMutablePointer<BucketTail>
    let stamp: UInt32
}

/// One worker's search of a table: its own labels, heap and query stamp.
final class TableWorker: @unchecked Sendable {
    let state: UpwardSearchState
    private var stamp: UInt32 = 0
    private var trees: TablePathTrees?
    private var core: TableCoreScratch?

    init(nodeCount: Int) { state = UpwardSearchState(nodeCount: nodeCount) }

    /// This worker's path trees for `metric` (kept while the metric is the same).
    func pathTrees(graph: CHGraphView, metric: CHNodeMetric) -> TablePathTrees {
        if let trees, trees.lengths.metric === metric { return trees }
        let fresh = TablePathTrees(graph: graph, metric: metric)
        trees = fresh
        return fresh
    }

    /// This worker's core scratch (kept while the core's size is the same).
    func coreScratch(size: Int) -> TableCoreScratch {
        if let core, core.size == size { return core }
        let fresh = TableCoreScratch(coreSize: size)
        core = fresh
        return fresh
    }

    /// A full upward search (no stopping criterion) with stall-on-demand; calls `visit` for every
    /// settled node that is not stalled, with its distance and the arc it was reached by. Kept
    /// below `core.first`: the core ranks it reaches are labelled and listed in `core` instead.
    @inline(__always)
    func exhaustUpward(from ends: [CHEndpoint], graph g: CHGraphView, stallBit: UInt8, core: inout CoreAccessList,
                       _ visit: (UInt32, UInt64, UInt32) -> Void) {
        if stamp == UInt32.max { state.resetStamps(); stamp = 0 }
        stamp += 1
        let q = stamp
        var search = state.buffers
        ends.withUnsafeBufferPointer { search.start($0, stamp: q, nodeCount: g.nodeCount, core: &core) }
        while !search.heap.isEmpty {
            let (v, d) = search.heap.popMin()
            let vi = Int(v)
            guard let usable = search.stallTest(d: d, arcs: g.arcRange(vi), graph: g, stamp: q, stallBit: stallBit) else { continue }
            visit(v, d, search.label[vi].parentArc)
            search.relax(v, d: d, usable: usable, graph: g, stamp: q, bound: UInt64.max, core: &core)
        }
    }
}

/// Per-node bucket ranges and the bucket entries of `CHQuery.table`, plus the workers' search
/// states; allocated on the first table and reused.
final class BucketScratch {
    let nodeCount: Int
    let workers: [TableWorker]
    private let slot: UnsafeMutablePointer<BucketSlot>
    private var entries: UnsafeMutablePointer<BucketEntry>
    private var tails: UnsafeMutablePointer<BucketTail>
    private var entryCapacity = 0
    private var tailCapacity = 0
    private var stamp: UInt32 = 0

    init(nodeCount: Int, threads: Int) {
        self.nodeCount = nodeCount
        workers = (0..<threads).map { _ in TableWorker(nodeCount: nodeCount) }
        let n = max(1, nodeCount)
        // calloc: zero stamps are "no bucket", and untouched pages cost no memory.
        slot = calloc(n, MemoryLayout<BucketSlot>.stride)!.bindMemory(to: BucketSlot.self, capacity: n)
        entries = .allocate(capacity: 1)
        entryCapacity = 1
        tails = .allocate(capacity: 1)
        tailCapacity = 1
    }

    deinit {
        free(slot)
        entries.deallocate()
        tails.deallocate()
    }

    /// Lays the hits out as buckets: counts per node, node ranges in rank order, then the hits
    /// target by target (so each bucket lists its targets in ascending order); `tails`, when
    /// given, in the same places.
    func fillBuckets(_ hits: [[BucketHit]], tails hitTails: [[BucketTail]]? = nil) -> Buckets {
        if stamp == UInt32.max {
            slot.update(repeating: BucketSlot(), count: max(1, nodeCount))
            stamp = 0
        }
        stamp += 1
        let q = stamp
        var touched: [UInt32] = []
        var total = 0
        for list in hits {
            total += list.count
            for h in list {
                let v = Int(h.node)
                if slot[v].stamp != q {
                    slot[v] = BucketSlot(stamp: q, begin: 0, end: 0)
                    touched.append(h.node)
                }
                slot[v].end &+= 1
            }
        }
        touched.sort()
        var next: UInt32 = 0
        for v in touched {
            let count = slot[Int(v)].end
            slot[Int(v)].begin = next
            slot[Int(v)].end = next   // the fill below moves `end` up to next + count
            next += count
        }
        if total > entryCapacity {
            entries.deallocate()
            entryCapacity = total
            entries = .allocate(capacity: total)
        }
        if hitTails != nil && total > tailCapacity {
            tails.deallocate()
            tailCapacity = total
            tails = .allocate(capacity: total)
        }
        for (t, list) in hits.enumerated() {
            for (i, h) in list.enumerated() {
                let v = Int(h.node)
                let e = Int(slot[v].end)
                entries[e] = BucketEntry(distance: h.distance, target: UInt32(t))
                if let hitTails { tails[e] = hitTails[t][i] }
                slot[v].end &+= 1
            }
        }
        return Buckets(slot: slot, entries: entries, tails: tails, stamp: q)
    }
}
