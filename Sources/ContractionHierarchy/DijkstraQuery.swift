/// Plain Dijkstra on an original (not contracted) graph in forward CSR form, with the same
/// multi-source / multi-target semantics as `CHQuery`: the exactness oracle, and the fallback
/// when no hierarchy exists. Nodes are original node ids here.
///
/// Reusable like `CHQuery`: flat arrays allocated once, reset lazily by a query stamp.
public final class DijkstraQuery {
    public let nodeCount: Int
    private let firstOut: UnsafeBufferPointer<UInt32>
    private let head: UnsafeBufferPointer<UInt32>
    private let weight: UnsafeBufferPointer<UInt32>
    /// Keeps the arrays alive when built from a `CSRGraph`.
    private let owner: AnyObject?
    private let state: UpwardSearchState
    /// Per node: the stamp of the query in which it is a target, and its smallest target offset.
    private let targetStamp: UnsafeMutablePointer<UInt32>
    private let targetOffset: UnsafeMutablePointer<UInt64>
    private var stamp: UInt32 = 0

    /// Nodes settled by the last query (for measurements).
    public private(set) var lastSettledCount = 0

    public convenience init(firstOut: UnsafeBufferPointer<UInt32>, head: UnsafeBufferPointer<UInt32>,
                            weight: UnsafeBufferPointer<UInt32>, nodeCount: Int) {
        self.init(firstOut: firstOut, head: head, weight: weight, nodeCount: nodeCount, owner: nil)
    }

    /// A query over its own copy of `graph`.
    public convenience init(_ graph: CSRGraph) {
        let storage = CSRStorage(graph)
        self.init(firstOut: storage.firstOut, head: storage.head, weight: storage.weight,
                  nodeCount: graph.nodeCount, owner: storage)
    }

    private init(firstOut: UnsafeBufferPointer<UInt32>, head: UnsafeBufferPointer<UInt32>,
                 weight: UnsafeBufferPointer<UInt32>, nodeCount: Int, owner: AnyObject?) {
        precondition(firstOut.count == nodeCount + 1 && head.count == weight.count && Int(firstOut[nodeCount]) == head.count,
                     "DijkstraQuery: inconsistent CSR arrays")
        self.nodeCount = nodeCount
        self.firstOut = firstOut
        self.head = head
        self.weight = weight
        self.owner = owner
        state = UpwardSearchState(nodeCount: nodeCount)
        let n = max(1, nodeCount)
        targetStamp = .allocate(capacity: n)
        targetStamp.initialize(repeating: 0, count: n)
        targetOffset = .allocate(capacity: n)
    }

    deinit {
        targetStamp.deallocate()
        targetOffset.deallocate()
    }

    /// The distance from `source` to every node (`UInt64.max` where unreachable): one search run
    /// to exhaustion, with no target to stop it.
    public func distances(from source: UInt32, into out: UnsafeMutableBufferPointer<UInt64>) {
        precondition(out.count == nodeCount, "distances(from:into:) needs one slot per node")
        _ = run(sources: [(source, 0)], targets: [])
        let label = state.buffers.label
        for v in 0..<nodeCount { out[v] = label[v].stamp == stamp ? label[v].distance : UInt64.max }
    }

    /// min over s, t of `s.offset + dist(s.node, t.node) + t.offset`, nil if unreachable.
    public func distance(sources: [CHEndpoint], targets: [CHEndpoint]) -> UInt64? {
        let (best, _) = run(sources: sources, targets: targets)
        return best == UInt64.max ? nil : best
    }

    public func distance(from source: UInt32, to target: UInt32) -> UInt64? {
        distance(sources: [(source, 0)], targets: [(target, 0)])
    }

