import OffgridCore

/// Tables on a hierarchy with a core table (`CHCoreTable`): every search stays below the core,
/// as point-to-point queries do (`CHCoreQuery.swift`), and pairs joined through the core are
/// combined from the table. The core may be uncontracted (`ContractionOptions.uncontractedCore`),
/// so no search may go through it; and the buckets of its top ranks, which every search
/// reached, were the table's largest.
///
/// Per source, `through[c]` = min over its access ranks a of d(a) + D(a, column c): one pass
/// over a table row per access rank, over the columns the targets' access ranks use; then each
/// target's distance through the core is min over its access ranks b of through[b] + d(b).

/// One table's core side: the core table, each worker's scratch, and with a metric the core's
/// incoming arcs (for the sums along core stretches).
struct TableCoreJoin {
    let core: CHCoreTable
    let scratch: [TableCoreScratch]
    let inArcs: CoreInArcs?
    let labels: [UnsafeMutablePointer<SearchLabel>]

    init(core: CHCoreTable, workers: [TableWorker], inArcs: CoreInArcs?) {
        self.core = core
        scratch = workers.map { $0.coreScratch(size: core.size) }
        labels = workers.map { $0.state.buffers.label }
        self.inArcs = inArcs
    }

    /// An empty list of the core ranks worker `w`'s next search reaches.
    func accessList(worker w: Int, forward: Bool) -> CoreAccessList {
        CoreAccessList(first: UInt32(core.first), ranks: forward ? scratch[w].lists.forward : scratch[w].lists.backward)
    }

    /// A target's access ranks after its backward search (`list`), pruned, each with its tail
    /// down to the target when there is a path tree.
    func targetAccess(worker w: Int, list: CoreAccessList, tree: TablePathTrees?) -> [TargetAccess] {
        let set = scratch[w].lists.backwardSet.fill(list, labels: labels[w], below: UInt64.max, first: core.first)
            .pruned(core, forward: false)
        return (0..<set.count).map { i in
            let rank = UInt32(Int(set.index[i]) + core.first)
            let tail = tree?.extend(rank, parentArc: labels[w][Int(rank)].parentArc, bit: CHDirection.backward)
            return TargetAccess(index: set.index[i], distance: set.distance[i], tail: tail ?? BucketTail(root: 0, length: 0))
        }
    }

    /// Lowers a source's row to its distances through the core after its forward search
    /// (`list`); returns its pruned access ranks (`scratch[w].meets` says which targets they gave).
    func joinRow(worker w: Int, list: CoreAccessList, into row: UnsafeMutablePointer<UInt64>,
                 targets: TableTargetAccess) -> CoreAccessSet {
        let set = scratch[w].lists.forwardSet.fill(list, labels: labels[w], below: UInt64.max, first: core.first)
            .pruned(core, forward: true)
        scratch[w].fillThrough(set, columns: targets.columns, core: core)
        scratch[w].combine(into: row, targets: targets)
        return set
    }

    /// The span of the row's path through the core to target `t`: the source's tree up to the
    /// access rank, the core stretch, the target's tail. Nil when a sum is unknown.
    func span(worker w: Int, target t: Int, sources: CoreAccessSet, targets: TableTargetAccess,
              tree: TablePathTrees, graph: CHGraphView) -> CHPathSpan? {
        guard let inArcs else { return nil }
        let j = scratch[w].meets[t], column = Int(targets.column[j])
        let i = Int(scratch[w].throughFrom[column])
        let a = UInt32(Int(sources.index[i]) + core.first), b = UInt32(Int(targets.columns[column]) + core.first)
        let up = tree.extend(a, parentArc: labels[w][Int(a)].parentArc, bit: CHDirection.forward)
        let down = targets.tail[j]
        guard up.length != UInt64.max, down.length != UInt64.max,
              let middle = scratch[w].coreLength(from: a, to: b, core: core, inArcs: inArcs, graph: graph, lengths: tree.lengths) else { return nil }
        return CHPathSpan(first: up.root, last: down.root, length: up.length &+ middle &+ down.length,
                          isSingleNode: a == b && up.root == a && down.root == b)
    }
}

