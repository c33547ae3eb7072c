import Foundation
import OffgridCore
import MapMatching
import RouteQuery

/// One answer: the HTTP status and the JSON body, as text or, for routes (rendered straight
/// into bytes, see `RouteResponse.writeJSON(to:)`), as UTF-8 bytes.
public struct OSRMAnswer: Sendable {
    enum Body: Sendable {
        case text(String)
        case bytes([UInt8])
    }

    public var status: Int
    let content: Body

    public init(status: Int, body: String) {
        self.status = status
        content = .text(body)
    }

    public init(status: Int, bodyBytes: [UInt8]) {
        self.status = status
        content = .bytes(bodyBytes)
    }

    /// The body as text.
    public var body: String {
        switch content {
        case .text(let text): return text
        case .bytes(let bytes): return String(decoding: bytes, as: UTF8.self)
        }
    }
}

/// Answers OSRM API requests from a request target (`/route/v1/…?…`), independent of the HTTP
/// library: the responder only moves bytes. The body of a successful answer is the same JSON,
/// byte for byte, that `route-query route|table|nearest --compact` prints for the same query
/// (without the CLI's final newline): both encode the same typed value with the same writer.
public final class OSRMHandler: Sendable {
    public let limits: OSRMLimits
    /// Longer request targets get 414.
    public let maxURLBytes: Int
    /// One graph per traveller, chosen by the URL's profile (`ServedProfiles`).
    let profiles: ServedProfiles<WorkerPool>

    /// Serves `graphs`, at most one per travel mode (their headers say which).
    public init(graphs: [RoutingData], workers count: Int, limits: OSRMLimits = OSRMLimits(), maxURLBytes: Int = 65_536) throws {
        self.limits = limits
        self.maxURLBytes = maxURLBytes
        profiles = try ServedProfiles(graphs.map { ($0.file.travelMode, try WorkerPool(data: $0, count: count), $0.file.path) })
    }

    public convenience init(data: RoutingData, workers count: Int, limits: OSRMLimits = OSRMLimits(), maxURLBytes: Int = 65_536) throws {
        try self.init(graphs: [data], workers: count, limits: limits, maxURLBytes: maxURLBytes)
    }

