#if canImport(Glibc)
import Glibc
#endif
import CShims
/// A start or end point of a query: a node (a rank, for `CHQuery`) and a non-negative cost
/// already spent before it (for a source) or still to spend after it (for a target), e.g. the
/// part of a road segment between a snapped point and the segment's end.
public typealias CHEndpoint = (node: UInt32, offset: UInt32)

/// Point-to-point queries on a contraction hierarchy: bidirectional Dijkstra over upward arcs
/// with stall-on-demand (Geisberger et al. 2008).
///
/// Allocate one per thread and reuse it: all per-node state lives in flat arrays allocated once
/// and reset lazily by a query stamp, the queues are indexed 4-ary heaps on flat arrays, and a
/// distance query allocates nothing. Distances are `UInt64` internally, so offsets plus path
/// lengths never overflow.
public final class CHQuery {
    public let graph: CHGraphView
    /// Keeps the arrays behind `graph` alive when built from a `ContractedGraph`.
    private let owner: AnyObject?
    let forwardState: UpwardSearchState
    let backwardState: UpwardSearchState
    var stamp: UInt32 = 0
    /// Scratch of `table` (allocated on first use).
    var bucketScratch: BucketScratch?
    /// Cached arc sums of `pathSpan` (for the last metric asked for).
    var arcLengths: CHArcLengths?
    /// Buffers of `unpack`, kept between paths.
    let unpackScratch = UnpackScratch()
    /// Scratch of `coreSearch` (allocated on first use).
    private var coreLists: CoreAccessLists?
    /// The core's incoming arcs, for paths through it (built on first use).
    private var coreInArcIndex: CoreInArcs?

    /// Nodes settled by the last query in both directions together (for measurements).
    public internal(set) var lastSettledCount = 0

    /// Per-rank data of the caller's that it reads for every rank of an unpacked path, in path
    /// order: asked for as each rank comes out of unpacking, its misses overlap the unpacking's.
    public var pathRankData: UnsafeBufferPointer<UInt32>?

    public init(graph: CHGraphView) {
        self.graph = graph
        owner = nil
        forwardState = UpwardSearchState(nodeCount: graph.nodeCount)
        backwardState = UpwardSearchState(nodeCount: graph.nodeCount)
    }

    /// A query over its own copy of `graph`'s arrays.
    public convenience init(_ graph: ContractedGraph) {
        self.init(storage: CHGraphStorage(graph))
    }

    /// A query over `storage`, which it keeps alive.
    public init(storage: CHGraphStorage) {
        graph = storage.view
        owner = storage
        forwardState = UpwardSearchState(nodeCount: graph.nodeCount)
        backwardState = UpwardSearchState(nodeCount: graph.nodeCount)
    }

    /// The shortest distance from any source to any target, counting both offsets:
    /// min over s, t of `s.offset + dist(s.node, t.node) + t.offset`; nil if no target is reachable.
    public func distance(sources: [CHEndpoint], targets: [CHEndpoint]) -> UInt64? {
        let d = sources.withUnsafeBufferPointer { s in targets.withUnsafeBufferPointer { t in distance(s, t) } }
        return d == UInt64.max ? nil : d
    }

    /// The shortest distance between two ranks, or nil if unreachable.
    public func distance(from source: UInt32, to target: UInt32) -> UInt64? {
        withUnsafeTemporaryAllocation(of: CHEndpoint.self, capacity: 2) { ends in
            ends[0] = (source, 0)
            ends[1] = (target, 0)
            let d = distance(UnsafeBufferPointer(rebasing: ends[0..<1]), UnsafeBufferPointer(rebasing: ends[1..<2]))
            return d == UInt64.max ? nil : d
        }
    }

    /// The distance alone (UInt64.max if none): through the core table when the graph has one.
    func distance(_ sources: UnsafeBufferPointer<CHEndpoint>, _ targets: UnsafeBufferPointer<CHEndpoint>) -> UInt64 {
        if let core = graph.core { return coreSearch(sources, targets, core: core).distance }
        return search(sources, targets).distance
    }

