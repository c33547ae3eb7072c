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
    /// Core path sums for spans, by entry << 32 | exit (nil: the path's sum is unknown).
    var coreLengths: [UInt64: UInt64?] = [:]

    init(coreSize: Int) {
        size = coreSize
        lists = CoreAccessLists(capacity: coreSize)
        through = .allocate(capacity: 1)
        throughFrom = .allocate(capacity: 1)
        capacity = 1
    }

    deinit { through.deallocate(); throughFrom.deallocate() }

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
    func combine(into row: UnsafeMutablePointer<UInt64>, targets access: TableTargetAccess, targetCount: Int) {
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
    /// The `lengths` sum along the core path from `entry` to `exit` (`CoreInArcs.path`),
    /// remembered per pair; nil when a hop's sum is unknown.
    func coreLength(from entry: UInt32, to exit: UInt32, core: CHCoreTable, inArcs: CoreInArcs,
                    graph: CHGraphView, lengths: CHArcLengths) -> UInt64? {
        if entry == exit { return 0 }
        let key = UInt64(entry) << 32 | UInt64(exit)
        if let known = coreLengths[key] { return known }
        var sum: UInt64? = 0
        if let hops = inArcs.path(from: entry, to: exit, core: core, graph: graph) {
            for hop in hops {
                // A core arc is stored at its lower end; from the lower to the higher rank it is used forward.
                guard let l = lengths.length(arc: Int(hop.arc), tail: min(hop.from, hop.to),
                                             bit: hop.from < hop.to ? CHDirection.forward : CHDirection.backward) else { sum = nil; break }
                sum = sum.map { $0 &+ l }
            }
        } else {
            sum = nil
        }
        coreLengths[key] = sum
        return sum
    }
}