/// Every target's access ranks (pruned as in `CoreAccessSet.pruned`), flat: target t's are
/// `start[t] ..< start[t + 1]`, each as a column (an index into `columns`, the core indexes any
/// target uses, ascending) with its distance down to the target, and with a metric its tail.
struct TableTargetAccess {
    var start: [Int] = [0]
    var column: [Int32] = []
    var distance: [UInt64] = []
    var tail: [BucketTail] = []
    var columns: [Int32] = []

    /// From each target's (core index, distance, tail) lists.
    init(_ lists: [[TargetAccess]], coreSize: Int, withTails: Bool) {
        var used = [Bool](repeating: false, count: coreSize)
        for list in lists { for a in list { used[Int(a.index)] = true } }
        var columnOf = [Int32](repeating: -1, count: coreSize)
        for i in 0..<coreSize where used[i] {
            columnOf[i] = Int32(columns.count)
            columns.append(Int32(i))
        }
        start.reserveCapacity(lists.count + 1)
        for list in lists {
            for a in list {
                column.append(columnOf[Int(a.index)])
                distance.append(a.distance)
                if withTails { tail.append(a.tail) }
            }
            start.append(column.count)
        }
    }
}

/// One access rank of one target, as the backward search left it.
struct TargetAccess {
    var index: Int32
    var distance: UInt64
    var tail: BucketTail
}

/// One table worker's scratch for the core: its search's access list and sets, and the row's
/// per-column distances through the core.
final class TableCoreScratch {
    let lists: CoreAccessLists
    let size: Int
    private(set) var through: UnsafeMutablePointer<UInt64>
    /// Per column: which source access rank (index into the source's set) gave `through`.
    private(set) var throughFrom: UnsafeMutablePointer<Int32>
    private var capacity = 0
    /// Per target of the current row: the target access entry of its best path through the
    /// core, -1 when its best was met below it.
    var meets: [Int] = []
    /// Core path sums for spans: per entry rank, the sum from it to each core index along its
    /// shortest-path tree as far as walked (`notWalked` elsewhere), in one of `entrySlots` rows
    /// of `sums` (allocated on first use); the last entry looked up is remembered.
    private var entrySlot: [UInt32: Int] = [:]
    private var sums: UnsafeMutablePointer<UInt64>?
    private var lastEntry = UInt32.max, lastSums: UnsafeMutablePointer<UInt64>?
    static let entrySlots = 256
    /// The ranks of the walk in progress (core indexes), with a stamp to spot one coming back.
    private var walk: [(index: Int, sum: UInt64)] = []
    private var onWalk: [UInt32]
    private var walkStamp: UInt32 = 0
    static let notWalked = UInt64.max

    init(coreSize: Int) {
        size = coreSize
        lists = CoreAccessLists(capacity: coreSize)
        onWalk = [UInt32](repeating: 0, count: coreSize)
        through = .allocate(capacity: 1)
        throughFrom = .allocate(capacity: 1)
        capacity = 1
    }

    deinit { through.deallocate(); throughFrom.deallocate(); sums?.deallocate() }

    /// The source access ranks' best distances to every column: `through[c]`, `throughFrom[c]`.
    func fillThrough(_ sources: CoreAccessSet, columns: [Int32], core: CHCoreTable) {
        let n = columns.count
        if n > capacity {
            through.deallocate(); throughFrom.deallocate()
            capacity = n
            through = .allocate(capacity: n)
            throughFrom = .allocate(capacity: n)
        }
        through.update(repeating: UInt64.max, count: n)
        columns.withUnsafeBufferPointer { columns in
            for i in 0..<sources.count {
                let d = sources.distance[i], row = Int(sources.index[i]) &* core.size
                for c in 0..<n {
                    let middle = core.entry(row &+ Int(columns[c]))
                    if middle == CHCoreTable.unreachable { continue }
                    let total = d &+ UInt64(middle)
                    if total < through[c] { through[c] = total; throughFrom[c] = Int32(truncatingIfNeeded: i) }
                }
            }
        }
    }

