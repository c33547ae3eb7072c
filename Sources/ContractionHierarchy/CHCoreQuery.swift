/// Queries with a core table (`CHCoreTable`): both upward searches stay below the core,
/// labelling the core ranks they reach (their access ranks) without settling them; the answer is
/// the best of the meetings below the core and, over every pair of access ranks, forward label +
/// table entry + backward label. A path through the core is rebuilt from the table.
extension CHQuery {
    /// One arc of a path through the core, `from → to` in travel order: arc `arc` of the upward
    /// graph, stored at the lower of the two.
    typealias CoreHop = (arc: UInt32, from: UInt32, to: UInt32)

    /// The distance, and where the best path leaves the forward tree (`entry`) and joins the
    /// backward tree (`exit`): the same rank when the searches met below the core or at one
    /// core rank, else two access ranks joined through the core.
    func coreSearch(_ sources: UnsafeBufferPointer<CHEndpoint>, _ targets: UnsafeBufferPointer<CHEndpoint>,
                    core: CHCoreTable) -> (distance: UInt64, entry: UInt32, exit: UInt32) {
        let lists = coreAccess(core)
        var forwardAccess = CoreAccessList(first: UInt32(core.first), ranks: lists.forward)
        var backwardAccess = CoreAccessList(first: UInt32(core.first), ranks: lists.backward)
        let below = search(sources, targets, forwardCore: &forwardAccess, backwardCore: &backwardAccess)
        var best = below.distance
        let meet = below.meet
        var pair: (Int, Int)?
        // Both sides' pivots are chosen, and their entries asked for, before either side is pruned.
        let forwardAll = lists.forwardSet.fill(forwardAccess, labels: forwardState.buffers.label, below: best, first: core.first)
            .withPivots(core, forward: true)
        let backwardAll = lists.backwardSet.fill(backwardAccess, labels: backwardState.buffers.label, below: best, first: core.first)
            .withPivots(core, forward: false)
        // The pairs' entries lie all over the table (65 MB at ~5 M nodes, above the last-level
        // cache): each is asked for as soon as its backward rank survives pruning, so that
        // their misses overlap the rest of the pruning instead of the loop below.
        let forwardSet = forwardAll.prunedByPivots(core, forward: true)
        let backwardSet = backwardAll.prunedByPivots(core, forward: false, askingForRowsOf: forwardSet)
        for i in 0..<forwardSet.count {
            let head = forwardSet.distance[i]
            let row = Int(forwardSet.index[i]) &* core.size
            for j in 0..<backwardSet.count {
                let middle = core.entry(row &+ Int(backwardSet.index[j]))
                if middle == CHCoreTable.unreachable { continue }
                let total = head &+ UInt64(middle) &+ backwardSet.distance[j]
                if total < best { best = total; pair = (i, j) }
            }
        }
        guard let (i, j) = pair else { return (best, meet, meet) }
        return (best, UInt32(Int(forwardSet.index[i]) + core.first), UInt32(Int(backwardSet.index[j]) + core.first))
    }

    /// A shortest path within the core from `entry` to `exit` (`CoreInArcs.path`).
    func corePath(from entry: UInt32, to exit: UInt32, core: CHCoreTable) -> [CoreHop]? {
        coreInArcs(core).path(from: entry, to: exit, core: core, graph: graph)
    }

    /// Where a path is read from: the forward tree's end `upEnd`, the backward tree's start
    /// `downStart`, and the core arcs between them (none when the two meet below the core, or
    /// for a graph without a core). Nil when no target is reachable.
    func pathSearch(_ sources: [CHEndpoint], _ targets: [CHEndpoint])
        -> (distance: UInt64, upEnd: UInt32, downStart: UInt32, hops: [CoreHop])? {
        func wholeHierarchy() -> (distance: UInt64, upEnd: UInt32, downStart: UInt32, hops: [CoreHop])? {
            let (best, meet) = search(sources: sources, targets: targets)
            return best == UInt64.max ? nil : (best, meet, meet, [])
        }
        guard let core = graph.core else { return wholeHierarchy() }
        let found = sources.withUnsafeBufferPointer { s in targets.withUnsafeBufferPointer { t in coreSearch(s, t, core: core) } }
        guard found.distance != UInt64.max else { return nil }
        // The core may be uncontracted (`ContractedGraph.uncontractedCore`): no search may go
        // through it, so its path comes from the table and its arcs alone.
        guard let hops = corePath(from: found.entry, to: found.exit, core: core) else { return nil }
        return (found.distance, found.entry, found.exit, hops)
    }
}