    func coreInArcs(_ core: CHCoreTable) -> CoreInArcs {
        if let index = coreInArcIndex { return index }
        let index = CoreInArcs(graph: graph, core: core)
        coreInArcIndex = index
        return index
    }

    func coreAccess(_ core: CHCoreTable) -> CoreAccessLists {
        if let lists = coreLists { return lists }
        let lists = CoreAccessLists(capacity: core.size)
        coreLists = lists
        return lists
    }

    func search(sources: [CHEndpoint], targets: [CHEndpoint]) -> (distance: UInt64, meet: UInt32) {
        sources.withUnsafeBufferPointer { s in targets.withUnsafeBufferPointer { t in search(s, t) } }
    }

    func nextStamp() -> UInt32 {
        if stamp == UInt32.max {
            forwardState.resetStamps()
            backwardState.resetStamps()
            stamp = 0
        }
        stamp += 1
        return stamp
    }

    /// The bidirectional search; returns the best distance (UInt64.max if none) and the node
    /// where the two searches met on the best path. Parent arcs stay valid until the next query.
    func search(_ sources: UnsafeBufferPointer<CHEndpoint>, _ targets: UnsafeBufferPointer<CHEndpoint>)
        -> (distance: UInt64, meet: UInt32) {
        var forwardWhole = CoreAccessList.none, backwardWhole = CoreAccessList.none
        return search(sources, targets, forwardCore: &forwardWhole, backwardCore: &backwardWhole)
    }

    /// The same, each side kept below its list's `first` rank when that is a core's (listing the
    /// core ranks it reaches): then the result is the best meeting below the core.
    @inline(__always)
    func search(_ sources: UnsafeBufferPointer<CHEndpoint>, _ targets: UnsafeBufferPointer<CHEndpoint>,
                forwardCore: inout CoreAccessList, backwardCore: inout CoreAccessList) -> (distance: UInt64, meet: UInt32) {
        let q = nextStamp()
        var forward = forwardState.buffers
        var backward = backwardState.buffers
        forward.start(sources, stamp: q, nodeCount: graph.nodeCount, core: &forwardCore)
        backward.start(targets, stamp: q, nodeCount: graph.nodeCount, core: &backwardCore)
        var best = UInt64.max
        var meet = UInt32.max
        var settled = 0
        let g = graph
        var forwardTurn = false
        while true {
            let forwardKey = forward.heap.minKey, backwardKey = backward.heap.minKey
            // Every path still to be found costs at least the smaller queue minimum.
            if forwardKey >= best && backwardKey >= best { break }
            settled &+= 1
            // The sides take turns (a side whose minimum is not below `best` is done), not the
            // smaller key first: a side asks for its next node's arcs as it settles one, and
            // with turns the other side's settle runs before they are read, so the miss has
            // about twice as long to arrive. Each side still settles in its own key order, which
            // is all exactness needs. Distance queries 2.4-4 % faster at ~1 M and ~5 M nodes.
            forwardTurn.toggle()
            if backwardKey >= best || (forwardKey < best && forwardTurn) {
                forward.settleNext(other: backward, graph: g, stamp: q, stallBit: CHDirection.backward, best: &best, meet: &meet,
                                   core: &forwardCore)
            } else {
                backward.settleNext(other: forward, graph: g, stamp: q, stallBit: CHDirection.forward, best: &best, meet: &meet,
                                    core: &backwardCore)
            }
        }
        lastSettledCount = settled
        return (best, meet)
    }
}

/// The per-direction arrays of an upward search, allocated once.
final class UpwardSearchState {
    let nodeCount: Int
    private let heapStorage: IndexedHeap.Storage
    let buffers: UpwardSearchBuffers

    init(nodeCount: Int) {
        self.nodeCount = nodeCount
        let n = max(1, nodeCount)
        heapStorage = IndexedHeap.Storage(capacity: n)
        // Zeroed pages from calloc are a valid "never reached" state (stamp 0) and cost no memory
        // until a search touches them: a query process's RSS grows with the nodes it visits, not
        // with the graph (a country-sized graph would otherwise take ~50 MB per direction per thread).
        let label = calloc(n, MemoryLayout<SearchLabel>.stride)!.bindMemory(to: SearchLabel.self, capacity: n)
        buffers = UpwardSearchBuffers(label: label, heap: heapStorage.heap)
    }

