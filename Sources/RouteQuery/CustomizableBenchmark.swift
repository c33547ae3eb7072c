import ContractionHierarchy
import CustomizableHierarchy
import OffgridCore

/// Figures of the customizable hierarchy on a graph file's turn graph (`route-query bench
/// --customizable`): building the order and topology, customizing the default metric and one
/// without the main roads (motorway, trunk and primary, and their links: `excludedRoadClasses`),
/// and distance queries under both, each checked against an exact
/// reference (the contraction hierarchy for the default metric, Dijkstra on the turn graph
/// without the removed roads for the other).
public struct CustomizableBenchmarkReport: Encodable, Sendable {
    public var edgeBasedNodes = 0
    public var turnArcs = 0
    public var hierarchyArcs = 0
    /// FNV-1a of the order (the node of each rank, little-endian u32s): equal digests, equal orders.
    public var orderDigest = ""
    public var orderSeconds = 0.0
    public var topologySeconds = 0.0
    /// Customization, best of three runs, one thread.
    public var customizeDefaultSeconds = 0.0
    public var customizeExcludingSeconds = 0.0
    public var distanceMicros = BenchmarkReport.Percentiles()
    public var excludingDistanceMicros = BenchmarkReport.Percentiles()
    public var checkedPairs = 0
    public var mismatches = 0
    /// The road classes removed in the second metric, and the turn arcs that removal cut.
    public var excludedRoadClasses = "motorway, trunk, primary and their links"
    public var excludedTurnArcs = 0
    public var excludingChecked = 0
    public var excludingMismatches = 0
    /// `--exclude`/`--avoid` through the route service (`AvoidanceBenchmark`).
    public var avoidance = AvoidanceBenchmarkReport()
}

public struct CustomizableBenchmark {
    let data: RoutingData
    let queries: Int
    /// Its random main-network ranks (the same draws as the hierarchy's benchmark).
    var random: QueryBenchmark

    public init(data: RoutingData, queries: Int, seed: UInt64) {
        self.data = data
        self.queries = queries
        random = QueryBenchmark(data: data, queries: queries, seed: seed)
    }

    private static func seconds(_ body: () -> Void) -> Double {
        let t0 = MonotonicClock.nanoseconds()
        body()
        return Double(MonotonicClock.nanoseconds() - t0) / 1e9
    }

    public mutating func run(exactChecks: Int = 200) throws -> CustomizableBenchmarkReport {
        var out = CustomizableBenchmarkReport()
        let turns = CustomizableTurnGraph(data: data)
        out.edgeBasedNodes = turns.topology.nodeCount
        out.turnArcs = turns.weights.count
        out.hierarchyArcs = turns.topology.arcCount
        out.orderSeconds = turns.orderSeconds
        var digest: UInt64 = 0xcbf2_9ce4_8422_2325
        for v in turns.topology.order {
            for shift in stride(from: 0, to: 32, by: 8) { digest = (digest ^ UInt64((v >> UInt32(shift)) & 0xFF)) &* 0x100_0000_01b3 }
        }
        out.orderDigest = String(digest, radix: 16)
        out.topologySeconds = turns.topologySeconds
        var metric = turns.customize(turns.weights)
        out.customizeDefaultSeconds = (0..<3).map { _ in Self.seconds { metric = turns.customize(turns.weights) } }.min()!
        let edges = data.edges
        let withoutMainRoads = turns.weights { edges[$0 >> 1].roadClass <= 5 }
        out.excludedTurnArcs = withoutMainRoads.lazy.filter { $0 >= CCHMetric.infinity }.count
        var excluding = turns.customize(withoutMainRoads)
        out.customizeExcludingSeconds = (0..<3).map { _ in Self.seconds { excluding = turns.customize(withoutMainRoads) } }.min()!

        let query = CCHQuery(topology: turns.topology, metric: metric)
        let ch = CHQuery(graph: data.ch)
        let pairs = (0..<queries).map { _ in (random.randomMainRank(), random.randomMainRank()) }
        for (s, t) in pairs.prefix(exactChecks) {
            out.checkedPairs += 1
            if query.distance(from: s, to: t).map({ UInt64($0) }) != ch.distance(from: s, to: t) { out.mismatches += 1 }
        }
        out.distanceMicros = Self.latencies(query, pairs)

        query.use(excluding)
        var kept = ArcList()
        let topology = turns.topology
        for i in withoutMainRoads.indices where withoutMainRoads[i] < CCHMetric.infinity {
            kept.append(tail: topology.inputTail[i], head: topology.inputHead[i], weight: withoutMainRoads[i])
        }
        let dijkstra = DijkstraQuery(CSRGraph(nodeCount: topology.nodeCount, arcs: kept))
        for (s, t) in pairs.prefix(exactChecks / 4) {
            out.excludingChecked += 1
            if query.distance(from: s, to: t).map({ UInt64($0) }) != dijkstra.distance(from: s, to: t) { out.excludingMismatches += 1 }
        }
        out.excludingDistanceMicros = Self.latencies(query, pairs)
        var avoiding = AvoidanceBenchmark(data: data, turns: turns, queries: queries, seed: random.rng.state)
        out.avoidance = try avoiding.run(queries: queries)
        return out
    }

    private static func latencies(_ query: CCHQuery, _ pairs: [(UInt32, UInt32)]) -> BenchmarkReport.Percentiles {
        for (s, t) in pairs { _ = query.distance(from: s, to: t) }
        var samples: [Double] = []
        samples.reserveCapacity(pairs.count)
        for (s, t) in pairs {
            let t0 = MonotonicClock.nanoseconds()
            _ = query.distance(from: s, to: t)
            samples.append(Double(MonotonicClock.nanoseconds() - t0) / 1000)
        }
        return QueryBenchmark.percentiles(samples)
    }
}
