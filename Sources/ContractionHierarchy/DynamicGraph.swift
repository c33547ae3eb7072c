/// The graph of not-yet-contracted nodes, changing as nodes are contracted and shortcuts added.
///
/// Every arc `u → w` is stored twice: in the out-block of `u` (neighbour `w`) and in the in-block
/// of `w` (neighbour `u`), each copy with the arc's weight, middle node and hop count (how many
/// original arcs it stands for, for the priority). There is at most one arc per ordered pair: a
/// lighter parallel arc replaces a heavier one.
///
/// A slot packs `weight << 32 | neighbour` into one word, the pair a witness search reads per
/// arc (one memory stream instead of two); middle and hops sit in side arrays.
///
/// All blocks live in one pool of slots (flat arrays, no object per node or arc). A node side owns
/// `capacity` consecutive slots of which the first `count` are used; a block without room moves
/// to the end of the pool with twice the room it needs, and when the pool itself is full every
/// live block is copied tightly into a fresh pool (dropping contracted nodes and moved-out
/// blocks). Blocks move only in `reserveRoom`; the initial blocks are sized to their arcs.
///
/// Readers (witness searches) run concurrently with each other but never with a mutation.
/// After `reserveRoom`, removals and `addOrImprove` may run on several threads at once as long
/// as no two touch the same block (the nodes contracted in one round share no neighbour).
final class DynamicGraph {
    static let outSide = 0
    static let inSide = 1

    let nodeCount: Int
    /// Per block (index `2 * node + side`): first slot, used slots, reserved slots.
    private(set) var blockBegin: UnsafeMutablePointer<UInt32>
    private(set) var blockCount: UnsafeMutablePointer<UInt32>
    private var blockCapacity: UnsafeMutablePointer<UInt32>
    /// Per slot: `weight << 32 | neighbour`.
    private(set) var arc: UnsafeMutablePointer<UInt64>
    private(set) var middle: UnsafeMutablePointer<UInt32>
    private(set) var hops: UnsafeMutablePointer<UInt32>
    private var poolUsed = 0
    private var poolCapacity = 0
    /// Arcs currently in the graph (each counted once).
    private(set) var arcCount = 0
    /// Per block: arcs a batch is about to add (scratch of `reserveRoom`, zero between calls).
    private let pendingArcs: UnsafeMutablePointer<UInt32>

    /// Builds the graph from `arcs`, dropping loops and all but the lightest of parallel arcs.
    init(nodeCount: Int, arcs: ArcList) {
        self.nodeCount = nodeCount
        let csr = CSRGraph(nodeCount: nodeCount, arcs: arcs)
        let blocks = 2 * nodeCount
        blockBegin = .allocate(capacity: max(1, blocks))
        blockCount = .allocate(capacity: max(1, blocks))
        blockCapacity = .allocate(capacity: max(1, blocks))
        blockCount.initialize(repeating: 0, count: max(1, blocks))
        pendingArcs = .allocate(capacity: max(1, blocks))
        pendingArcs.initialize(repeating: 0, count: max(1, blocks))
        // Keep the first (lightest) arc of each (tail, head) run; CSR order makes it deterministic.
        var keep = [Bool](repeating: false, count: csr.arcCount)
        for v in 0..<nodeCount {
            var previousHead = UInt32.max
            for a in Int(csr.firstOut[v])..<Int(csr.firstOut[v + 1]) {
                let h = csr.head[a]
                if h != UInt32(v) && h != previousHead {
                    keep[a] = true
                    blockCount[2 * v + DynamicGraph.outSide] &+= 1
                    blockCount[2 * Int(h) + DynamicGraph.inSide] &+= 1
                }
                previousHead = h
            }
        }
        var total = 0
        for b in 0..<blocks {
            let capacity = DynamicGraph.roomFor(Int(blockCount[b]))
            blockBegin[b] = UInt32(total)
            blockCapacity[b] = UInt32(capacity)
            total += capacity
            blockCount[b] = 0
        }
        poolCapacity = total + total / 2 + 1024
        precondition(poolCapacity < Int(UInt32.max), "graph too large for 32-bit slot indices")
        arc = .allocate(capacity: poolCapacity)
        middle = .allocate(capacity: poolCapacity)
        hops = .allocate(capacity: poolCapacity)
        poolUsed = total
        for v in 0..<nodeCount {
            for a in Int(csr.firstOut[v])..<Int(csr.firstOut[v + 1]) where keep[a] {
                appendReserved(2 * v + DynamicGraph.outSide, csr.head[a], csr.weight[a], UInt32.max, 1)
                appendReserved(2 * Int(csr.head[a]) + DynamicGraph.inSide, UInt32(v), csr.weight[a], UInt32.max, 1)
                arcCount += 1
            }
        }
    }