    /// Lowers `row[t]` to each target's best distance through the core, noting in `meets`
    /// which of its access entries gave it.
    func combine(into row: UnsafeMutablePointer<UInt64>, targets access: TableTargetAccess) {
        let targetCount = access.start.count - 1
        if meets.count != targetCount { meets = [Int](repeating: -1, count: targetCount) }
        access.start.withUnsafeBufferPointer { start in
        access.column.withUnsafeBufferPointer { column in
        access.distance.withUnsafeBufferPointer { distance in
        meets.withUnsafeMutableBufferPointer { meets in
            for t in 0..<targetCount {
                meets[t] = -1
                for j in start[t]..<start[t &+ 1] {
                    let via = through[Int(column[j])]
                    if via == UInt64.max { continue }
                    let total = via &+ distance[j]
                    if total < row[t] { row[t] = total; meets[t] = j }
                }
            }
        }}}}
    }
}

extension TableCoreScratch {
    /// The `lengths` sum along a shortest core path from `entry` to `exit`; nil when a hop's sum
    /// is unknown.
    ///
    /// Walked backwards from `exit` as `CoreInArcs.greedyPath` does (the first in-arc from a rank
    /// whose table distance plus the arc's weight is this rank's), but only until a rank whose
    /// sum from `entry` is known: the walks from one entry form its shortest-path tree, so a
    /// table's pairs through the core cost about one walk per core rank reached, not one per
    /// pair. A walk that comes back onto itself (zero-weight cycles) takes `CoreInArcs.path`'s
    /// path for its pair instead, remembering nothing.
    func coreLength(from entry: UInt32, to exit: UInt32, core: CHCoreTable, inArcs: CoreInArcs,
                    graph: CHGraphView, lengths: CHArcLengths) -> UInt64? {
        if entry == exit { return 0 }
        let first = core.first, row = Int(entry) - first
        let sums = sumsFrom(entry, row: row)
        func hopLength(_ arc: UInt32, from x: UInt32, to y: UInt32) -> UInt64? {
            // A core arc is stored at its lower end; from the lower to the higher rank it is used forward.
            lengths.length(arc: Int(arc), tail: min(x, y), bit: x < y ? CHDirection.forward : CHDirection.backward)
        }
        func alongPath() -> UInt64? {
            guard let hops = inArcs.path(from: entry, to: exit, core: core, graph: graph) else { return nil }
            var sum: UInt64 = 0
            for hop in hops {
                guard let l = hopLength(hop.arc, from: hop.from, to: hop.to) else { return nil }
                sum &+= l
            }
            return sum
        }
        if walkStamp == UInt32.max { onWalk = [UInt32](repeating: 0, count: size); walkStamp = 0 }
        walkStamp += 1
        walk.removeAll(keepingCapacity: true)
        var y = Int(exit) - first
        while sums[y] == Self.notWalked {
            onWalk[y] = walkStamp
            let stamp = walkStamp
            guard let k = inArcs.predecessor(of: y, row: row, core: core, graph: graph, skip: { onWalk[$0] == stamp }) else {
                return alongPath()
            }
            let x = Int(inArcs.tails[k]) - first
            guard let l = hopLength(inArcs.arcs[k], from: UInt32(x + first), to: UInt32(y + first)) else { return alongPath() }
            walk.append((y, l))
            y = x
        }
        var sum = sums[y]
        for step in walk.reversed() {
            sum &+= step.sum
            sums[step.index] = sum
        }
        return sums[Int(exit) - first]
    }

    /// `entry`'s row of sums, made (all `notWalked` but its own 0) when it has none; when all
    /// rows are taken, every row is forgotten.
    private func sumsFrom(_ entry: UInt32, row: Int) -> UnsafeMutablePointer<UInt64> {
        if entry == lastEntry, let lastSums { return lastSums }
        let base = sums ?? {
            let all = UnsafeMutablePointer<UInt64>.allocate(capacity: Self.entrySlots * size)
            sums = all
            return all
        }()
        let row0: UnsafeMutablePointer<UInt64>
        if let slot = entrySlot[entry] {
            row0 = base + slot * size
        } else {
            if entrySlot.count == Self.entrySlots { entrySlot.removeAll(keepingCapacity: true) }
            row0 = base + entrySlot.count * size
            entrySlot[entry] = entrySlot.count
            row0.update(repeating: Self.notWalked, count: size)
            row0[row] = 0
        }
        lastEntry = entry
        lastSums = row0
        return row0
    }
}
