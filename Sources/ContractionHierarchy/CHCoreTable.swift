import OffgridCore

/// Shortest distances between every two of the hierarchy's top ranks (its core), so that a
/// query searches only below them and finishes with table lookups (`CHCoreQuery.swift`).
///
/// Why it is exact: on a shortest up-down path, the first core node `a` of the upward half and the
/// last core node `b` of the downward half enclose only nodes above them, all in the core; so
/// that stretch is no shorter than the core-only distance `a → b` kept here, while each upward
/// search, kept below the core, still labels `a` (or `b`) no longer than its half of the path. A
/// path whose peak is below the core is met below it as before. Most of a query's work was in
/// the core (at ~1 M nodes, 257 of 345 settled nodes were in the top 1,000 ranks).
public struct CHCoreTable: @unchecked Sendable {
    public static let unreachable = UInt32.max

    /// The lowest core rank; the core is the ranks `first ..< first + size`, the top ones.
    public let first: Int
    public let size: Int
    /// Row by row: `distances[(a - first) * size + (b - first)]` is the distance from a to b.
    public let distances: UnsafeBufferPointer<UInt32>

    /// The table of a hierarchy with `nodeCount` ranks; nil for an empty table (no core) or one
    /// whose length is not the square of a size up to `nodeCount`.
    public init?(nodeCount: Int, distances: UnsafeBufferPointer<UInt32>) {
        let size = Int(Double(distances.count).squareRoot().rounded())
        guard size > 0, size * size == distances.count, size <= nodeCount else { return nil }
        self.first = nodeCount - size
        self.size = size
        self.distances = distances
    }

    /// Whether a table of `count` entries fits a hierarchy of `nodeCount` ranks (0 is no core).
    public static func isValidLength(_ count: Int, nodeCount: Int) -> Bool {
        let size = Int(Double(count).squareRoot().rounded())
        return size * size == count && size <= nodeCount
    }

    /// The core size route-graph writes: 1,536 ranks (9 MiB), or all of a smaller hierarchy.
    /// Larger cores save more search but cost size² × 4 bytes: at ~5 M OSM nodes this one keeps the
    /// file at 59.8 bytes per node (the budget is 60), where 2,048 would take 61.2.
    public static func defaultSize(nodeCount: Int) -> Int { min(1536, nodeCount) }

    /// The largest core `build` makes: 16,384 ranks take 1 GiB.
    public static let maxSize = 16_384

    /// The table for the top `size` ranks of `g`: one Dijkstra from each core rank over the arcs
    /// between core ranks, on `threads` threads. Empty when `size` is 0, or when a distance would
    /// not fit in 32 bits (queries then search the whole hierarchy).
    public static func build(_ g: CHGraphView, size: Int, threads: Int) -> [UInt32] {
        let size = min(max(0, size), g.nodeCount, maxSize)
        guard size > 0 else { return [] }
        let first = g.nodeCount - size
        // The core's arcs as a forward adjacency on core indexes (tails, heads and weights).
        var degree = [UInt32](repeating: 0, count: size + 1)
        var arcs: [(tail: Int, head: UInt32, weight: UInt32)] = []
        forEachArc(in: g, first: first) { from, to, weight, _ in arcs.append((from, UInt32(to), weight)) }
        for arc in arcs { degree[arc.tail + 1] += 1 }
        for i in 0..<size { degree[i + 1] += degree[i] }
        var next = degree, heads = [UInt32](repeating: 0, count: arcs.count), weights = heads
        for arc in arcs {
            let slot = Int(next[arc.tail])
            heads[slot] = arc.head
            weights[slot] = arc.weight
            next[arc.tail] += 1
        }
        var table = [UInt32](repeating: unreachable, count: size * size)
        var tooLong = false
        table.withUnsafeMutableBufferPointer { table in
            let workers = max(1, threads)
            var overflow = [Bool](repeating: false, count: workers)
            overflow.withUnsafeMutableBufferPointer { overflow in
                Parallel.forEachChunk(count: size, threads: workers, chunkSize: 16) { worker, sources in
                    let heap = IndexedHeap.Storage(capacity: size)
                    var h = heap.heap
                    var dist = [UInt64](repeating: UInt64.max, count: size)
                    for s in sources {
                        for i in 0..<size { dist[i] = UInt64.max }
                        dist[s] = 0
                        h.clear()
                        h.push(UInt32(s), key: 0)
                        while !h.isEmpty {
                            let (v, d) = h.popMin()
                            for k in Int(degree[Int(v)])..<Int(degree[Int(v) + 1]) {
                                let x = Int(heads[k]), nd = d + UInt64(weights[k])
                                if dist[x] == UInt64.max { dist[x] = nd; h.push(UInt32(x), key: nd) }
                                else if nd < dist[x] { dist[x] = nd; h.decrease(UInt32(x), to: nd) }
                            }
                        }
                        for x in 0..<size where dist[x] != UInt64.max {
                            if dist[x] >= UInt64(unreachable) { overflow[worker] = true }
                            table[s * size + x] = UInt32(truncatingIfNeeded: dist[x])
                        }
                    }
                    withExtendedLifetime(heap) {}
                }
            }
            tooLong = overflow.contains(true)
        }
        return tooLong ? [] : table
    }

