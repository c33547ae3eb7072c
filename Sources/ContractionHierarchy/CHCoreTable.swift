import CShims
import OffgridCore

/// Shortest distances between every two of the hierarchy's top ranks (its core), so that a
/// query searches only below them and finishes with table lookups (`CHCoreQuery.swift`).
///
/// Why it is exact: with every node below the core contracted, some shortest path climbs through
/// non-core nodes to a first core node `a`, runs among core nodes to a last one `b` and descends
/// through non-core nodes (the contraction's shortcuts preserve distances among the nodes left);
/// that middle stretch is no shorter than the core-only distance `a → b` kept here, while each
/// upward search, kept below the core, still labels `a` (or `b`) no longer than its part of the
/// path. A path that never reaches the core is met below it as before. This holds whether the
/// core itself was contracted or left as it remained (`ContractionOptions.uncontractedCore`). Most of a query's work was in
/// the core (at ~1 M nodes, 257 of 345 settled nodes were in the top 1,000 ranks).
public struct CHCoreTable: @unchecked Sendable {
    /// Entries take three bytes: 16.7 M deciseconds (466 hours) is far beyond any core distance,
    /// and a quarter fewer bytes per entry buys a larger core within the same file budget.
    public static let entryBytes = 3
    public static let unreachable: UInt32 = 0xFF_FFFF

    /// The lowest core rank; the core is the ranks `first ..< first + size`, the top ones.
    public let first: Int
    public let size: Int
    /// Row by row, `entryBytes` little-endian bytes each: entry `(a - first) * size + (b - first)`
    /// is the distance from a to b. The byte before the first entry must be readable too (a read
    /// loads the four bytes that end with an entry's last): a file section lies after its header.
    public let entries: UnsafeRawPointer

    /// The table of a hierarchy with `nodeCount` ranks; nil for an empty table (no core) or one
    /// whose length is not `entryBytes` × the square of a size up to `nodeCount`.
    public init?(nodeCount: Int, entries: UnsafeRawBufferPointer) {
        guard let base = entries.baseAddress, entries.count % Self.entryBytes == 0,
              entries.count > 0, Self.isValidLength(entries.count / Self.entryBytes, nodeCount: nodeCount) else { return nil }
        size = Self.size(ofLength: entries.count / Self.entryBytes)
        first = nodeCount - size
        self.entries = base
    }

    /// Entry `index` (row × size + column): one unaligned load, no branch.
    @inline(__always) public func entry(_ index: Int) -> UInt32 {
        (entries + (index &* Self.entryBytes &- 1)).loadUnaligned(as: UInt32.self) >> 8
    }

    /// The distance from core index `a` to core index `b` (ranks minus `first`).
    @inline(__always) public func distance(_ a: Int, _ b: Int) -> UInt32 { entry(a &* size &+ b) }

    /// Asks for entry `index`'s cache line, without waiting for it.
    @inline(__always) func prefetch(_ index: Int) { offgrid_prefetch(entries + index &* Self.entryBytes) }

    /// The core size of a table of `count` entries (its square root, rounded).
    public static func size(ofLength count: Int) -> Int { Int(Double(count).squareRoot().rounded()) }

    /// Whether a table of `count` entries fits a hierarchy of `nodeCount` ranks (0 is no core).
    public static func isValidLength(_ count: Int, nodeCount: Int) -> Bool {
        let size = size(ofLength: count)
        return size * size == count && size <= nodeCount
    }

    /// The core size route-graph writes for a hierarchy of `nodeCount` ranks: the table takes at
    /// most 38.4 bytes per rank (√(38.4 / 3 × ranks), down to a multiple of 64; none up to 320
    /// ranks) and at most 8,192 ranks (192 MiB). Larger cores save more search but cost size² × 3
    /// bytes. At ~5 M OSM nodes (2.3 M ranks) it is 5,440 ranks, which keep the file under 60
    /// bytes per node since graph file version 9 stores shortcut middles in three bytes (5,248 at
    /// 36.3 bytes per rank in version 8, 4,672 at 28.5 in version 6, 4,096 at 22 before, 3,200
    /// before version 4); at ~1 M (464 k ranks) 2,432, and a small extract's table stays small
    /// next to its graph.
    public static func defaultSize(nodeCount: Int) -> Int {
        min(8192, Int((38.4 / 3.0 * Double(max(0, nodeCount))).squareRoot()) / 64 * 64)
    }

