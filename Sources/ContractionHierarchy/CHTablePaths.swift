/// One table worker's view of its current search tree for metric sums: for every node the
/// search settled unstalled, the endpoint its tree path starts from and the sum along it
/// (`UInt64.max` if unknown); and for the current row, where each target was best met.
///
/// A node's parent is settled (and extended) before the node itself, so one pass in settle
/// order fills the tree: parent's sum plus the sum of the arc between them. The tree lives in a
/// small open-addressing map for the current search (a few thousand nodes), not in arrays over
/// all nodes: those cost 12 bytes per node and worker, 280 MB at ~5 M nodes.
final class TablePathTrees {
    let graph: CHGraphView
    let lengths: CHArcLengths
    // One worker's alone, so these skip the runtime's exclusivity checks (several per settled
    // node and per table cell otherwise).
    @exclusivity(unchecked) private var tree = SearchTreeMap()
    /// Per target of the current row: the meeting node and bucket entry of its best distance.
    @exclusivity(unchecked) private var meetNode: [UInt32] = []
    @exclusivity(unchecked) private var meetEntry: [Int] = []

    init(graph: CHGraphView, metric: CHNodeMetric) {
        self.graph = graph
        lengths = CHArcLengths(graph: graph, metric: metric)
    }

    /// Forgets the previous search's tree.
    func startSearch() { tree.clear() }

    /// Adds settled node `v`, reached by `parentArc`, to the tree of a search in direction `bit`
    /// (forward: sums from the source endpoint to `v`; backward: from `v` down to the target).
    @inline(__always)
    func extend(_ v: UInt32, parentArc: UInt32, bit: UInt8) -> BucketTail {
        var entry = BucketTail(root: v, length: 0)
        if parentArc != UpwardSearchBuffers.noArc {
            let p = graph.tail(ofArc: parentArc)
            let parent = tree[p] ?? BucketTail(root: p, length: UInt64.max)
            entry.root = parent.root
            if parent.length != UInt64.max, let arc = lengths.length(arc: Int(parentArc), tail: p, bit: bit) {
                entry.length = parent.length &+ arc
            } else {
                entry.length = UInt64.max
            }
        }
        tree[v] = entry
        return entry
    }

    /// Forgets the previous row's meetings.
    func startRow(targets: Int) {
        if meetEntry.count != targets {
            meetNode = [UInt32](repeating: UInt32.max, count: targets)
            meetEntry = [Int](repeating: -1, count: targets)
        } else {
            meetEntry.withUnsafeMutableBufferPointer { $0.update(repeating: -1) }
        }
    }

    @inline(__always) func meet(target t: Int, node v: UInt32, entry e: Int) {
        meetNode[t] = v
        meetEntry[t] = e
    }

    /// The span of the current row's path to target `t`, nil if not met or its sum is unknown.
    func span(target t: Int, tails: UnsafeMutablePointer<BucketTail>) -> CHPathSpan? {
        let e = meetEntry[t]
        guard e >= 0 else { return nil }
        let m = meetNode[t]
        let down = tails[e]
        guard let up = tree[m], up.length != UInt64.max, down.length != UInt64.max else { return nil }
        return CHPathSpan(first: up.root, last: down.root, length: up.length &+ down.length,
                          isSingleNode: up.root == m && down.root == m)
    }
}

/// Node → `BucketTail` for one search: linear probing over a power-of-two table that doubles
/// at half load; cleared by a stamp, so a search costs nothing for the slots it does not use.
struct SearchTreeMap {
    private var keys: [UInt32] = [UInt32](repeating: 0, count: 4096)
    private var stamps: [UInt32] = [UInt32](repeating: 0, count: 4096)
    private var values: [BucketTail] = [BucketTail](repeating: BucketTail(root: 0, length: 0), count: 4096)
    private var stamp: UInt32 = 1
    private var count = 0

    mutating func clear() {
        count = 0
        if stamp == UInt32.max {
            stamps = [UInt32](repeating: 0, count: stamps.count)
            stamp = 0
        }
        stamp += 1
    }

    @inline(__always) private func home(_ key: UInt32, mask: Int) -> Int { Int((key &* 0x9E37_79B1) >> 7) & mask }

    subscript(key: UInt32) -> BucketTail? {
        get {
            let mask = keys.count - 1
            var i = home(key, mask: mask)
            while stamps[i] == stamp {
                if keys[i] == key { return values[i] }
                i = (i + 1) & mask
            }
            return nil
        }
        set {
            guard let value = newValue else { return }
            if 2 * (count + 1) > keys.count { grow() }
            let mask = keys.count - 1
            var i = home(key, mask: mask)
            while stamps[i] == stamp {
                if keys[i] == key { values[i] = value; return }
                i = (i + 1) & mask
            }
            stamps[i] = stamp
            keys[i] = key
            values[i] = value
            count += 1
        }
    }

    private mutating func grow() {
        let old = (keys, stamps, values)
        let size = 2 * keys.count
        keys = [UInt32](repeating: 0, count: size)
        stamps = [UInt32](repeating: 0, count: size)
        values = [BucketTail](repeating: BucketTail(root: 0, length: 0), count: size)
        let current = stamp
        stamp = 1
        count = 0
        for i in 0..<old.0.count where old.1[i] == current { self[old.0[i]] = old.2[i] }
    }
}