/// The arcs into each core rank from other core ranks (the upward graph stores each at its lower
/// end, so a rank's incoming arcs are scattered): built once per query object, on its first path.
final class CoreInArcs {
    let first: [Int32]
    let tails: [UInt32]
    let arcs: [UInt32]

    /// Ordered by (head, tail, arc) with two counting sorts, the first made while the arcs are
    /// read: they come in arc order, so placing each by its tail and then stably by its head
    /// gives that order in linear time. A comparison sort of the tuples, appended one by one, was
    /// most of the first path through the core (59 M of 63 M instructions at ~5 M nodes).
    init(graph g: CHGraphView, core: CHCoreTable) {
        // Scratch in plain buffers: arrays captured by the closures below were checked for
        // uniqueness at every store.
        let tailStart = UnsafeMutableBufferPointer<Int32>.allocate(capacity: core.size + 1)
        let headStart = UnsafeMutableBufferPointer<Int32>.allocate(capacity: core.size + 1)
        let next = UnsafeMutableBufferPointer<Int32>.allocate(capacity: core.size + 1)
        defer { tailStart.deallocate(); headStart.deallocate(); next.deallocate() }
        tailStart.initialize(repeating: 0)
        headStart.initialize(repeating: 0)
        CHCoreTable.forEachArc(in: g, first: core.first) { from, to, _, _ in
            tailStart[from + 1] += 1
            headStart[to + 1] += 1
        }
        for k in 0..<core.size {
            tailStart[k + 1] += tailStart[k]
            headStart[k + 1] += headStart[k]
        }
        let count = Int(tailStart[core.size])
        // By tail, in arc order within a tail.
        let byTail = UnsafeMutableBufferPointer<(head: Int32, tail: Int32, arc: UInt32)>.allocate(capacity: count)
        defer { byTail.deallocate() }
        _ = next.initialize(from: tailStart)
        CHCoreTable.forEachArc(in: g, first: core.first) { from, to, _, arc in
            byTail[Int(next[from])] = (Int32(to), Int32(from), UInt32(arc))
            next[from] += 1
        }
        // Then stably by head.
        _ = next.update(fromContentsOf: headStart)
        var tails = [UInt32](repeating: 0, count: count), arcs = [UInt32](repeating: 0, count: count)
        tails.withUnsafeMutableBufferPointer { tails in
            arcs.withUnsafeMutableBufferPointer { arcs in
                for e in byTail {
                    let i = Int(next[Int(e.head)])
                    tails[i] = UInt32(core.first) + UInt32(e.tail)
                    arcs[i] = e.arc
                    next[Int(e.head)] += 1
                }
            }
        }
        first = Array(headStart)
        self.tails = tails
        self.arcs = arcs
    }
}

/// The core ranks an upward search kept below the core has labelled (its access ranks), each
/// listed once, when first labelled; so the core size bounds their number.
struct CoreAccessList {
    /// The lowest core rank: `UInt32.max` for a search of the whole hierarchy, which lists nothing.
    let first: UInt32
    let ranks: UnsafeMutablePointer<UInt32>?
    var count = 0

    init(first: UInt32, ranks: UnsafeMutablePointer<UInt32>?) {
        self.first = first
        self.ranks = ranks
    }

    static var none: CoreAccessList { CoreAccessList(first: UInt32.max, ranks: nil) }

    @inline(__always) mutating func append(_ rank: UInt32) {
        ranks.unsafelyUnwrapped[count] = rank
        count &+= 1
    }
}

/// Per-query scratch of `CHQuery.coreSearch`: each side's access ranks, and the same as table
/// indexes with their distances.
final class CoreAccessLists {
    let forward: UnsafeMutablePointer<UInt32>
    let backward: UnsafeMutablePointer<UInt32>
    let forwardSet: CoreAccessSet
    let backwardSet: CoreAccessSet

