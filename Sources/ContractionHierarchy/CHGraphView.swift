import CShims
import OffgridCore

/// One upward arc as a search reads it, 8 bytes: the higher end (a rank below 2^30) with the
/// direction bits above it in one word, the weight in the next. A scan loads one record per arc
/// from one array instead of three, and eight arcs share a cache line.
@frozen public struct CHArc: Equatable, Sendable {
    public var headAndDirection: UInt32
    public var weight: UInt32

    /// Ranks must stay below this, so that the direction fits above the head.
    public static let maxNodeCount = 1 << 30

    @inline(__always) public init(head: UInt32, weight: UInt32, direction: UInt8) {
        headAndDirection = head | UInt32(direction) << 30
        self.weight = weight
    }

    @inline(__always) public var head: UInt32 { headAndDirection & 0x3FFF_FFFF }
    @inline(__always) public var direction: UInt8 { UInt8(truncatingIfNeeded: headAndDirection >> 30) }
    /// Usable in `bit`'s direction (`CHDirection.forward` or `.backward`).
    @inline(__always) public func allows(_ bit: UInt8) -> Bool { headAndDirection & (UInt32(bit) << 30) != 0 }
}

/// A read-only view of a contraction hierarchy's search arrays, over memory someone else keeps
/// alive: a `CHGraphStorage`, or sections of a memory-mapped file.
///
/// The arcs of rank `r` are `firstOut[r] ..< firstOut[r + 1]` as `ContractedGraph` has them, but
/// grouped by direction: forward-only arcs, then arcs usable both ways, then backward-only arcs
/// (each group by head, weight, middle). So the arcs usable forward are a prefix of the range and
/// those usable backward a suffix: a search relaxes or stall-tests a run of arcs with a branch
/// that mispredicts once, not per arc. `middle[a]` is the shortcut's middle rank (`UInt32.max` for
/// a real arc), stored for shortcuts only and apart from `arcs` because only path unpacking reads it.
public struct CHGraphView: @unchecked Sendable {
    public let nodeCount: Int
    public let firstOut: UnsafeBufferPointer<UInt32>
    public let arcs: UnsafeBufferPointer<CHArc>
    public let middle: CHShortcutMiddles
    /// Distances between the top ranks, which queries search below (nil: they search all ranks).
    public let core: CHCoreTable?
    /// The checks a block of ranks passes before its arcs are read (a graph file's hierarchy,
    /// `blockChecks`); nil for a hierarchy built in memory, trusted.
    private let gate: BlockChecks.Gate?

    /// Checks only the array lengths (O(1)); call `validate()` on untrusted data, or pass
    /// `checks`, and read arcs through `arcRange` only.
    public init(nodeCount: Int, firstOut: UnsafeBufferPointer<UInt32>, arcs: UnsafeBufferPointer<CHArc>,
                middle: CHShortcutMiddles, core: CHCoreTable? = nil, checks: BlockChecks? = nil) {
        precondition(nodeCount < CHArc.maxNodeCount, "a hierarchy holds fewer than 2^30 nodes")
        precondition(firstOut.count == nodeCount + 1, "firstOut must have nodeCount + 1 entries")
        precondition(arcs.count == middle.arcCount, "middle must cover every arc")
        precondition(Int(firstOut[nodeCount]) == arcs.count, "firstOut must end at the arc count")
        self.nodeCount = nodeCount
        self.firstOut = firstOut
        self.arcs = arcs
        self.middle = middle
        precondition(core.map { $0.first + $0.size == nodeCount } ?? true, "the core must be the top ranks")
        self.core = core
        gate = checks?.gate
    }

    /// The same arrays, read through `checks` (`arcRange`).
    public func checked(by checks: BlockChecks) -> CHGraphView {
        CHGraphView(nodeCount: nodeCount, firstOut: firstOut, arcs: arcs, middle: middle, core: core, checks: checks)
    }

    /// The arcs of rank `v` (below `nodeCount`): `firstOut[v] ..< firstOut[v + 1]`, once `v`'s
    /// block has passed `checks` (checked on first use); empty for a rank of a block that failed.
    /// Every read of arcs goes through here or through an arc index it gave.
    @inline(__always) public func arcRange(_ v: Int) -> Range<Int> {
        if let gate, !gate.passed(v) { return 0..<0 }
        return Range(uncheckedBounds: (Int(firstOut[v]), Int(firstOut[v &+ 1])))
    }

    /// Column views of `arcs`, for code that reads one field by index.
    public struct Heads { let arcs: UnsafeBufferPointer<CHArc>
        @inline(__always) public subscript(i: Int) -> UInt32 { arcs[i].head }
        public var count: Int { arcs.count } }
    public struct Weights { let arcs: UnsafeBufferPointer<CHArc>
        @inline(__always) public subscript(i: Int) -> UInt32 { arcs[i].weight }
        public var count: Int { arcs.count } }
    public struct Directions { let arcs: UnsafeBufferPointer<CHArc>
        @inline(__always) public subscript(i: Int) -> UInt8 { arcs[i].direction }
        public var count: Int { arcs.count } }
    public var head: Heads { Heads(arcs: arcs) }
    public var weight: Weights { Weights(arcs: arcs) }
    public var direction: Directions { Directions(arcs: arcs) }