    public func answer(method: String, target: String) -> OSRMAnswer {
        guard method == "GET" else {
            return failure(QueryFailure(code: "InvalidUrl", message: "Method \(method) not allowed: the API is GET only"), status: 405)
        }
        guard target.utf8.count <= maxURLBytes else {
            return failure(QueryFailure(code: "InvalidUrl", message: "URL longer than \(maxURLBytes) bytes"), status: 414)
        }
        if target == "/health" || target.hasPrefix("/health?") { return OSRMAnswer(status: 200, body: #"{"code":"Ok"}"#) }
        var served: RoutingData?
        do throws(QueryFailure) {
            let url = try OSRMURL(target: target.utf8)
            let workers = try profiles.graph(for: url.profile)
            served = workers.data
            let query = try OSRMQuery(url)
            try limits.check(query)
            let answer = try workers.with { worker throws(QueryFailure) in try worker.answer(query) }
            return damaged(served) ?? answer
        } catch {
            return damaged(served) ?? failure(error)
        }
    }

    /// A damaged block of the graph reads as empty, so an answer (or a NoRoute) after one may be
    /// wrong: the damage is answered instead.
    private func damaged(_ data: RoutingData?) -> OSRMAnswer? {
        guard let damage = data?.damage else { return nil }
        return failure(QueryFailure(code: "InternalError", message: "\(damage)"), status: 500)
    }

    func failure(_ f: QueryFailure, status: Int = 400) -> OSRMAnswer {
        OSRMAnswer(status: status, body: Self.compact(f))
    }

    /// The CLI's `--compact` encoding. Encoding a response cannot fail: every number in one is finite.
    static func compact<T: Encodable>(_ value: T) -> String {
        (try? JSONEncoding.string(value, pretty: false)) ?? #"{"code":"InternalError","message":"cannot encode the answer"}"#
    }
}

/// The search state one request at a time needs (the route service's searches and snapping
/// scratch, the table's buckets), made once per worker and reused: a request allocates only
/// its answer.
final class Worker {
    let route: RouteService
    let table: TableService
    let matcher: MapMatcher
    /// The graph's metrics without some roads (`exclude=`), shared by the pool's workers.
    let metrics: AvoidanceMetrics
    /// This worker's services on them, by what they avoid (as many as the metrics kept, used last).
    private var avoiding: [(key: Avoidance, route: RouteService)] = []

    init(data: RoutingData, metrics: AvoidanceMetrics) throws {
        route = try RouteService(data: data)
        table = TableService(service: route)
        matcher = try MapMatcher(data: data)
        self.metrics = metrics
    }

    /// The route service for an avoidance: the graph's own for none.
    func route(avoiding a: Avoidance) throws(QueryFailure) -> RouteService {
        if a.isEmpty { return route }
        if let i = avoiding.firstIndex(where: { $0.key == a }) {
            let hit = avoiding.remove(at: i)
            avoiding.append(hit)
            return hit.route
        }
        do {
            let made = try RouteService(data: route.data, avoiding: try metrics.metric(for: a))
            avoiding.append((a, made))
            while avoiding.count > metrics.keptLimit { avoiding.removeFirst() }
            return made
        } catch {
            throw QueryFailure(code: "InternalError", message: "cannot make the metric: \(error)")
        }
    }

    func answer(_ query: OSRMQuery) throws(QueryFailure) -> OSRMAnswer {
        switch query {
        case .route(let request):
            switch try route(avoiding: request.avoidance).route(request) {
            case .routes(let response):
                var body = JSONBuffer()
                response.writeJSON(to: &body)
                return OSRMAnswer(status: 200, bodyBytes: Array(body.bytes))
            case .featureCollection(let collection):
                return OSRMAnswer(status: 200, body: OSRMHandler.compact(collection))
            case .failure(let failure):
                throw failure
            }
        case .table(let t):
            let sources = (t.sources ?? Array(t.coordinates.indices)).map { t.coordinates[$0] }
            let destinations = (t.destinations ?? Array(t.coordinates.indices)).map { t.coordinates[$0] }
            let service = t.avoidance.isEmpty ? table : TableService(service: try route(avoiding: t.avoidance))
            let response = try service.table(sources: sources, destinations: destinations, durations: t.durations, distances: t.distances)
            return OSRMAnswer(status: 200, body: OSRMHandler.compact(response))
        case .match(let request):
            // The bytes `route-query match --compact` prints (without its newline).
            var body = JSONBuffer()
            try matcher.matchResponse(request).writeCompactJSON(to: &body)
            return OSRMAnswer(status: 200, bodyBytes: Array(body.bytes))
        case .nearest(let n):
            var request = NearestRequest(lon: n.coordinates[0].lon, lat: n.coordinates[0].lat)
            request.number = n.number
            request.radius = n.radiuses.first ?? nil
            request.bearing = n.bearings.first ?? nil
            return OSRMAnswer(status: 200, body: OSRMHandler.compact(try route(avoiding: n.avoidance).nearest(request)))
        }
    }
}

/// Workers for the requests in flight: as many as the server has threads, more made on demand
/// should more requests run at once (kept for later).
final class WorkerPool: @unchecked Sendable {
    let data: RoutingData
    private let lock = NSLock()
    private var free: [Worker]

    let metrics: AvoidanceMetrics

    init(data: RoutingData, count: Int) throws {
        self.data = data
        let shared = AvoidanceMetrics(data: data)
        metrics = shared
        free = try (0..<max(1, count)).map { _ in try Worker(data: data, metrics: shared) }
    }

    func with<T>(_ body: (Worker) throws(QueryFailure) -> T) throws(QueryFailure) -> T {
        lock.lock()
        let borrowed = free.popLast()
        lock.unlock()
        guard let worker = borrowed ?? (try? Worker(data: data, metrics: metrics)) else {
            throw QueryFailure(code: "InternalError", message: "cannot open the graph for another worker")
        }
        defer {
            lock.lock()
            free.append(worker)
            lock.unlock()
        }
        return try body(worker)
    }
}
