import ContractionHierarchy
import CustomizableHierarchy
import OffgridCore
import TileMath

/// Figures of `--exclude`/`--avoid` on a graph file (`route-query bench --customizable`): the
/// first query with an exclusion set never seen (finding its roads, customizing, snapping and
/// searching), queries between random road points under it next to the hierarchy's, and 50
/// closures (points with a radius and small polygons) applied to a metric.
public struct AvoidanceBenchmarkReport: Encodable, Sendable {
    public var exclude = "motorway,toll,ferry,unpaved,tunnel"
    public var excludedEdges = 0
    /// Finding the excluded roads, customizing, and answering the first travel time (ms).
    public var firstQueryClosingMillis = 0.0
    public var firstQueryCustomizingMillis = 0.0
    public var firstQueryMillis = 0.0
    /// Travel time between random road points (snap + search), under the exclusion set and
    /// with the hierarchy (no exclusion), same pairs.
    public var durationBetweenPointsMicros = BenchmarkReport.Percentiles()
    public var defaultDurationBetweenPointsMicros = BenchmarkReport.Percentiles()
    /// Under the exclusion set, the same as Dijkstra on the turn graph without those roads.
    public var checkedPairs = 0
    public var mismatches = 0
    /// 50 closures: finding their roads (best of 3), and customizing with them added to the set.
    public var closures = 50
    public var closedEdges = 0
    public var closingMillis = 0.0
    public var closuresCustomizingMillis = 0.0
}

public struct AvoidanceBenchmark {
    let data: RoutingData
    let turns: CustomizableTurnGraph
    var random: QueryBenchmark

    public init(data: RoutingData, turns: CustomizableTurnGraph, queries: Int, seed: UInt64) {
        self.data = data
        self.turns = turns
        random = QueryBenchmark(data: data, queries: queries, seed: seed ^ 0x51)
    }

    static func millis(_ t0: UInt64) -> Double { (Double(MonotonicClock.nanoseconds() - t0) / 1e4).rounded() / 100 }

    public mutating func run(queries: Int, exactChecks: Int = 50) throws -> AvoidanceBenchmarkReport {
        var out = AvoidanceBenchmarkReport()
        let snapper = try Snapper(file: data.file)
        let avoidance = try Avoidance.parseExclude(out.exclude)
        let pairs = (0..<queries).map { _ in (random.randomRoadPoint(), random.randomRoadPoint()) }
        // The first query with a set never seen: everything after the process has its topology.
        let t0 = MonotonicClock.nanoseconds()
        let metric = AvoidanceMetric(turns: turns, avoidance: avoidance, data: data, snapper: snapper)
        let service = try RouteService(data: data, avoiding: metric)
        _ = try? service.duration(RouteRequest(coordinates: [pairs[0].0, pairs[0].1]))
        out.firstQueryMillis = Self.millis(t0)
        out.firstQueryClosingMillis = (metric.closingSeconds * 1e5).rounded() / 100
        out.firstQueryCustomizingMillis = (metric.customizingSeconds * 1e5).rounded() / 100
        out.excludedEdges = metric.closed.count

        let plain = try RouteService(data: data)
        for (label, s) in [("avoiding", service), ("default", plain)] {
            for (a, b) in pairs.prefix(200) { _ = try? s.duration(RouteRequest(coordinates: [a, b])) }
            var samples: [Double] = []
            samples.reserveCapacity(pairs.count)
            for (a, b) in pairs {
                let t = MonotonicClock.nanoseconds()
                _ = try? s.duration(RouteRequest(coordinates: [a, b]))
                samples.append(Double(MonotonicClock.nanoseconds() - t) / 1000)
            }
            if label == "avoiding" { out.durationBetweenPointsMicros = QueryBenchmark.percentiles(samples) }
            else { out.defaultDurationBetweenPointsMicros = QueryBenchmark.percentiles(samples) }
        }
        // Exact: rank pairs against Dijkstra on every turn not into an excluded road.
        var kept = ArcList()
        for i in metric.weights.indices where metric.weights[i] < CCHMetric.infinity {
            kept.append(tail: turns.topology.inputTail[i], head: turns.topology.inputHead[i], weight: metric.weights[i])
        }
        let dijkstra = DijkstraQuery(CSRGraph(nodeCount: data.rankCount, arcs: kept))
        let query = metric.query()
        for _ in 0..<exactChecks {
            let s = random.randomMainRank(), t = random.randomMainRank()
            out.checkedPairs += 1
            if query.distance(from: s, to: t).map({ UInt64($0) }) != dijkstra.distance(from: s, to: t) { out.mismatches += 1 }
        }

        // 50 closures around random road points: half circles of 200 m, half squares of ~400 m.
        var closures: [Closure] = []
        for k in 0..<out.closures {
            let p = random.randomRoadPoint()
            if k % 2 == 0 {
                closures.append(.circle(center: GeoPoint(lon: p.lon, lat: p.lat), radiusMeters: 200))
            } else {
                let d = 0.002
                let ring = [(-d, -d), (d, -d), (d, d), (-d, d), (-d, -d)].map { GeoPoint(lon: p.lon + $0.0, lat: p.lat + $0.1) }
                closures.append(.polygon(rings: [ring]))
            }
        }
        let withClosures = Avoidance(classes: avoidance.classes, closures: closures)
        var best = Double.infinity, closed = 0
        for _ in 0..<3 {
            let t = MonotonicClock.nanoseconds()
            let edges = ClosedEdges(Avoidance(closures: closures), data: data, snapper: snapper)
            best = min(best, Self.millis(t))
            closed = edges.count
        }
        out.closingMillis = best
        out.closedEdges = closed
        out.closuresCustomizingMillis = (AvoidanceMetric(turns: turns, avoidance: withClosures, data: data, snapper: snapper)
            .customizingSeconds * 1e5).rounded() / 100
        return out
    }
}