    /// Checks the invariants queries rely on; returns the first problem or nil. Upward arcs must
    /// point to higher ranks and middles to ranks below both ends (one sequential pass, what
    /// memory safety needs); with `shortcutHalves`, every shortcut's two halves must also exist at
    /// its middle node with the right weights (a binary search per shortcut in random order, several
    /// times slower: a semantic check, since path unpacking already refuses a missing half).
    /// Arc weights above `maxWeight` are refused too.
    public func validate(shortcutHalves: Bool = true, maxWeight: UInt32 = .max) -> String? {
        if firstOut[0] != 0 { return "firstOut[0] is \(firstOut[0]), not 0" }
        if let problem = middle.problem() { return "shortcut middles: \(problem)" }
        for r in 0..<nodeCount where firstOut[r] > firstOut[r + 1] {
            return "firstOut decreases at rank \(r)"
        }
        // Ranks in chunks on all cores; the first problem in rank order wins, so the message does
        // not depend on scheduling.
        let chunk = 1 << 14
        var problems = [String?](repeating: nil, count: (nodeCount + chunk - 1) / chunk)
        problems.withUnsafeMutableBufferPointer { slots in
            Parallel.forEachChunk(count: nodeCount, threads: Parallel.activeProcessorCount, chunkSize: chunk) { _, ranks in
                slots[ranks.lowerBound / chunk] = problem(in: ranks, shortcutHalves: shortcutHalves, maxWeight: maxWeight)
            }
        }
        return problems.lazy.compactMap { $0 }.first
    }

    /// The block checks' problems (`blockProblem`: heads, weights, direction order, middles
    /// below), then, with `shortcutHalves`, every shortcut's two halves.
    private func problem(in ranks: Range<Int>, shortcutHalves: Bool, maxWeight: UInt32) -> String? {
        if let problem = blockProblem(ranks: ranks, maxWeight: maxWeight) { return problem }
        guard shortcutHalves else { return nil }
        // Shortcuts are met in arc order, so their middles are read in turn, not looked up.
        let firstArc = Int(firstOut[ranks.lowerBound])
        var nextShortcut = firstArc < arcs.count ? middle.firstShortcut(atOrAfter: firstArc) : 0
        for r in ranks {
            for a in Int(firstOut[r])..<Int(firstOut[r + 1]) where middle.isShortcut(a) {
                let m = middle.shortcutMiddle(nextShortcut), h = head[a], d = direction[a]
                nextShortcut += 1
                // Forward r → h, and backward h → r.
                func halvesMatch(from: UInt32, to: UInt32) -> Bool {
                    guard let (a1, a2) = halves(from: from, to: to, via: m) else { return false }
                    return UInt64(weight[a1]) + UInt64(weight[a2]) == UInt64(weight[a])
                }
                if (d & CHDirection.forward != 0 && !halvesMatch(from: UInt32(r), to: h))
                    || (d & CHDirection.backward != 0 && !halvesMatch(from: h, to: UInt32(r))) {
                    return "shortcut \(a) of rank \(r) via \(m) has no matching halves"
                }
            }
        }
        return nil
    }

    /// The rank an arc is stored at (its lower end): a binary search on `firstOut`.
    @inline(__always) func tail(ofArc arc: UInt32) -> UInt32 {
        var low = 0, high = nodeCount   // firstOut[low] <= arc < firstOut[high]
        while high - low > 1 {
            let mid = (low + high) >> 1
            if firstOut[mid] <= arc { low = mid } else { high = mid }
        }
        return UInt32(low)
    }

    /// Asks for what `halves` and the halves' middles read, for the shortcuts via `middle(0)`
    /// ... `middle(count − 1)` (each below `nodeCount`), in stages whose misses overlap: finding
    /// one shortcut's halves is four misses in a row (the middle's arc range, its arcs, the
    /// index words of their middles, then the middles), waited for one after the other.
    @inline(__always) func prefetchHalves(count: Int, middle: (Int) -> Int) {
        guard let firstOut = firstOut.baseAddress, let arcs = arcs.baseAddress, let index = self.middle.index.baseAddress,
              !self.arcs.isEmpty else { return }
        for i in 0..<count { offgrid_prefetch(firstOut + middle(i)) }
        // All the arcs at each middle (the halves may be anywhere among them, and high middles
        // have several lines of arcs), and where their own middles are indexed.
        for i in 0..<count {
            let m = middle(i)
            let range = arcRange(m), first = range.lowerBound, end = range.upperBound
            var a = first
            while a < end {
                offgrid_prefetch(arcs + a)
                a += 8
            }
            offgrid_prefetch(arcs + max(first, end - 1))
            offgrid_prefetch(index + first >> 5)
            offgrid_prefetch(index + max(first, end - 1) >> 5)
        }
        // The middles of the middle's shortcut arcs, first and last.
        guard !self.middle.middles.isEmpty else { return }
        let arcCount = self.arcs.count
        for i in 0..<count {
            let range = arcRange(middle(i))
            let first = min(range.lowerBound, arcCount - 1), last = min(max(first, range.upperBound - 1), arcCount - 1)
            offgrid_prefetch(self.middle.address(ofShortcut: self.middle.firstShortcut(atOrAfter: first)))
            offgrid_prefetch(self.middle.address(ofShortcut: self.middle.firstShortcut(atOrAfter: last)))
        }
    }

