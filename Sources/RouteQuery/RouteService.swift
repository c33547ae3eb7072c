import CustomizableHierarchy

/// Answers route requests with OSRM's route response (typed; the executable writes the JSON).
/// One per thread: it owns the search state and the snapping scratch.
public final class RouteService {
    public let data: RoutingData
    let search: LegSearch
    let snapper: Snapper
    let steps: StepBuilder

    /// `avoiding`: search a metric without some roads (exclusions, closures) instead of the
    /// graph's own hierarchy, and never snap onto those roads; the default is the hierarchy, the
    /// fastest for the graph's weights.
    public init(data: RoutingData, avoiding: AvoidanceMetric? = nil) throws {
        self.data = data
        search = LegSearch(data: data, avoiding: avoiding)
        snapper = try Snapper(file: data.file)
        snapper.closedEdges = avoiding?.closed
        steps = StepBuilder(data: data)
    }

    /// A failed request, as OSRM spells it.
    public typealias Failure = QueryFailure

    /// Snaps every waypoint, or fails with NoSegment naming the first that has no road: the
    /// nearest road of each, and where that lies on a tiny component, the nearest road on a
    /// component that is not (`Snapper`), as `alternatives[i]` (nil when there is none).
    public func phantomChoices(_ request: RouteRequest) throws -> (nearest: [Phantom], alternatives: [Phantom?]?) {
        var nearest: [Phantom] = []
        nearest.reserveCapacity(request.coordinates.count)
        var alternatives: [Phantom?]?
        for (i, c) in request.coordinates.enumerated() {
            let bearing = request.bearings.isEmpty ? nil : request.bearings[i]
            let radius = request.radiuses.isEmpty ? nil : request.radiuses[i]
            guard let (n, main) = snapper.snapPhantoms(lon: c.lon, lat: c.lat, radiusMeters: radius, bearing: bearing) else {
                throw Failure(code: "NoSegment", message: "Could not find a matching segment for coordinate \(i)")
            }
            nearest.append(n)
            if let main {
                if alternatives == nil { alternatives = [Phantom?](repeating: nil, count: request.coordinates.count) }
                alternatives?[i] = main
            }
        }
        return (nearest, alternatives)
    }

    /// Snaps every waypoint and runs `body` on the end points (`endPoints`).
    func withPhantoms<T>(_ request: RouteRequest, _ body: ([Phantom]) throws -> T) throws -> T {
        let (nearest, alternatives) = try phantomChoices(request)
        return try body(endPoints(nearest: nearest, alternatives: alternatives))
    }

    /// OSRM's choice between each waypoint's nearest road and its road on a big component
    /// (`SnapPhantomNodes`): the nearest roads when every waypoint's lies on one and the same tiny
    /// component (a closed car park is routed inside itself), otherwise the big component's road
    /// wherever there is one within reach. Routes and tables choose alike, so they agree.
    func endPoints(nearest: [Phantom], alternatives: [Phantom?]?) -> [Phantom] {
        guard let alternatives, let first = nearest.first else { return nearest }
        if snapper.isTiny(component: first.component) && nearest.allSatisfy({ $0.component == first.component }) { return nearest }
        return zip(nearest, alternatives).map { $1 ?? $0 }
    }

    /// The end points a route between the waypoints uses (`withPhantoms`).
    public func phantoms(_ request: RouteRequest) throws -> [Phantom] {
        try withPhantoms(request) { $0 }
    }

    /// The end points a route between the waypoints uses (`withPhantoms`), or NoRoute.
    public func routedPhantoms(_ request: RouteRequest) throws -> [Phantom] {
        try withPhantoms(request) { ps in
            _ = try legs(ps, algorithm: request.algorithm, continueStraight: request.continueStraight)
            return ps
        }
    }

    public func snap(lon: Double, lat: Double, radius: Double?, bearing: (degrees: Double, range: Double)?) -> Phantom? {
        snapper.snapPhantom(lon: lon, lat: lat, radiusMeters: radius, bearing: bearing)
    }

    /// The legs between consecutive phantoms, or NoRoute. With `continueStraight`, a leg after a
    /// via point leaves it in the direction the previous leg arrived in.
    public func legs(_ phantoms: [Phantom], algorithm: LegSearch.Algorithm, continueStraight: Bool = false) throws -> [LegSearch.Leg] {
        var out: [LegSearch.Leg] = []
        out.reserveCapacity(phantoms.count - 1)
        for i in 1..<phantoms.count {
            var a = phantoms[i - 1]
            if continueStraight, let previous = out.last { a = a.leaving(inDirection: previous.targetDirection) }
            guard let leg = search.leg(from: a, to: phantoms[i], algorithm: algorithm) else {
                throw Failure(code: "NoRoute", message: "Impossible route between points")
            }
            out.append(leg)
        }
        return out
    }

