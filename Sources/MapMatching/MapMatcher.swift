import Foundation
import LocationTraces
import RouteQuery
import TileMath

/// Matches location traces to the roads of one graph and answers OSRM's match service. One per
/// thread: it owns a route service (snapping, route assembly) and the transition search.
public final class MapMatcher {
    public let service: RouteService
    let search: TransitionSearch

    public init(data: RoutingData) throws {
        service = try RouteService(data: data)
        search = TransitionSearch(data: data)
    }

    public var data: RoutingData { service.data }

    /// Nodes the transition searches settled so far (the benchmark reports it per fix).
    public var settledNodes: Int { search.settledCount }

    /// The matched state of every fix (nil: unmatched) and the runs they form: the model's
    /// answer before any route is assembled (what free drive and the benchmark need).
    public func positions(_ request: MatchRequest) -> MatchedPositions {
        let skip = tidySkips(request)
        let candidates = MatchCandidates(request: request, snapper: service.snapping, skip: skip)
        let viterbi = ViterbiMatcher(request: request, candidates: candidates, search: search)
        let runs = viterbi.runs()
        var positions = MatchedPositions(count: request.fixes.count)
        for (m, run) in runs.enumerated() {
            for (k, f) in run.fixes.enumerated() {
                let state = candidates.states[run.states[k]]
                positions.fixes[f] = MatchedPosition(phantom: state.phantom, direction: Int(state.edgeDirection & 1),
                                                     heading: state.heading, run: m, alternatives: run.alternatives[k])
                positions.fixes[f]?.stood = run.stood[k]
            }
        }
        positions.runs = runs.map(\.fixes)
        return positions
    }

    /// Every fix's matched road point as a navigation SDK knows it at that fix: the most likely
    /// position given the fixes so far, never corrected by later ones (nil: unmatched). What
    /// `route-query trace` follows a route with.
    public func onlinePositions(_ request: MatchRequest, lag: Int = 0) -> [GeoPoint?] {
        let candidates = MatchCandidates(request: request, snapper: service.snapping, skip: tidySkips(request))
        let viterbi = ViterbiMatcher(request: request, candidates: candidates, search: search)
        let runs = viterbi.runs()
        return viterbi.lagged(runs, lag: lag).map { s in
            guard s >= 0 else { return nil }
            let p = candidates.states[s].phantom
            return GeoPoint(lon: p.lon, lat: p.lat)
        }
    }

    /// OSRM's match response for the request, or its failure.
    public func match(_ request: MatchRequest) -> MatchAnswer {
        do throws(QueryFailure) {
            return .matched(try matchResponse(request))
        } catch {
            return .failure(error)
        }
    }

    public func matchResponse(_ request: MatchRequest) throws(QueryFailure) -> MatchResponse {
        if let failure = request.validationFailure() { throw failure }
        var positions = self.positions(request)
        if let waypoints = request.waypoints {
            // Legs run between the waypoints, so the trace may not split (OSRM answers NoMatch too).
            guard positions.runs.count == 1, waypoints.allSatisfy({ positions.fixes[$0] != nil }) else {
                throw QueryFailure(code: "NoMatch", message: "Could not match the trace with the given waypoints.")
            }
        }
        guard !positions.runs.isEmpty else { throw QueryFailure(code: "NoMatch", message: "Could not match the trace.") }
        var matchings: [Matching] = []
        var tracepoints = [Tracepoint?](repeating: nil, count: request.fixes.count)
        for (m, run) in positions.runs.enumerated() {
            let assembled = assemble(run, &positions, request)
            matchings.append(Matching(route: assembled.route, confidence: assembled.confidence))
            for (k, f) in run.enumerated() {
                guard let p = positions.fixes[f] else { continue }
                let w = service.snappedWaypoint(p.phantom)
                tracepoints[f] = Tracepoint(alternativesCount: p.alternatives, distance: w.distance, location: w.location,
                                            matchingsIndex: m, name: w.name, waypointIndex: assembled.waypointIndex[k])
            }
        }
        return MatchResponse(matchings: matchings, tracepoints: tracepoints)
    }