    init(capacity: Int) {
        forward = .allocate(capacity: capacity)
        backward = .allocate(capacity: capacity)
        forwardSet = CoreAccessSet(index: .allocate(capacity: capacity), distance: .allocate(capacity: capacity), count: 0)
        backwardSet = CoreAccessSet(index: .allocate(capacity: capacity), distance: .allocate(capacity: capacity), count: 0)
    }

    deinit {
        forward.deallocate(); backward.deallocate()
        for set in [forwardSet, backwardSet] { set.index.deallocate(); set.distance.deallocate() }
    }
}

/// One side's access ranks as core indexes (rank − first) and their labels' distances.
struct CoreAccessSet {
    let index: UnsafeMutablePointer<Int32>
    let distance: UnsafeMutablePointer<UInt64>
    var count: Int

    /// The listed ranks whose distance is below `bound` (others cannot improve the answer).
    func fill(_ list: CoreAccessList, labels: UnsafeMutablePointer<SearchLabel>, below bound: UInt64, first: Int) -> CoreAccessSet {
        var set = self
        set.count = 0
        guard let ranks = list.ranks else { return set }
        for i in 0..<list.count {
            let r = Int(ranks[i]), d = labels[r].distance
            if d < bound { index[set.count] = Int32(truncatingIfNeeded: r - first); distance[set.count] = d; set.count &+= 1 }
        }
        return set
    }

    /// The nearest `pivots` entries, and the others that none of them reaches at no more cost
    /// through the core: a path through a dropped rank is never shorter than through its pivot,
    /// since core distances obey the triangle inequality. (Forward: pivot p drops a when
    /// d(p) + D(p, a) ≤ d(a); backward: when D(b, p) + d(p) ≤ d(b).) Most access ranks are
    /// reached by detours below the core, so far fewer pairs are left to combine. Four pivots:
    /// with the core numbered by place, each further pivot's lookups cost more than the pairs
    /// it drops (8 before; 12 and 16 were slower still; 3 to 5 the same with 4,672 core ranks).
    func pruned(_ core: CHCoreTable, forward: Bool) -> CoreAccessSet {
        withPivots(core, forward: forward).prunedByPivots(core, forward: forward)
    }

    static let pivots = 4

    /// The set with its `pivots` nearest entries moved to the front, and the table entries
    /// between them and the others asked for (`prunedByPivots` reads them).
    func withPivots(_ core: CHCoreTable, forward: Bool) -> CoreAccessSet {
        let pivots = Self.pivots
        guard count > pivots else { return self }
        for k in 0..<pivots {
            var nearest = k
            for i in (k &+ 1)..<count where distance[i] < distance[nearest] { nearest = i }
            (index[k], index[nearest]) = (index[nearest], index[k])
            (distance[k], distance[nearest]) = (distance[nearest], distance[k])
        }
        for k in 0..<pivots {
            let p = Int(index[k])
            for i in pivots..<count {
                let x = Int(index[i])
                core.prefetch(forward ? p &* core.size &+ x : x &* core.size &+ p)
            }
        }
        return self
    }

    /// The pivots (`withPivots`'s front) and the entries none of them drops. With `rows` (the
    /// other side's set, forward), the entries from each of its ranks to each entry kept are
    /// asked for as it is kept.
    func prunedByPivots(_ core: CHCoreTable, forward: Bool, askingForRowsOf rows: CoreAccessSet? = nil) -> CoreAccessSet {
        let pivots = Self.pivots
        func askForColumn(_ x: Int) {
            guard let rows else { return }
            for i in 0..<rows.count { core.prefetch(Int(rows.index[i]) &* core.size &+ x) }
        }
        for k in 0..<min(pivots, count) { askForColumn(Int(index[k])) }
        guard count > pivots else { return self }
        var set = self
        set.count = pivots
        for i in pivots..<count {
            let x = Int(index[i]), d = distance[i]
            var dropped = false
            for k in 0..<pivots {
                let p = Int(index[k])
                let via = forward ? core.distance(p, x) : core.distance(x, p)
                if via != CHCoreTable.unreachable && distance[k] &+ UInt64(via) <= d { dropped = true; break }
            }
            if !dropped {
                index[set.count] = Int32(truncatingIfNeeded: x); distance[set.count] = d; set.count &+= 1
                askForColumn(x)
            }
        }
        return set
    }
}