    /// Duration (s) and distance (m) only: what batch and table answers need, with no geometry.
    public func summary(_ request: RouteRequest) throws -> (duration: Double, distance: Double, weight: Double) {
        if let problem = request.validationProblem() { throw Failure(code: "InvalidInput", message: problem) }
        return try withPhantoms(request) { ps in try summary(request, phantoms: ps) }
    }

    private func summary(_ request: RouteRequest, phantoms ps: [Phantom]) throws -> (duration: Double, distance: Double, weight: Double) {
        var duration = 0.0, distance = 0.0
        // Dijkstra, or an avoidance metric (no spans there: one unpacked path per leg, not a
        // search for the weight and another for the path).
        guard request.algorithm == .ch && search.avoiding == nil else {
            for (leg, (a, b)) in zip(try legs(ps, algorithm: request.algorithm, continueStraight: request.continueStraight), zip(ps, ps.dropFirst())) {
                duration += Double(leg.weight) / 10
                distance += leg.meters(data, source: a, target: b)
            }
            return (duration, distance, duration)
        }
        // The legs' lengths from the search's arc sums, without unpacking (as `legs` finds them).
        var arrival: Int?
        for i in 1..<ps.count {
            var a = ps[i - 1]
            let b = ps[i]
            if request.continueStraight, let previous = arrival { a = a.leaving(inDirection: previous) }
            guard let (weight, span) = search.span(from: a, to: b) else {
                throw Failure(code: "NoRoute", message: "Impossible route between points")
            }
            duration += Double(weight) / 10
            if let span {
                distance += data.meters(span, from: a, to: b)
                arrival = data.direction(of: span.last, on: b) ?? 0
            } else {
                guard let leg = search.leg(from: a, to: b) else { throw Failure(code: "NoRoute", message: "Impossible route between points") }
                distance += leg.meters(data, source: a, target: b)
                arrival = leg.targetDirection
            }
        }
        return (duration, distance, duration)
    }

    /// Travel time (s) alone: CH distance queries between the waypoints, no path.
    public func duration(_ request: RouteRequest) throws -> Double {
        if let problem = request.validationProblem() { throw Failure(code: "InvalidInput", message: problem) }
        return try withPhantoms(request) { ps in
            var total: UInt64 = 0
            for (a, b) in zip(ps, ps.dropFirst()) {
                guard let w = search.weight(from: a, to: b, algorithm: request.algorithm) else {
                    throw Failure(code: "NoRoute", message: "Impossible route between points")
                }
                total += w
            }
            return Double(total) / 10
        }
    }

    /// The full OSRM route response, or the failure that stopped it.
    public func routes(_ request: RouteRequest) throws(QueryFailure) -> RouteResponse {
        do {
            if let problem = request.validationProblem() { throw Failure(code: "InvalidInput", message: problem) }
            let (ps, legs): ([Phantom], [LegSearch.Leg]) = try withPhantoms(request) { ps in
                (ps, try self.legs(ps, algorithm: request.algorithm, continueStraight: request.continueStraight))
            }
            let assembly = RouteAssembly(data: data, steps: steps, request: request)
            var routes = [assembly.route(legs: legs, phantoms: ps)]
            // (The via-node alternatives search the hierarchy: none under an avoidance.)
            if request.alternatives > 0 && legs.count == 1 && request.algorithm == .ch && search.avoiding == nil {
                let alternatives = AlternativeRoutes(data: data, search: search)
                    .find(request.alternatives, main: legs[0], source: ps[0], target: ps[1])
                routes += alternatives.map { assembly.route(legs: [$0], phantoms: ps) }
            }
            let waypoints = ps.map { waypoint($0) }
            return RouteResponse(code: "Ok", routes: routes, waypoints: waypoints)
        } catch let f as Failure {
            throw f
        } catch {
            throw Failure(code: "InvalidInput", message: "\(error)")
        }
    }

    /// What `route` answers: the response in the requested format, or the failure.
    public func route(_ request: RouteRequest) -> RouteAnswer {
        do {
            let response = try routes(request)
            if request.format == .geojson {
                return .featureCollection(RouteFeatureCollection(route: response.routes[0], waypoints: response.waypoints))
            }
            return .routes(response)
        } catch {
            return .failure(error)
        }
    }

    func waypoint(_ p: Phantom) -> Waypoint {
        Waypoint(location: .rounded(lon: p.lon, lat: p.lat), name: data.string(data.edges[p.edge].name), distance: round2(p.distance))
    }
}

@inline(__always) func round6(_ v: Double) -> Double { (v * 1e6).rounded() / 1e6 }
@inline(__always) func round2(_ v: Double) -> Double { (v * 100).rounded() / 100 }
@inline(__always) func round1(_ v: Double) -> Double { (v * 10).rounded() / 10 }