    deinit {
        blockBegin.deallocate()
        blockCount.deallocate()
        blockCapacity.deallocate()
        pendingArcs.deallocate()
        arc.deallocate()
        middle.deallocate()
        hops.deallocate()
    }

    /// Slots given to a block holding `count` arcs: a little room to grow without moving,
    /// since most road nodes get a shortcut or two when their neighbours are contracted.
    private static func roomFor(_ count: Int) -> Int {
        count == 0 ? 0 : count + 2 + count / 4
    }

    @inline(__always) func slots(_ node: Int, _ side: Int) -> Range<Int> {
        let b = 2 &* node &+ side
        let begin = Int(blockBegin[b])
        return begin ..< begin &+ Int(blockCount[b])
    }

    @inline(__always) func neighbour(_ slot: Int) -> UInt32 { UInt32(truncatingIfNeeded: arc[slot]) }

    @inline(__always) func weight(_ slot: Int) -> UInt32 { UInt32(truncatingIfNeeded: arc[slot] >> 32) }

    @inline(__always) func degree(_ node: Int, _ side: Int) -> Int {
        Int(blockCount[2 &* node &+ side])
    }

    /// The slot of the arc to/from `other` in the given block, or nil.
    @inline(__always) func find(_ node: Int, _ side: Int, _ other: UInt32) -> Int? {
        for s in slots(node, side) where UInt32(truncatingIfNeeded: arc[s]) == other { return s }
        return nil
    }

    /// Adds `tail → head` or lowers the weight of the existing arc (then also taking the new
    /// middle and hops). Returns 1 if the arc is new, else 0; the caller adds the sum to the
    /// count (`countArcs(added:)`), so that workers adding to disjoint blocks share no counter.
    /// Both blocks must have room (`reserveRoom`): a full block here is a programming error.
    func addOrImprove(tail: UInt32, head: UInt32, weight w: UInt32, middle m: UInt32, hops h: UInt32) -> Int {
        if let s = find(Int(tail), DynamicGraph.outSide, head) {
            guard w < weight(s) else { return 0 }
            let t = find(Int(head), DynamicGraph.inSide, tail)!
            arc[s] = UInt64(w) << 32 | UInt64(head); middle[s] = m; hops[s] = h
            arc[t] = UInt64(w) << 32 | UInt64(tail); middle[t] = m; hops[t] = h
            return 0
        }
        appendReserved(2 * Int(tail) + DynamicGraph.outSide, head, w, m, h)
        appendReserved(2 * Int(head) + DynamicGraph.inSide, tail, w, m, h)
        return 1
    }

    /// Adds arcs created (positive) or dropped (negative) by `addOrImprove` and `clearNode`.
    func countArcs(added delta: Int) {
        arcCount += delta
    }

    /// Grows, before a batch of contractions, every block that the batch could overflow: each
    /// shortcut counted as new, and each contracted node leaving its neighbours' blocks first. Until the batch is done no block then moves and the
    /// pool is not rebuilt, which is what lets workers insert into disjoint blocks at once.
    func reserveRoom(for batch: [DecidedContraction]) {
        var blocks: [Int] = []
        for c in batch where !c.shortcuts.isEmpty {
            let (v, list) = (c.node, c.list)
            for k in c.shortcuts {
                let out = 2 &* Int(list.tail[k]) &+ DynamicGraph.outSide
                let into = 2 &* Int(list.head[k]) &+ DynamicGraph.inSide
                if pendingArcs[out] == 0 { blocks.append(out) }
                pendingArcs[out] &+= 1
                if pendingArcs[into] == 0 { blocks.append(into) }
                pendingArcs[into] &+= 1
            }
            for side in 0..<2 {
                for s in slots(v, side) {
                    // `v` sits in the other side's block of each neighbour.
                    let b = 2 &* Int(neighbour(s)) &+ (1 &- side)
                    if pendingArcs[b] > 0 { pendingArcs[b] &-= 1 }
                }
            }
        }
        // A rebuild leaves each block only `roomFor(count)`, so the room needed is counted again
        // after one. The count after a rebuild is the same after the next, and each rebuild
        // reserves what was counted, so the loop ends after at most two.
        while true {
            var need = 0
            for b in blocks where wantedRoom(b) > Int(blockCapacity[b]) { need += grownRoom(b) }
            if poolUsed + need <= poolCapacity { break }
            rebuildPool(reserve: need)
        }
        for b in blocks {
            if wantedRoom(b) > Int(blockCapacity[b]) { move(b, capacity: grownRoom(b)) }
            pendingArcs[b] = 0
        }
    }