    /// The two arcs a shortcut travelled `from → to` via `middle` stands for, in travel order:
    /// `from → middle`, stored at the middle (the lowest of the three) as its backward arc to
    /// `from`, and `middle → to`, its forward arc to `to`; the first such arc of each in order.
    /// Nil if either is missing. One pass over the middle's arcs, with no exit part-way: where
    /// a match sits is random, so an early exit was a mispredicted branch per scan; scanned
    /// from the end, the last match kept is the first in order.
    @inline(__always) func halves(from: UInt32, to: UInt32, via middle: UInt32) -> (first: Int, second: Int)? {
        let range = arcRange(Int(middle)), begin = range.lowerBound, end = range.upperBound
        let backward = UInt32(CHDirection.backward) << 30, forward = UInt32(CHDirection.forward) << 30
        var first = -1, second = -1
        var a = end
        while a > begin {
            a -= 1
            let arc = arcs[a].headAndDirection
            let head = arc & 0x3FFF_FFFF
            first = head == from && arc & backward != 0 ? a : first
            second = head == to && arc & forward != 0 ? a : second
        }
        guard first >= 0, second >= 0 else { return nil }
        return (first, second)
    }
}

/// Keeps a copy of a `ContractedGraph`'s search arrays (in the search layout) at fixed
/// addresses and lends a view.
public final class CHGraphStorage: @unchecked Sendable {
    public let view: CHGraphView
    private let firstOut: UnsafeMutableBufferPointer<UInt32>
    private let arcs: UnsafeMutableBufferPointer<CHArc>
    private let middleIndex: UnsafeMutableBufferPointer<UInt64>
    private let middles: UnsafeMutableRawBufferPointer
    private let coreEntries: UnsafeMutableRawBufferPointer

    /// With `coreSize` > 0, distance queries use a table of the top `coreSize` ranks; a graph
    /// with an uncontracted core gets at least that core's table, which its queries need.
    public init(_ graph: ContractedGraph, coreSize: Int = 0) {
        let coreSize = max(coreSize, graph.uncontractedCore)
        func copy<T>(_ array: [T]) -> UnsafeMutableBufferPointer<T> {
            let buffer = UnsafeMutableBufferPointer<T>.allocate(capacity: max(1, array.count))
            _ = buffer.initialize(from: array)
            return UnsafeMutableBufferPointer(rebasing: buffer[0..<array.count])
        }
        let layout = graph.searchLayout()
        firstOut = copy(graph.firstOut)
        arcs = copy(layout.arcs)
        middleIndex = copy(layout.middleIndex)
        // Packed entries, the middles and the core table's, are read as the four bytes ending
        // with each: kept one byte after the start of their block.
        func afterOneByte(_ bytes: [UInt8]) -> UnsafeMutableRawBufferPointer {
            let block = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 + bytes.count, alignment: 8)
            block.initializeMemory(as: UInt8.self, repeating: 0)
            UnsafeMutableRawBufferPointer(rebasing: block[1...]).copyBytes(from: bytes)
            return block
        }
        let (packed, middleBytes) = CHShortcutMiddles.pack(layout.shortcutMiddle, rankCount: graph.nodeCount)
        middles = afterOneByte(packed)
        let middle = CHShortcutMiddles(arcCount: layout.arcs.count, index: UnsafeBufferPointer(middleIndex),
                                       middles: UnsafeRawBufferPointer(rebasing: middles[1...]), middleBytes: middleBytes)
        let plain = CHGraphView(nodeCount: graph.nodeCount, firstOut: UnsafeBufferPointer(firstOut),
                                arcs: UnsafeBufferPointer(arcs), middle: middle)
        let table = CHCoreTable.build(plain, size: coreSize, threads: 1)
        precondition(!table.isEmpty || graph.uncontractedCore == 0, "an uncontracted core's distances do not fit a core table")
        coreEntries = afterOneByte(table)
        view = CHGraphView(nodeCount: graph.nodeCount, firstOut: plain.firstOut, arcs: plain.arcs, middle: plain.middle,
                           core: CHCoreTable(nodeCount: graph.nodeCount, entries: UnsafeRawBufferPointer(rebasing: coreEntries[1...])))
    }

    deinit {
        firstOut.baseAddress?.deallocate()
        arcs.baseAddress?.deallocate()
        middleIndex.baseAddress?.deallocate()
        middles.deallocate()
        coreEntries.deallocate()
    }
}
