import ContractionHierarchy
import CustomizableHierarchy
import Foundation
import OffgridCore

/// The graph's weights without some roads (an `Avoidance`'s classes and closures), customized
/// on the turn graph's customizable hierarchy: exact shortest paths of the graph with those
/// roads removed. Read-only once made, shared by every query thread (each searches it with its
/// own `CCHQuery`).
public final class AvoidanceMetric: @unchecked Sendable {
    public let turns: CustomizableTurnGraph
    public let closed: ClosedEdges
    /// Per input arc of `turns`: its weight, `CCHMetric.infinity` into a removed road.
    public let weights: [UInt32]
    public let metric: CCHMetric
    /// Seconds spent finding the removed roads and customizing.
    public let closingSeconds: Double
    public let customizingSeconds: Double

    public init(turns: CustomizableTurnGraph, closed: ClosedEdges, closingSeconds: Double = 0) {
        self.turns = turns
        self.closed = closed
        self.closingSeconds = closingSeconds
        weights = turns.weights { closed.contains($0 >> 1) }
        let t0 = MonotonicClock.nanoseconds()
        metric = turns.customize(weights)
        customizingSeconds = Double(MonotonicClock.nanoseconds() - t0) / 1e9
    }

    /// The metric of an avoidance on a graph: `snapper` gives the grid closures are found through.
    public convenience init(turns: CustomizableTurnGraph, avoidance: Avoidance, data: RoutingData, snapper: Snapper) {
        let t0 = MonotonicClock.nanoseconds()
        let closed = ClosedEdges(avoidance, data: data, snapper: snapper)
        self.init(turns: turns, closed: closed, closingSeconds: Double(MonotonicClock.nanoseconds() - t0) / 1e9)
    }

    /// The allowed turns out of rank r under this metric (replaced turns included), head ascending,
    /// the lightest of parallel ones.
    public func turns(from r: UInt32) -> [(head: UInt32, weight: UInt32)] {
        var out: [(head: UInt32, weight: UInt32)] = []
        for k in Int(turns.turnFirst[Int(r)])..<Int(turns.turnFirst[Int(r) + 1]) {
            let i = Int(turns.turnArcs[k]), w = weights[i]
            guard w < CCHMetric.infinity else { continue }
            out.append((turns.topology.inputHead[i], w))
        }
        out.sort { ($0.head, $0.weight) < ($1.head, $1.weight) }
        var unique: [(head: UInt32, weight: UInt32)] = []
        for t in out where unique.last?.head != t.head { unique.append(t) }
        return unique
    }

    /// The weight of the turn a → b (the lightest allowed), nil when there is none.
    public func turnWeight(from a: UInt32, to b: UInt32) -> UInt32? {
        var best: UInt32?
        for k in Int(turns.turnFirst[Int(a)])..<Int(turns.turnFirst[Int(a) + 1]) {
            let i = Int(turns.turnArcs[k])
            if turns.topology.inputHead[i] == b && weights[i] < CCHMetric.infinity { best = min(best ?? .max, weights[i]) }
        }
        return best
    }

    /// A search over this metric (one per thread).
    public func query() -> CCHQuery { CCHQuery(topology: turns.topology, metric: metric) }
}

/// The metrics of one graph by avoidance, made on first use and kept (the least recently used
/// dropped beyond `capacity`, or beyond `byteBudget` together: a metric is 16 bytes per hierarchy
/// arc, ~245 MB at ~5 M nodes), with the turn graph's topology built once for all of them.
/// Thread-safe: a metric being made blocks other requests for metrics, not queries on made ones.
public final class AvoidanceMetrics: @unchecked Sendable {
    public let data: RoutingData
    public let capacity: Int
    private let lock = NSLock()
    private var turnGraph: CustomizableTurnGraph?
    private var snapper: Snapper?
    private var cached: [(key: Avoidance, metric: AvoidanceMetric)] = []
    private var keptLimitStorage: Int

    /// How many metrics are kept: `capacity`, fewer when they would pass `byteBudget`. Callers
    /// that keep services on metrics keep no more (else evicted metrics stay alive in them).
    public var keptLimit: Int {
        lock.lock()
        defer { lock.unlock() }
        return keptLimitStorage
    }

    /// Bytes the kept metrics may take together (at least one is always kept).
    public let byteBudget: Int

    public init(data: RoutingData, capacity: Int = 8, byteBudget: Int = 1 << 30) {
        self.data = data
        self.capacity = max(1, capacity)
        self.byteBudget = byteBudget
        keptLimitStorage = max(1, capacity)
    }

    /// The turn graph's customizable hierarchy (built on first call: the order and the topology).
    public func turns() -> CustomizableTurnGraph {
        lock.lock()
        defer { lock.unlock() }
        return turnsLocked()
    }

    private func turnsLocked() -> CustomizableTurnGraph {
        if let turnGraph { return turnGraph }
        let t = CustomizableTurnGraph(data: data)
        turnGraph = t
        return t
    }

    /// The metric without the avoided roads (nil for an empty avoidance: use the hierarchy).
    public func metric(for avoidance: Avoidance) throws -> AvoidanceMetric? {
        guard !avoidance.isEmpty else { return nil }
        lock.lock()
        defer { lock.unlock() }
        if let i = cached.firstIndex(where: { $0.key == avoidance }) {
            let hit = cached.remove(at: i)
            cached.append(hit)
            return hit.metric
        }
        if snapper == nil { snapper = try Snapper(file: data.file) }
        let made = AvoidanceMetric(turns: turnsLocked(), avoidance: avoidance, data: data, snapper: snapper!)
        cached.append((avoidance, made))
        let bytes = made.metric.arcCount * 16 + made.weights.count * 4 + made.closed.words.count * 8
        keptLimitStorage = max(1, min(capacity, byteBudget / max(1, bytes)))
        while cached.count > keptLimitStorage { cached.removeFirst() }
        return made
    }
}
