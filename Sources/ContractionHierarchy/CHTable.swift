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
        var result = [UInt64](repeating: UInt64.max, count: sources.count * targets.count)
        guard !sources.isEmpty, !targets.isEmpty else { return result }
        let scratch = tableScratch(threads: max(1, threads))
        let workers = scratch.workers
        let g = graph
        // Backward searches, one per target: the nodes each settles unstalled, with distances.
        var hits = [[BucketHit]](repeating: [], count: targets.count)
        hits.withUnsafeMutableBufferPointer { slots in
            Parallel.forEachChunk(count: targets.count, threads: workers.count, chunkSize: 8) { w, range in
                for t in range {
                    var found: [BucketHit] = []
                    workers[w].exhaustUpward(from: targets[t], graph: g, stallBit: CHDirection.forward) { v, d in
                        found.append(BucketHit(node: v, distance: d))
                    }
                    slots[t] = found
                }
            }
        }
        let buckets = scratch.fillBuckets(hits)
        // Forward searches, one per source, each filling its own row.
        result.withUnsafeMutableBufferPointer { matrix in
            Parallel.forEachChunk(count: sources.count, threads: workers.count, chunkSize: 4) { w, range in
                for s in range {
                    let row = matrix.baseAddress! + s * targets.count
                    workers[w].exhaustUpward(from: sources[s], graph: g, stallBit: CHDirection.backward) { v, d in
                        let slot = buckets.slot[Int(v)]
                        guard slot.stamp == buckets.stamp else { return }
                        var e = Int(slot.begin)
                        let end = Int(slot.end)
                        while e < end {
                            let entry = buckets.entries[e]
                            let total = d &+ entry.distance
                            let t = Int(entry.target)
                            if total < row[t] { row[t] = total }
                            e &+= 1
                        }
                    }
                }
            }
        }
        return result
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
    let stamp: UInt32
}

/// One worker's search of a table: its own labels, heap and query stamp.
final class TableWorker: @unchecked Sendable {
    let state: UpwardSearchState
    private var stamp: UInt32 = 0

    init(nodeCount: Int) { state = UpwardSearchState(nodeCount: nodeCount) }

    /// A full upward search (no stopping criterion) with stall-on-demand; calls `visit` for every
    /// settled node that is not stalled, with its distance.
    @inline(__always)
    func exhaustUpward(from ends: [CHEndpoint], graph g: CHGraphView, stallBit: UInt8,
                       _ visit: (UInt32, UInt64) -> Void) {
        if stamp == UInt32.max { state.resetStamps(); stamp = 0 }
        stamp += 1
        let q = stamp
        var search = state.buffers
        ends.withUnsafeBufferPointer { search.start($0, stamp: q, nodeCount: g.nodeCount) }
        while !search.heap.isEmpty {
            let (v, d) = search.heap.popMin()
            let vi = Int(v)
            let begin = Int(g.firstOut[vi]), end = Int(g.firstOut[vi &+ 1])
            guard let usable = search.stallTest(d: d, arcs: begin..<end, graph: g, stamp: q, stallBit: stallBit) else { continue }
            visit(v, d)
            search.relax(v, d: d, usable: usable, graph: g, stamp: q, bound: UInt64.max)
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
    private var entryCapacity = 0
    private var stamp: UInt32 = 0

    init(nodeCount: Int, threads: Int) {
        self.nodeCount = nodeCount
        workers = (0..<threads).map { _ in TableWorker(nodeCount: nodeCount) }
        let n = max(1, nodeCount)
        // calloc: zero stamps are "no bucket", and untouched pages cost no memory.
        slot = calloc(n, MemoryLayout<BucketSlot>.stride)!.bindMemory(to: BucketSlot.self, capacity: n)
        entries = .allocate(capacity: 1)
        entryCapacity = 1
    }

    deinit {
        free(slot)
        entries.deallocate()
    }

    /// Lays the hits out as buckets: counts per node, node ranges in rank order, then the hits
    /// target by target (so each bucket lists its targets in ascending order).
    func fillBuckets(_ hits: [[BucketHit]]) -> Buckets {
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
        for (t, list) in hits.enumerated() {
            for h in list {
                let v = Int(h.node)
                entries[Int(slot[v].end)] = BucketEntry(distance: h.distance, target: UInt32(t))
                slot[v].end &+= 1
            }
        }
        return Buckets(slot: slot, entries: entries, stamp: q)
    }
}
