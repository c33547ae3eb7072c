import OffgridCore

/// A read-only view of a contraction hierarchy's search arrays (see `ContractedGraph` for their
/// meaning), over memory someone else keeps alive: a `CHGraphStorage`, or sections of a
/// memory-mapped file.
public struct CHGraphView: @unchecked Sendable {
    public let nodeCount: Int
    public let firstOut: UnsafeBufferPointer<UInt32>
    public let head: UnsafeBufferPointer<UInt32>
    public let weight: UnsafeBufferPointer<UInt32>
    public let middle: UnsafeBufferPointer<UInt32>
    public let direction: UnsafeBufferPointer<UInt8>

    /// Checks only the array lengths (O(1)); call `validate()` on untrusted data.
    public init(nodeCount: Int, firstOut: UnsafeBufferPointer<UInt32>, head: UnsafeBufferPointer<UInt32>,
                weight: UnsafeBufferPointer<UInt32>, middle: UnsafeBufferPointer<UInt32>,
                direction: UnsafeBufferPointer<UInt8>) {
        precondition(firstOut.count == nodeCount + 1, "firstOut must have nodeCount + 1 entries")
        precondition(head.count == weight.count && head.count == middle.count && head.count == direction.count,
                     "head, weight, middle and direction must have the same length")
        precondition(Int(firstOut[nodeCount]) == head.count, "firstOut must end at the arc count")
        self.nodeCount = nodeCount
        self.firstOut = firstOut
        self.head = head
        self.weight = weight
        self.middle = middle
        self.direction = direction
    }

    /// Checks the invariants queries rely on; returns the first problem or nil. Upward arcs must
    /// point to higher ranks and middles to ranks below both ends (one sequential pass, what
    /// memory safety needs); with `shortcutHalves`, every shortcut's two halves must also exist at
    /// its middle node with the right weights (a binary search per shortcut in random order, several
    /// times slower: a semantic check, since path unpacking already refuses a missing half).
    public func validate(shortcutHalves: Bool = true) -> String? {
        if firstOut[0] != 0 { return "firstOut[0] is \(firstOut[0]), not 0" }
        for r in 0..<nodeCount where firstOut[r] > firstOut[r + 1] {
            return "firstOut decreases at rank \(r)"
        }
        // Ranks in chunks on all cores; the first problem in rank order wins, so the message does
        // not depend on scheduling.
        let chunk = 1 << 14
        var problems = [String?](repeating: nil, count: (nodeCount + chunk - 1) / chunk)
        problems.withUnsafeMutableBufferPointer { slots in
            Parallel.forEachChunk(count: nodeCount, threads: Parallel.activeProcessorCount, chunkSize: chunk) { _, ranks in
                slots[ranks.lowerBound / chunk] = problem(in: ranks, shortcutHalves: shortcutHalves)
            }
        }
        return problems.lazy.compactMap { $0 }.first
    }

    private func problem(in ranks: Range<Int>, shortcutHalves: Bool) -> String? {
        for r in ranks {
            for a in Int(firstOut[r])..<Int(firstOut[r + 1]) {
                let h = head[a], m = middle[a], d = direction[a]
                if Int(h) >= nodeCount || h <= UInt32(r) { return "arc \(a) of rank \(r) points to rank \(h), not higher" }
                if d == 0 || d > 3 { return "arc \(a) has direction \(d)" }
                if m == UInt32.max { continue }
                if m >= UInt32(r) { return "arc \(a) of rank \(r) has middle \(m), not lower" }
                if !shortcutHalves { continue }
                // Forward r → h via m is r → m (backward arc at m) then m → h (forward arc at m);
                // backward h → r is h → m then m → r.
                // (No array literal of the two bits here: this loop runs once per arc.)
                func halvesMatch(_ bit: UInt8) -> Bool {
                    let first = bit == CHDirection.forward ? CHDirection.backward : CHDirection.forward
                    guard let a1 = arc(at: m, to: UInt32(r), bit: first), let a2 = arc(at: m, to: h, bit: bit) else { return false }
                    return UInt64(weight[a1]) + UInt64(weight[a2]) == UInt64(weight[a])
                }
                if (d & CHDirection.forward != 0 && !halvesMatch(CHDirection.forward))
                    || (d & CHDirection.backward != 0 && !halvesMatch(CHDirection.backward)) {
                    return "shortcut \(a) of rank \(r) via \(m) has no matching halves"
                }
            }
        }
        return nil
    }

    /// The arc stored at `rank` to `other` usable in `bit`'s direction (heads are sorted).
    @inline(__always) func arc(at rank: UInt32, to other: UInt32, bit: UInt8) -> Int? {
        var low = Int(firstOut[Int(rank)]), high = Int(firstOut[Int(rank) + 1])
        while low < high {
            let mid = (low + high) >> 1
            if head[mid] < other { low = mid + 1 } else { high = mid }
        }
        while low < Int(firstOut[Int(rank) + 1]) && head[low] == other {
            if direction[low] & bit != 0 { return low }
            low += 1
        }
        return nil
    }
}

/// Keeps a copy of a `ContractedGraph`'s search arrays at fixed addresses and lends a view.
public final class CHGraphStorage: @unchecked Sendable {
    public let view: CHGraphView
    private let firstOut: UnsafeMutableBufferPointer<UInt32>
    private let head: UnsafeMutableBufferPointer<UInt32>
    private let weight: UnsafeMutableBufferPointer<UInt32>
    private let middle: UnsafeMutableBufferPointer<UInt32>
    private let direction: UnsafeMutableBufferPointer<UInt8>

    public init(_ graph: ContractedGraph) {
        func copy<T>(_ array: [T]) -> UnsafeMutableBufferPointer<T> {
            let buffer = UnsafeMutableBufferPointer<T>.allocate(capacity: max(1, array.count))
            _ = buffer.initialize(from: array)
            return UnsafeMutableBufferPointer(rebasing: buffer[0..<array.count])
        }
        firstOut = copy(graph.firstOut)
        head = copy(graph.head)
        weight = copy(graph.weight)
        middle = copy(graph.middle)
        direction = copy(graph.direction)
        view = CHGraphView(nodeCount: graph.nodeCount, firstOut: UnsafeBufferPointer(firstOut),
                           head: UnsafeBufferPointer(head), weight: UnsafeBufferPointer(weight),
                           middle: UnsafeBufferPointer(middle), direction: UnsafeBufferPointer(direction))
    }

    deinit {
        firstOut.baseAddress?.deallocate()
        head.baseAddress?.deallocate()
        weight.baseAddress?.deallocate()
        middle.baseAddress?.deallocate()
        direction.baseAddress?.deallocate()
    }
}