    /// The largest core `build` makes: 16,384 ranks take 768 MiB.
    public static let maxSize = 16_384

    /// The table for the top `size` ranks of `g` (`entryBytes` per entry, row by row): one
    /// Dijkstra from each core rank over the arcs between core ranks, on `threads` threads. Empty
    /// when `size` is 0, or when a distance would not fit in an entry (queries then search the
    /// whole hierarchy, which must then be contracted throughout: `buildWithCoreTable`).
    public static func build(_ g: CHGraphView, size: Int, threads: Int) -> [UInt8] {
        let size = min(max(0, size), g.nodeCount, maxSize)
        guard size > 0 else { return [] }
        // The core's arcs as a plain graph on core indexes, one Dijkstra from each of its nodes.
        var arcs = ArcList()
        forEachArc(in: g, first: g.nodeCount - size) { from, to, weight, _ in
            arcs.append(tail: UInt32(from), head: UInt32(to), weight: weight)
        }
        let coreGraph = CSRGraph(nodeCount: size, arcs: arcs)
        var table = [UInt8](repeating: 0xFF, count: size * size * entryBytes)
        var tooLong = false
        table.withUnsafeMutableBufferPointer { table in
            let workers = max(1, min(threads, size))
            let searches = (0..<workers).map { _ in DijkstraQuery(coreGraph) }
            var overflow = [Bool](repeating: false, count: workers)
            overflow.withUnsafeMutableBufferPointer { overflow in
                Parallel.forEachChunk(count: size, threads: workers, chunkSize: 16) { worker, sources in
                    withUnsafeTemporaryAllocation(of: UInt64.self, capacity: size) { dist in
                        for s in sources {
                            searches[worker].distances(from: UInt32(s), into: dist)
                            for x in 0..<size where dist[x] != UInt64.max {
                                if dist[x] >= UInt64(unreachable) { overflow[worker] = true }
                                let at = (s * size + x) * entryBytes
                                for k in 0..<entryBytes { table[at + k] = UInt8(truncatingIfNeeded: dist[x] >> (8 * k)) }
                            }
                        }
                    }
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
            for a in g.arcRange(v) {
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
        for a in 0..<size where distance(a, a) != 0 {
            return "core distance from rank \(first + a) to itself is \(distance(a, a))"
        }
        var aboveArc: (from: Int, to: Int, weight: UInt32)?
        Self.forEachArc(in: g, first: first) { from, to, weight, _ in
            if aboveArc == nil && distance(from, to) > weight { aboveArc = (from, to, weight) }
        }
        if let (from, to, weight) = aboveArc {
            return "core distance from rank \(first + from) to rank \(first + to) exceeds their arc's weight \(weight)"
        }
        guard complete else { return nil }
        // For each source row: relax every core arc once; an entry that an arc shortens is too
        // long, and one that no arc reaches exactly is too short (not a path's length).
        for a in 0..<size {
            var made = [Bool](repeating: false, count: size)
            made[a] = true
            var longer: (from: Int, to: Int)?
            func relax(_ from: Int, _ to: Int, _ weight: UInt32) {
                let d = distance(a, from)
                guard d != Self.unreachable else { return }
                let through = UInt64(d) + UInt64(weight), there = distance(a, to)
                if there == Self.unreachable || through < UInt64(there) { longer = longer ?? (from, to) }
                if through == UInt64(there) { made[to] = true }
            }
            Self.forEachArc(in: g, first: first) { from, to, weight, _ in relax(from, to, weight) }
            if let (from, to) = longer {
                return "core distance from rank \(first + a) to rank \(first + to) is longer than a path through rank \(first + from)"
            }
            for b in 0..<size where !made[b] && distance(a, b) != Self.unreachable {
                return "core distance from rank \(first + a) to rank \(first + b) is shorter than any path"
            }
        }
        return nil
    }
}
