#if canImport(Glibc)
import Glibc
#endif

/// One table worker's view of its current search tree for metric sums: for every node the
/// search settled unstalled, the endpoint its tree path starts from and the sum along it
/// (`UInt64.max` if unknown); and for the current row, where each target was best met.
///
/// A node's parent is settled (and extended) before the node itself, so one pass in settle
/// order fills the tree: parent's sum plus the sum of the arc between them.
final class TablePathTrees {
    let graph: CHGraphView
    let lengths: CHArcLengths
    /// Per node, valid for the nodes the current search has extended.
    private let root: UnsafeMutablePointer<UInt32>
    private let length: UnsafeMutablePointer<UInt64>
    /// Per target of the current row: the meeting node and bucket entry of its best distance.
    private var meetNode: [UInt32] = []
    private var meetEntry: [Int] = []

    init(graph: CHGraphView, metric: CHNodeMetric) {
        self.graph = graph
        lengths = CHArcLengths(graph: graph, metric: metric)
        let n = max(1, graph.nodeCount)
        // calloc: a search touches the pages of the nodes it reaches only.
        root = calloc(n, MemoryLayout<UInt32>.stride)!.bindMemory(to: UInt32.self, capacity: n)
        length = calloc(n, MemoryLayout<UInt64>.stride)!.bindMemory(to: UInt64.self, capacity: n)
    }

    deinit {
        free(root)
        free(length)
    }

    /// Adds settled node `v`, reached by `parentArc`, to the tree of a search in direction `bit`
    /// (forward: sums from the source endpoint to `v`; backward: from `v` down to the target).
    @inline(__always)
    func extend(_ v: UInt32, parentArc: UInt32, bit: UInt8) -> BucketTail {
        let vi = Int(v)
        if parentArc == UpwardSearchBuffers.noArc {
            root[vi] = v
            length[vi] = 0
        } else {
            let p = graph.tail(ofArc: parentArc)
            let pi = Int(p)
            root[vi] = root[pi]
            if length[pi] != UInt64.max, let arc = lengths.length(arc: Int(parentArc), tail: p, bit: bit) {
                length[vi] = length[pi] &+ arc
            } else {
                length[vi] = UInt64.max
            }
        }
        return BucketTail(root: root[vi], length: length[vi])
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
        let m = Int(meetNode[t])
        let down = tails[e]
        guard length[m] != UInt64.max, down.length != UInt64.max else { return nil }
        return CHPathSpan(first: root[m], last: down.root, length: length[m] &+ down.length,
                          isSingleNode: root[m] == UInt32(m) && down.root == UInt32(m))
    }
}