    /// The legs of one run (between all its fixes, or between the requested waypoints), the
    /// route through them, and its confidence.
    func assemble(_ run: [Int], _ positions: inout MatchedPositions, _ request: MatchRequest)
        -> (route: Route, confidence: Double, waypointIndex: [Int?]) {
        let isWaypoint: [Bool] = run.map { f in request.waypoints.map { $0.contains(f) } ?? true }
        var legs: [LegSearch.Leg] = []
        var phantoms: [Phantom] = []
        var pending: [UInt32] = []   // ranks driven since the last waypoint
        var waypointIndex: [Int?] = []
        var straight = 0.0
        for (k, f) in run.enumerated() {
            var here = positions.fixes[f]!
            if k > 0 {
                let before = positions.fixes[run[k - 1]]!
                straight += greatCircle(request.fixes[run[k - 1]], request.fixes[f])
                // A fix a little behind the previous one on the same road stands where that one did.
                if here.stood || here.edgeDirection == before.edgeDirection
                    && here.legPhantom.share(direction: here.legDirection) < before.legPhantom.share(direction: before.legDirection) {
                    here.legPhantom = before.legPhantom
                    here.legDirection = before.legDirection
                    positions.fixes[f] = here
                }
                let ranks = path(from: before.legPhantom, before.legDirection, to: here.legPhantom, here.legDirection)
                if pending.isEmpty { pending = ranks } else if ranks.first == pending.last {
                    pending += ranks.dropFirst()
                } else { pending += ranks }
            } else {
                pending = [here.rank(data)]
            }
            if isWaypoint[k] {
                waypointIndex.append(phantoms.count)
                if k > 0 {
                    legs.append(service.legSearch.leg(alongRanks: pending, source: phantoms[phantoms.count - 1], target: here.legPhantom))
                }
                phantoms.append(here.legPhantom)
                pending = [here.rank(data)]
            } else {
                waypointIndex.append(nil)
            }
        }
        var routeRequest = RouteRequest(coordinates: phantoms.map { ($0.lon, $0.lat) })
        routeRequest.steps = request.steps
        routeRequest.geometries = request.geometries
        routeRequest.overview = request.overview
        routeRequest.annotations = request.annotations
        let route = service.route(legs: legs, phantoms: phantoms, request: routeRequest)
        // OSRM's confidence compares the trace's and the route's lengths; so does this one.
        let driven = route.distance
        let confidence = max(straight, driven) > 0 ? min(straight, driven) / max(straight, driven) : 1
        return (route, (confidence * 1e6).rounded() / 1e6, waypointIndex)
    }

    /// Ranks driven from one matched position to the next: the transition search's path, or
    /// the route service's when the bounded search cannot see it (it always can in practice).
    func path(from a: Phantom, _ da: Int, to b: Phantom, _ db: Int) -> [UInt32] {
        let ra = da == 0 ? a.forwardRank : a.backwardRank, rb = db == 0 ? b.forwardRank : b.backwardRank
        let edA = UInt32(2 * a.edge + da), edB = UInt32(2 * b.edge + db)
        if edA == edB && b.share(direction: db) >= a.share(direction: da) { return [ra] }
        let target = [(edgeDirection: edB, share: b.share(direction: db))]
        var out = [Double.infinity]
        let limit = 100_000.0
        target.withUnsafeBufferPointer { t in
            out.withUnsafeMutableBufferPointer { o in
                search.distances(sourceRank: ra, sourceShare: a.share(direction: da), targets: t,
                                 within: TargetDisc(lat: b.lat, lon: b.lon, radiusMeters: 1), limitMeters: limit, backwardMeters: 0, into: o)
            }
        }
        if out[0] < .infinity, let ranks = search.path(from: ra, toTarget: 0) {
            return ranks
        }
        return service.legSearch.leg(from: a, to: b)?.ranks ?? [ra, rb]
    }

    /// tidy: fixes within `tidyMeters` of the last kept one are left out.
    func tidySkips(_ request: MatchRequest) -> [Bool] {
        var skip = [Bool](repeating: false, count: request.fixes.count)
        guard request.tidy else { return skip }
        var kept: LocationFix?
        for (i, f) in request.fixes.enumerated() where f.lon.isFinite && f.lat.isFinite {
            if let k = kept, i < request.fixes.count - 1, greatCircle(k, f) < request.parameters.tidyMeters {
                skip[i] = true
            } else {
                kept = f
            }
        }
        return skip
    }
}

/// A fix's matched road position, the direction driven there, and its run.
public struct MatchedPosition {
    public var phantom: Phantom
    public var direction: Int
    /// Direction of travel on the road there, degrees clockwise from north.
    public var heading: Double
    public var run: Int
    public var alternatives: Int
    /// Matched a little behind the previous fix (noise): legs treat the vehicle as standing.
    public var stood = false
    /// The position legs start and end at (the phantom, moved forward over backward noise).
    public var legPhantom: Phantom
    /// The direction driven at `legPhantom`.
    public var legDirection: Int

    init(phantom: Phantom, direction: Int, heading: Double, run: Int, alternatives: Int) {
        self.phantom = phantom
        self.direction = direction
        self.heading = heading
        self.run = run
        self.alternatives = alternatives
        legPhantom = phantom
        legDirection = direction
    }

    var edgeDirection: Int { 2 * legPhantom.edge + legDirection }
    func rank(_ data: RoutingData) -> UInt32 { legDirection == 0 ? legPhantom.forwardRank : legPhantom.backwardRank }
}

/// Every fix's match (nil: unmatched) and the runs of fixes matched together.
public struct MatchedPositions {
    public var fixes: [MatchedPosition?]
    public var runs: [[Int]] = []

    init(count: Int) { fixes = [MatchedPosition?](repeating: nil, count: count) }
}
