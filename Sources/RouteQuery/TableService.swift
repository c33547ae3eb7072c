import ContractionHierarchy
import OffgridCore

/// OSRM's table response: travel times (s) and distances (m), null where no route exists.
public struct TableResponse: Encodable, Sendable {
    public var code = "Ok"
    /// Present when durations were asked for: `durations[source][destination]`.
    public var durations: [[Double?]]?
    public var distances: [[Double?]]?
    public var sources: [Waypoint]
    public var destinations: [Waypoint]
}

/// OSRM's table service: one bucket-based many-to-many CH search for all durations.
public final class TableService {
    let service: RouteService

    public init(data: RoutingData) throws { service = try RouteService(data: data) }

    /// A table service sharing a route service's search state (one pair per worker thread).
    public init(service: RouteService) { self.service = service }

    public func table(sources: [(lon: Double, lat: Double)], destinations: [(lon: Double, lat: Double)],
                      durations wantDurations: Bool = true, distances wantDistances: Bool = false,
                      algorithm: LegSearch.Algorithm = .ch) throws(QueryFailure) -> TableResponse {
        let data = service.data
        // Sources then destinations, each point's nearest road and its big-component road, chosen
        // between over all of them as a route chooses over its waypoints (`endPoints`).
        var nearest: [Phantom] = [], alternatives: [Phantom?] = []
        nearest.reserveCapacity(sources.count + destinations.count)
        for (points, name) in [(sources, "source"), (destinations, "destination")] {
            for (i, c) in points.enumerated() {
                guard c.lon.isFinite, c.lat.isFinite, (-180...180).contains(c.lon), (-90...90).contains(c.lat) else {
                    throw QueryFailure(code: "InvalidInput", message: "\(name) \(i) (\(c.lon),\(c.lat)) is not a valid lon,lat")
                }
                guard let (p, main) = service.snapper.snapPhantoms(lon: c.lon, lat: c.lat) else {
                    throw QueryFailure(code: "NoSegment", message: "Could not find a matching segment for \(name) \(i)")
                }
                nearest.append(p)
                alternatives.append(main)
            }
        }
        let chosen = service.endPoints(nearest: nearest, alternatives: alternatives)
        let from = Array(chosen[..<sources.count]), to = Array(chosen[sources.count...])
        let search = service.search
        var weights: [[UInt64?]]
        // With distances, each pair's length along the path its weight came from (nil: route the pair).
        var spans: [CHPathSpan?] = []
        if algorithm == .ch && search.avoiding == nil {
            let sourceEndpoints = from.map(search.sourceEndpoints)
            let targets = to.map(search.targetEndpoints)
            let targetEndpoints = targets.map(\.targets), shifts = targets.map { UInt64($0.shift) }
            let n = to.count
            let threads = Parallel.activeProcessorCount
            let flat: [UInt64]
            if wantDistances {
                (flat, spans) = search.ch.tableDistances(sources: sourceEndpoints, targets: targetEndpoints,
                                                         threads: threads, metric: data.rankLength)
            } else {
                flat = search.ch.tableDistances(sources: sourceEndpoints, targets: targetEndpoints, threads: threads)
            }
            // (A value below its shift comes only from a same-edge pair fixed just below.)
            weights = (0..<from.count).map { i in
                (0..<n).map { j in
                    let w = flat[i * n + j]
                    return w == UInt64.max || w < shifts[j] ? nil : w - shifts[j]
                }
            }
            // Same edge with the destination behind: the bucket search would shortcut it; route it
            // properly. Only pairs on one edge can be such a pair, so look those up by edge.
            var destinationsOnEdge: [Int: [Int]] = [:]
            for (j, p) in to.enumerated() { destinationsOnEdge[p.edge, default: []].append(j) }
            for (i, a) in from.enumerated() {
                for j in destinationsOnEdge[a.edge] ?? [] where sharesDirectionBehind(a, to[j]) {
                    weights[i][j] = search.weight(from: a, to: to[j])
                    if !spans.isEmpty { spans[i * n + j] = nil }   // its path is not the bucket search's
                }
            }
        } else {
            // Dijkstra, or a metric without some roads (elimination-tree searches pair by pair).
            weights = from.map { a in to.map { b in search.weight(from: a, to: b, algorithm: algorithm) } }
        }
        var out = TableResponse(sources: from.map(service.waypoint), destinations: to.map(service.waypoint))
        if wantDurations {
            out.durations = weights.map { row in row.map { w in w.map { round1(Double($0) / 10) } } }
        }
        if wantDistances {
            let n = to.count
            // Pairs the bucket search left without a path (or a pair routed on its own above, or
            // the Dijkstra algorithm) get a route of their own, rows on all cores with a search
            // state per worker.
            let threads = max(1, min(Parallel.activeProcessorCount, from.count))
            let searches = (0..<threads).map { w in w == 0 ? search : LegSearch(data: data, avoiding: search.avoiding) }
            var rows = [[Double?]](repeating: [], count: from.count)
            rows.withUnsafeMutableBufferPointer { slots in
                Parallel.forEachChunk(count: from.count, threads: threads, chunkSize: 4) { w, range in
                    for i in range {
                        slots[i] = (0..<n).map { j -> Double? in
                            guard weights[i][j] != nil else { return nil }
                            if !spans.isEmpty, let span = spans[i * n + j] {
                                return round1(data.meters(span, from: from[i], to: to[j]))
                            }
                            guard let leg = searches[w].leg(from: from[i], to: to[j], algorithm: algorithm) else { return nil }
                            return round1(leg.meters(data, source: from[i], target: to[j]))
                        }
                    }
                }
            }
            out.distances = rows
        }
        return out
    }

    func sharesDirectionBehind(_ a: Phantom, _ b: Phantom) -> Bool {
        a.directions.contains { d, r in b.directions.contains { $0 == (d, r) } && b.position(d) < a.position(d) }
    }
}