    @inline(__always) private func wantedRoom(_ b: Int) -> Int { Int(blockCount[b]) + Int(pendingArcs[b]) }

    /// As a block filled one arc at a time would grow: to twice its arcs, or more if the batch
    /// needs more.
    @inline(__always) private func grownRoom(_ b: Int) -> Int { max(4, 2 * Int(blockCount[b]), wantedRoom(b)) }

    /// Removes the arc to/from `other` from one block only (the caller removes the other copy or
    /// clears the whole node). Moves the last arc into the hole: order changes, deterministically.
    func removeFromBlock(_ node: Int, _ side: Int, _ other: UInt32) {
        guard let s = find(node, side, other) else { return }
        let b = 2 * node + side
        let last = Int(blockBegin[b]) + Int(blockCount[b]) - 1
        arc[s] = arc[last]
        middle[s] = middle[last]; hops[s] = hops[last]
        blockCount[b] -= 1
    }

    /// Forgets both blocks of a contracted node (its arcs must already be gone from its
    /// neighbours). Returns how many arcs went (for `countArcs(added:)`, negated).
    func clearNode(_ node: Int) -> Int {
        let removed = degree(node, DynamicGraph.outSide) + degree(node, DynamicGraph.inSide)
        blockCount[2 * node] = 0
        blockCount[2 * node + 1] = 0
        return removed
    }

    @inline(__always) private func appendReserved(_ b: Int, _ other: UInt32, _ w: UInt32, _ m: UInt32, _ h: UInt32) {
        precondition(blockCount[b] < blockCapacity[b], "DynamicGraph: no room reserved in block \(b)")
        let s = Int(blockBegin[b]) + Int(blockCount[b])
        arc[s] = UInt64(w) << 32 | UInt64(other); middle[s] = m; hops[s] = h
        blockCount[b] += 1
    }

    /// Moves a block to the end of the pool, with room for `capacity` arcs (the pool has room).
    private func move(_ b: Int, capacity: Int) {
        let count = Int(blockCount[b])
        let from = Int(blockBegin[b])
        let to = poolUsed
        (arc + to).update(from: arc + from, count: count)
        (middle + to).update(from: middle + from, count: count)
        (hops + to).update(from: hops + from, count: count)
        blockBegin[b] = UInt32(to)
        blockCapacity[b] = UInt32(capacity)
        poolUsed += capacity
    }

    /// Copies every live block tightly (plus room to grow) into a fresh pool.
    private func rebuildPool(reserve: Int) {
        var total = 0
        for b in 0 ..< 2 * nodeCount { total += DynamicGraph.roomFor(Int(blockCount[b])) }
        let newCapacity = total + max(total / 2, 1024) + reserve
        precondition(newCapacity < Int(UInt32.max), "graph too large for 32-bit slot indices")
        let newArc = UnsafeMutablePointer<UInt64>.allocate(capacity: newCapacity)
        let newMiddle = UnsafeMutablePointer<UInt32>.allocate(capacity: newCapacity)
        let newHops = UnsafeMutablePointer<UInt32>.allocate(capacity: newCapacity)
        var used = 0
        for b in 0 ..< 2 * nodeCount {
            let count = Int(blockCount[b])
            let from = Int(blockBegin[b])
            (newArc + used).initialize(from: arc + from, count: count)
            (newMiddle + used).initialize(from: middle + from, count: count)
            (newHops + used).initialize(from: hops + from, count: count)
            blockBegin[b] = UInt32(used)
            let capacity = DynamicGraph.roomFor(count)
            blockCapacity[b] = UInt32(capacity)
            used += capacity
        }
        arc.deallocate(); middle.deallocate(); hops.deallocate()
        arc = newArc; middle = newMiddle; hops = newHops
        poolUsed = used
        poolCapacity = newCapacity
    }

    /// Bytes held by the pool and block tables (for progress reports and docs).
    var memoryBytes: Int { poolCapacity * 16 + nodeCount * 32 }
}