    /// Calls `body` with each arc between core ranks of `g` (those from `first` up) in its travel
    /// direction, as core indexes (rank − first): an arc usable both ways twice. `arc` is its
    /// index in `g.arcs`, stored at the lower of the two ranks.
    static func forEachArc(in g: CHGraphView, first: Int,
                           _ body: (_ from: Int, _ to: Int, _ weight: UInt32, _ arc: Int) -> Void) {
        for v in first..<g.nodeCount {
            for a in Int(g.firstOut[v])..<Int(g.firstOut[v + 1]) {
                let arc = g.arcs[a], x = Int(arc.head) - first
                if arc.allows(CHDirection.forward) { body(v - first, x, arc.weight, a) }
                if arc.allows(CHDirection.backward) { body(x, v - first, arc.weight, a) }
            }
        }
    }

    /// The first problem of the table against the hierarchy `g`, or nil. The quick checks (every
    /// open): zeros on the diagonal, and no entry above the weight of a core arc between its two
    /// ranks. With `complete`, also that the entries are the core's shortest distances: no arc
    /// shortens one (`D(a,c) ≤ D(a,b) + w(b→c)`) and each finite one but the diagonal is made of
    /// an entry and an arc (size × core arcs steps, for `route-graph`'s and `verify`'s checks).
    public func problem(in g: CHGraphView, complete: Bool) -> String? {
        guard first + size == g.nodeCount else { return "core of \(size) ranks does not end at rank \(g.nodeCount)" }
        for a in 0..<size where distances[a * size + a] != 0 {
            return "core distance from rank \(first + a) to itself is \(distances[a * size + a])"
        }
        var aboveArc: (from: Int, to: Int, weight: UInt32)?
        Self.forEachArc(in: g, first: first) { from, to, weight, _ in
            if aboveArc == nil && distances[from * size + to] > weight { aboveArc = (from, to, weight) }
        }
        if let (from, to, weight) = aboveArc {
            return "core distance from rank \(first + from) to rank \(first + to) exceeds their arc's weight \(weight)"
        }
        guard complete else { return nil }
        // For each source row: relax every core arc once; an entry that an arc shortens is too
        // long, and one that no arc reaches exactly is too short (not a path's length).
        for a in 0..<size {
            let row = a * size
            var made = [Bool](repeating: false, count: size)
            made[a] = true
            var longer: (from: Int, to: Int)?
            func relax(_ from: Int, _ to: Int, _ weight: UInt32) {
                let d = distances[row + from]
                guard d != Self.unreachable else { return }
                let through = UInt64(d) + UInt64(weight), there = distances[row + to]
                if there == Self.unreachable || through < UInt64(there) { longer = longer ?? (from, to) }
                if through == UInt64(there) { made[to] = true }
            }
            Self.forEachArc(in: g, first: first) { from, to, weight, _ in relax(from, to, weight) }
            if let (from, to) = longer {
                return "core distance from rank \(first + a) to rank \(first + to) is longer than a path through rank \(first + from)"
            }
            for b in 0..<size where !made[b] && distances[row + b] != Self.unreachable {
                return "core distance from rank \(first + a) to rank \(first + b) is shorter than any path"
            }
        }
        return nil
    }
}