    func resetStamps() { buffers.label.update(repeating: SearchLabel(), count: max(1, nodeCount)) }

    deinit { free(buffers.label) }
}

/// What a search knows about one node: 16 bytes, so four share a cache line and a relaxation
/// touches one. Valid only when `stamp` is the current query's. The node an arc came from is
/// not stored: it is the rank whose arc range holds `parentArc` (`CHGraphView.tail(ofArc:)`),
/// found only when a path is unpacked.
struct SearchLabel {
    var distance: UInt64 = 0
    var stamp: UInt32 = 0
    /// Index of the arc the node was reached by, `UpwardSearchBuffers.noArc` for a start node.
    var parentArc: UInt32 = 0
}

/// Non-owning pointers to one direction's search state, copied into locals by the query loops.
struct UpwardSearchBuffers {
    static let noArc = UInt32.max

    let label: UnsafeMutablePointer<SearchLabel>
    var heap: IndexedHeap

    /// Queues the start nodes at their offsets (the smallest offset when a node repeats).
    mutating func start(_ ends: UnsafeBufferPointer<CHEndpoint>, stamp q: UInt32, nodeCount: Int) {
        var whole = CoreAccessList.none
        start(ends, stamp: q, nodeCount: nodeCount, core: &whole)
    }

    /// The same, for a search kept below `core.first`: start nodes in the core are labelled and
    /// listed, not queued.
    @inline(__always)
    mutating func start(_ ends: UnsafeBufferPointer<CHEndpoint>, stamp q: UInt32, nodeCount: Int, core: inout CoreAccessList) {
        heap.clear()
        for end in ends {
            precondition(Int(end.node) < nodeCount, "query node \(end.node) is not below \(nodeCount)")
            let v = Int(end.node), d = UInt64(end.offset)
            let fresh = label[v].stamp != q
            guard fresh || d < label[v].distance else { continue }
            label[v] = SearchLabel(distance: d, stamp: q, parentArc: UpwardSearchBuffers.noArc)
            if end.node >= core.first {
                if fresh { core.append(end.node) }
            } else if fresh {
                heap.push(end.node, key: d)
            } else {
                heap.decrease(end.node, to: d)
            }
        }
    }

    /// Settles the queue's minimum: updates the best meeting with the other direction, stops
    /// there if a higher node reaches it more cheaply (stall-on-demand), else relaxes its arcs
    /// usable in the search's direction (the one that is not `stallBit`). Labels not below `best`
    /// are not kept: they cannot improve it. A search kept below `core.first` lists the core
    /// ranks it reaches instead of queueing them.
    @inline(__always)
    mutating func settleNext(other: UpwardSearchBuffers, graph g: CHGraphView, stamp q: UInt32, stallBit: UInt8,
                             best: inout UInt64, meet: inout UInt32, core: inout CoreAccessList) {
        let (v, d) = heap.popMin()
        let vi = Int(v)
        // The next node this side settles is most likely the new minimum: ask for its arcs now,
        // so that their cache miss overlaps this node's work instead of starting the next.
        if !heap.isEmpty, let arcs = g.arcs.baseAddress {
            offgrid_prefetch(arcs + Int(g.firstOut[Int(heap.minNode)]))
        }
        let there = other.label[vi]
        if there.stamp == q {
            let total = d &+ there.distance
            if total < best { best = total; meet = v }
        }
        guard let usable = stallTest(d: d, arcs: g.arcRange(vi), graph: g, stamp: q, stallBit: stallBit) else { return }
        relax(v, d: d, usable: usable, graph: g, stamp: q, bound: best, core: &core, other: other.label)
    }