    /// The distance and the nodes of a shortest path from the chosen source to the chosen target.
    public func path(sources: [CHEndpoint], targets: [CHEndpoint]) -> (distance: UInt64, nodes: [UInt32])? {
        let (best, end) = run(sources: sources, targets: targets)
        guard best != UInt64.max else { return nil }
        let search = state.buffers
        var nodes: [UInt32] = [end]
        var v = end
        while search.label[Int(v)].parentArc != UpwardSearchBuffers.noArc {
            v = tail(ofArc: search.label[Int(v)].parentArc)
            nodes.append(v)
        }
        return (best, nodes.reversed())
    }

    public func path(from source: UInt32, to target: UInt32) -> (distance: UInt64, nodes: [UInt32])? {
        path(sources: [(source, 0)], targets: [(target, 0)])
    }

    /// The node whose arc range holds `arc` (labels keep the arc only).
    private func tail(ofArc arc: UInt32) -> UInt32 {
        var low = 0, high = nodeCount   // firstOut[low] <= arc < firstOut[high]
        while high - low > 1 {
            let mid = (low + high) >> 1
            if firstOut[mid] <= arc { low = mid } else { high = mid }
        }
        return UInt32(low)
    }

    /// Runs until the queue's minimum cannot beat the best target found; returns it and its node.
    private func run(sources: [CHEndpoint], targets: [CHEndpoint]) -> (UInt64, UInt32) {
        if stamp == UInt32.max {
            state.resetStamps()
            targetStamp.update(repeating: 0, count: max(1, nodeCount))
            stamp = 0
        }
        stamp += 1
        let q = stamp
        for t in targets {
            precondition(Int(t.node) < nodeCount, "query node \(t.node) is not below \(nodeCount)")
            let v = Int(t.node)
            if targetStamp[v] != q || UInt64(t.offset) < targetOffset[v] {
                targetStamp[v] = q
                targetOffset[v] = UInt64(t.offset)
            }
        }
        var search = state.buffers
        sources.withUnsafeBufferPointer { search.start($0, stamp: q, nodeCount: nodeCount) }
        var best = UInt64.max
        var bestNode = UInt32.max
        var settled = 0
        while search.heap.minKey < best {
            let (v, d) = search.heap.popMin()
            settled += 1
            let vi = Int(v)
            if targetStamp[vi] == q && d + targetOffset[vi] < best {
                best = d + targetOffset[vi]
                bestNode = v
            }
            for a in Int(firstOut[vi])..<Int(firstOut[vi + 1]) {
                let y = head[a]
                let yi = Int(y)
                let nd = d + UInt64(weight[a])
                if nd >= best { continue }
                let old = search.label[yi]
                if old.stamp != q {
                    search.label[yi] = SearchLabel(distance: nd, stamp: q, parentArc: UInt32(a))
                    search.heap.push(y, key: nd)
                } else if nd < old.distance && search.heap.contains(y) {
                    search.label[yi] = SearchLabel(distance: nd, stamp: q, parentArc: UInt32(a))
                    search.heap.decrease(y, to: nd)
                }
            }
        }
        lastSettledCount = settled
        return (best, bestNode)
    }
}

/// Keeps a copy of a `CSRGraph`'s arrays at fixed addresses.
private final class CSRStorage {
    let firstOut: UnsafeBufferPointer<UInt32>
    let head: UnsafeBufferPointer<UInt32>
    let weight: UnsafeBufferPointer<UInt32>

    init(_ graph: CSRGraph) {
        func copy(_ array: [UInt32]) -> UnsafeBufferPointer<UInt32> {
            let buffer = UnsafeMutableBufferPointer<UInt32>.allocate(capacity: max(1, array.count))
            _ = buffer.initialize(from: array)
            return UnsafeBufferPointer(rebasing: buffer[0..<array.count])
        }
        firstOut = copy(graph.firstOut)
        head = copy(graph.head)
        weight = copy(graph.weight)
    }

    deinit {
        firstOut.baseAddress?.deallocate()
        head.baseAddress?.deallocate()
        weight.baseAddress?.deallocate()
    }
}
