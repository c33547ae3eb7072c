#if canImport(Glibc)
import Glibc
#endif
/// An indexed 4-ary min-heap of node ids keyed by `UInt64` distances, with decrease-key.
///
/// Storage is allocated once for `capacity` nodes (every node at most once in the heap) and
/// never per query: `clear()` only resets the count. `position[node]` is meaningful only while
/// the node is in the heap, and is set to `settled` when the node is popped, so a search can tell
/// "reached and still queued" from "settled" with its own lazily reset reached-flags.
///
/// A value type over non-owning pointers so that a search can copy it into a local and work
/// without exclusivity checks; `IndexedHeap.Storage` owns the memory.
struct IndexedHeap {
    static let settled = UInt32.max

    private let keys: UnsafeMutablePointer<UInt64>
    private let nodes: UnsafeMutablePointer<UInt32>
    let position: UnsafeMutablePointer<UInt32>
    private(set) var count = 0

    /// Owns the arrays of one heap.
    final class Storage {
        let heap: IndexedHeap
        init(capacity: Int) {
            let n = max(1, capacity)
            // Positions matter only for nodes pushed in the current search, so they need no
            // initial value; calloc's lazily zeroed pages keep untouched nodes out of RSS.
            let position = calloc(n, MemoryLayout<UInt32>.stride)!.bindMemory(to: UInt32.self, capacity: n)
            heap = IndexedHeap(keys: .allocate(capacity: n), nodes: .allocate(capacity: n), position: position)
        }
        deinit {
            heap.keys.deallocate(); heap.nodes.deallocate(); free(heap.position)
        }
    }

    private init(keys: UnsafeMutablePointer<UInt64>, nodes: UnsafeMutablePointer<UInt32>,
                 position: UnsafeMutablePointer<UInt32>) {
        self.keys = keys
        self.nodes = nodes
        self.position = position
    }

    @inline(__always) var isEmpty: Bool { count == 0 }

    /// The smallest key, or `UInt64.max` when empty.
    @inline(__always) var minKey: UInt64 { count == 0 ? UInt64.max : keys[0] }

    @inline(__always) mutating func clear() { count = 0 }

    /// The node with the smallest key; only when not empty.
    @inline(__always) var minNode: UInt32 { nodes[0] }

    /// Whether `node` (known to be reached in the current search) is still queued.
    @inline(__always) func contains(_ node: UInt32) -> Bool { position[Int(node)] != IndexedHeap.settled }

    @inline(__always) mutating func push(_ node: UInt32, key: UInt64) {
        let i = count
        count &+= 1
        siftUp(i, node: node, key: key)
    }

    /// Lowers the key of a queued node.
    @inline(__always) mutating func decrease(_ node: UInt32, to key: UInt64) {
        siftUp(Int(position[Int(node)]), node: node, key: key)
    }

    /// Removes the node with the smallest key (ties: whichever the heap holds first).
    @inline(__always) mutating func popMin() -> (node: UInt32, key: UInt64) {
        let node = nodes[0], key = keys[0]
        position[Int(node)] = IndexedHeap.settled
        count &-= 1
        if count > 0 { siftDown(node: nodes[count], key: keys[count]) }
        return (node, key)
    }

    @inline(__always) private func siftUp(_ start: Int, node: UInt32, key: UInt64) {
        var i = start
        while i > 0 {
            let parent = (i &- 1) >> 2
            let parentKey = keys[parent]
            if parentKey <= key { break }
            keys[i] = parentKey
            nodes[i] = nodes[parent]
            position[Int(nodes[i])] = UInt32(truncatingIfNeeded: i)
            i = parent
        }
        keys[i] = key
        nodes[i] = node
        position[Int(node)] = UInt32(truncatingIfNeeded: i)
    }

    /// Places `node` (taken from the last slot) starting at the root.
    @inline(__always) private func siftDown(node: UInt32, key: UInt64) {
        var i = 0
        while true {
            let firstChild = (i << 2) &+ 1
            if firstChild >= count { break }
            let (best, bestKey) = smallestChild(keys, first: firstChild, count: count)
            if key <= bestKey { break }
            keys[i] = bestKey
            nodes[i] = nodes[best]
            position[Int(nodes[i])] = UInt32(truncatingIfNeeded: i)
            i = best
        }
        keys[i] = key
        nodes[i] = node
        position[Int(node)] = UInt32(truncatingIfNeeded: i)
    }
}

/// The smallest of the (up to) four children `first ..< first + 4` of a 4-ary heap of `count`
/// values, and its index; the first one on ties. Compiles to conditional moves.
@inline(__always) func smallestChild<T: Comparable>(_ values: UnsafeMutablePointer<T>, first: Int, count: Int) -> (index: Int, value: T) {
    var best = first
    var smallest = values[first]
    let end = min(first &+ 4, count)
    var c = first &+ 1
    while c < end {
        let v = values[c]
        if v < smallest { smallest = v; best = c }
        c &+= 1
    }
    return (best, smallest)
}