    /// Stall-on-demand: an arc x → v (in search direction) from a higher node x with
    /// `d(x) + w < d(v)` proves that v's label is not a shortest distance, so nothing it
    /// reaches can be on a shortest up-down path through v. Returns nil when v is stalled, else
    /// the arcs to relax (usable in the search's own direction).
    ///
    /// The arcs usable against the search are a suffix of the range for a forward search and a
    /// prefix for a backward one (see `CHGraphView`); scanning them from that end, the first arc
    /// that also allows the search's own direction marks where its usable arcs end (or start),
    /// so the relaxation needs no scan of its own to find them.
    @inline(__always)
    func stallTest(d: UInt64, arcs range: Range<Int>, graph g: CHGraphView, stamp q: UInt32, stallBit: UInt8) -> Range<Int>? {
        guard let arcs = g.arcs.baseAddress else { return range.lowerBound..<range.lowerBound }
        let searchBit = stallBit ^ (CHDirection.forward | CHDirection.backward)
        if stallBit == CHDirection.backward {
            // Forward search: [forward-only][both][backward-only], scanned down from the end.
            var a = range.upperBound
            var usableEnd = range.lowerBound
            while a > range.lowerBound {
                let arc = arcs[a &- 1]
                if arc.allows(searchBit) { usableEnd = a; break }
                if stalls(atDistance: d, through: arc, stamp: q) { return nil }
                a &-= 1
            }
            while a > range.lowerBound {
                let arc = arcs[a &- 1]
                if !arc.allows(stallBit) { break }
                if stalls(atDistance: d, through: arc, stamp: q) { return nil }
                a &-= 1
            }
            return range.lowerBound..<usableEnd
        }
        // Backward search: the same, scanned up from the start.
        var a = range.lowerBound
        var usableStart = range.upperBound
        while a < range.upperBound {
            let arc = arcs[a]
            if arc.allows(searchBit) { usableStart = a; break }
            if stalls(atDistance: d, through: arc, stamp: q) { return nil }
            a &+= 1
        }
        while a < range.upperBound {
            let arc = arcs[a]
            if !arc.allows(stallBit) { break }
            if stalls(atDistance: d, through: arc, stamp: q) { return nil }
            a &+= 1
        }
        return usableStart..<range.upperBound
    }

    /// Whether the arc's head, reached in this query, reaches the node at distance `d` more cheaply.
    @inline(__always)
    func stalls(atDistance d: UInt64, through arc: CHArc, stamp q: UInt32) -> Bool {
        let x = label[Int(arc.head)]
        return x.stamp == q && x.distance &+ UInt64(arc.weight) < d
    }

    @inline(__always)
    mutating func relax(_ v: UInt32, d: UInt64, usable: Range<Int>, graph g: CHGraphView, stamp q: UInt32, bound: UInt64) {
        var whole = CoreAccessList.none
        relax(v, d: d, usable: usable, graph: g, stamp: q, bound: bound, core: &whole)
    }

    /// The same, listing heads in the core (from `core.first` up) instead of queueing them.
    /// A queued node is mostly settled later, which starts with its arc range and, in a
    /// bidirectional search, its label on the `other` side: both are asked for when it is
    /// queued, so that those misses overlap the search instead of stalling the settle.
    @inline(__always)
    mutating func relax(_ v: UInt32, d: UInt64, usable: Range<Int>, graph g: CHGraphView, stamp q: UInt32, bound: UInt64,
                        core: inout CoreAccessList, other: UnsafeMutablePointer<SearchLabel>? = nil) {
        guard let arcs = g.arcs.baseAddress, let firstOut = g.firstOut.baseAddress else { return }
        var a = usable.lowerBound
        while a < usable.upperBound {
            let arc = arcs[a]
            let nd = d &+ UInt64(arc.weight)
            if nd < bound {
                let y = arc.head
                let old = label[Int(y)]
                let inCore = y >= core.first
                if old.stamp != q {
                    label[Int(y)] = SearchLabel(distance: nd, stamp: q, parentArc: UInt32(truncatingIfNeeded: a))
                    if inCore {
                        core.append(y)
                    } else {
                        heap.push(y, key: nd)
                        offgrid_prefetch(firstOut + Int(y))
                        if let other { offgrid_prefetch(other + Int(y)) }
                    }
                } else if nd < old.distance && (inCore || heap.contains(y)) {
                    label[Int(y)] = SearchLabel(distance: nd, stamp: q, parentArc: UInt32(truncatingIfNeeded: a))
                    if !inCore { heap.decrease(y, to: nd) }
                }
            }
            a &+= 1
        }
    }
}
