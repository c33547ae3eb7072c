/// Distance-only queries with a core table (`CHCoreTable`): both upward searches stay below the
/// core, labelling the core ranks they reach (their access ranks) without settling them; the
/// answer is the best of the meetings below the core and, over every pair of access ranks,
/// forward label + table entry + backward label.
extension CHQuery {
    func coreDistance(_ sources: UnsafeBufferPointer<CHEndpoint>, _ targets: UnsafeBufferPointer<CHEndpoint>,
                      core: CHCoreTable) -> UInt64 {
        let lists = coreAccess(core)
        var forwardAccess = CoreAccessList(first: UInt32(core.first), ranks: lists.forward)
        var backwardAccess = CoreAccessList(first: UInt32(core.first), ranks: lists.backward)
        var best = search(sources, targets, forwardCore: &forwardAccess, backwardCore: &backwardAccess).distance
        guard let table = core.distances.baseAddress else { return best }
        let forwardSet = lists.forwardSet.fill(forwardAccess, labels: forwardState.buffers.label, below: best, first: core.first)
            .pruned(table: table, size: core.size, forward: true)
        let backwardSet = lists.backwardSet.fill(backwardAccess, labels: backwardState.buffers.label, below: best, first: core.first)
            .pruned(table: table, size: core.size, forward: false)
        for i in 0..<forwardSet.count {
            let head = forwardSet.distance[i]
            let row = table + Int(forwardSet.index[i]) * core.size
            for j in 0..<backwardSet.count {
                let middle = row[Int(backwardSet.index[j])]
                if middle == CHCoreTable.unreachable { continue }
                let total = head &+ UInt64(middle) &+ backwardSet.distance[j]
                if total < best { best = total }
            }
        }
        return best
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

/// Per-query scratch of `CHQuery.coreDistance`: each side's access ranks, and the same as table
/// indexes with their distances.
final class CoreAccessLists {
    let forward: UnsafeMutablePointer<UInt32>
    let backward: UnsafeMutablePointer<UInt32>
    let forwardSet: CoreAccessSet
    let backwardSet: CoreAccessSet
    let capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
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
    /// reached by detours below the core, so far fewer pairs are left to combine.
    func pruned(table: UnsafePointer<UInt32>, size: Int, forward: Bool, pivots: Int = 8) -> CoreAccessSet {
        guard count > pivots else { return self }
        for k in 0..<pivots {
            var nearest = k
            for i in (k &+ 1)..<count where distance[i] < distance[nearest] { nearest = i }
            (index[k], index[nearest]) = (index[nearest], index[k])
            (distance[k], distance[nearest]) = (distance[nearest], distance[k])
        }
        var set = self
        set.count = pivots
        for i in pivots..<count {
            let x = Int(index[i]), d = distance[i]
            var dropped = false
            for k in 0..<pivots {
                let p = Int(index[k])
                let via = forward ? table[p &* size &+ x] : table[x &* size &+ p]
                if via != CHCoreTable.unreachable && distance[k] &+ UInt64(via) <= d { dropped = true; break }
            }
            if !dropped { index[set.count] = Int32(truncatingIfNeeded: x); distance[set.count] = d; set.count &+= 1 }
        }
        return set
    }
}
