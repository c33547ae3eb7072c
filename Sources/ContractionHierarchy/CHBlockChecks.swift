import OffgridCore

/// The block checks of a hierarchy read from a file (`BlockChecks` over ranks, 1,024 a block:
/// ~4,400 arcs, 35 KiB on road graphs, so checking a block a search enters costs about what
/// reading its arcs does). What a block must satisfy is what memory safety and termination need
/// of the arcs a search reads there: `firstOut` not decreasing and within the arcs; every arc's
/// head a higher rank, its weight at most `maxWeight`, its direction bits in the search layout's
/// order; every shortcut's middle stored and below the arc's lower end (so unpacking ends).
/// `validate` (a graph file's `verify()`) checks all that and the rest: shortcut halves, and the
/// index of middles as a whole. A rank of a block that failed has no arcs (`arcRange`).
extension CHGraphView {
    public static let checkedBlockShift = 10

    /// Block checks of this (unchecked) view's ranks, for a view made with them as `checks`.
    public func blockChecks(maxWeight: UInt32) -> BlockChecks {
        BlockChecks(count: nodeCount, shift: Self.checkedBlockShift) { ranks in
            self.blockProblem(ranks: ranks, maxWeight: maxWeight)
        }
    }

    /// The first problem of ranks `ranks` (a block), or nil; reads the arrays only at positions
    /// it has proved in range.
    func blockProblem(ranks: Range<Int>, maxWeight: UInt32) -> String? {
        let arcCount = UInt32(arcs.count)
        for r in ranks where firstOut[r] > firstOut[r + 1] || firstOut[r + 1] > arcCount {
            return "firstOut at rank \(r) (\(firstOut[r]) → \(firstOut[r + 1])) decreases or passes the \(arcCount) arcs"
        }
        let shortcuts = middle.shortcutCount
        for r in ranks {
            var previousGroup = 0
            for a in Int(firstOut[r])..<Int(firstOut[r + 1]) {
                let arc = arcs[a], h = arc.head, d = arc.direction
                if Int(h) >= nodeCount || h <= UInt32(r) { return "arc \(a) of rank \(r) points to rank \(h), not higher" }
                if arc.weight > maxWeight { return "arc \(a) of rank \(r) has weight \(arc.weight), above \(maxWeight)" }
                if d == 0 { return "arc \(a) has direction \(d)" }
                // Forward-only (1), both (3), backward-only (2): the order searches rely on.
                let group = d == 1 ? 0 : d == 3 ? 1 : 2
                if group < previousGroup { return "arc \(a) of rank \(r) is out of direction order" }
                previousGroup = group
                guard middle.isShortcut(a) else { continue }
                let k = middle.firstShortcut(atOrAfter: a)
                guard k < shortcuts else { return "shortcut \(a) of rank \(r) has middle number \(k), past the \(shortcuts) stored" }
                let m = middle.shortcutMiddle(k)
                if m >= UInt32(r) { return "arc \(a) of rank \(r) has middle \(m), not lower" }
            }
        }
        return nil
    }
}
