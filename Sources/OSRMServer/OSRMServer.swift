import Foundation
import Hummingbird
import Logging
import NIOCore
import NIOPosix
import RouteQuery

/// `route-query serve`: OSRM's HTTP API v1 over mapped graphs (one per traveller: the URL's
/// profile chooses), on Hummingbird 2.
///
/// Each graph is mapped once (`RoutingData`) and shared read-only by its workers; each worker
/// owns its search state. SIGTERM (or SIGINT) starts a graceful shutdown: the listener closes,
/// requests in flight are answered, idle connections are closed, and `run` returns.
public struct OSRMServer {
    public struct Configuration: Sendable {
        public var host = "127.0.0.1"
        /// 0 for an ephemeral port (printed once listening).
        public var port = 5000
        public var threads = 2
        public var limits = OSRMLimits()
        /// A connection silent this long is closed (slow or stalled clients).
        public var idleTimeoutSeconds = 30
        public var maxURLBytes = 65_536

        public init() {}
    }

    public let graphs: [RoutingData]
    public let configuration: Configuration

    public init(graphs: [RoutingData], configuration: Configuration) {
        self.graphs = graphs
        self.configuration = configuration
    }

    public init(data: RoutingData, configuration: Configuration) {
        self.init(graphs: [data], configuration: configuration)
    }

    /// Serves until SIGTERM/SIGINT; calls `listening` with the bound address once accepting.
    public func run(listening: @escaping @Sendable (String, Int) -> Void) async throws {
        let handler = try OSRMHandler(graphs: graphs, workers: configuration.threads, limits: configuration.limits,
                                      maxURLBytes: configuration.maxURLBytes)
        var logger = Logger(label: "route-query-serve", factory: { StreamLogHandler.standardError(label: $0) })
        logger.logLevel = .warning
        let group = MultiThreadedEventLoopGroup(numberOfThreads: configuration.threads)
        let app = Application(
            responder: OSRMResponder(handler: handler),
            server: .http1(configuration: .init(idleTimeout: .seconds(Int64(configuration.idleTimeoutSeconds)))),
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "offgrid-route-query"),
            onServerRunning: { channel in
                let address = channel.localAddress
                listening(address?.ipAddress ?? "?", address?.port ?? 0)
            },
            eventLoopGroupProvider: .shared(group),
            logger: logger)
        try await app.runService(gracefulShutdownSignals: [.sigterm, .sigint])
        try await group.shutdownGracefully()
    }

    /// `run` for a synchronous caller (the CLI): blocks until the server has stopped.
    public func runBlocking(listening: @escaping @Sendable (String, Int) -> Void) throws {
        let outcome = ResultBox()
        let done = DispatchSemaphore(value: 0)
        Task {
            do { try await run(listening: listening) } catch { outcome.error = error }
            done.signal()
        }
        done.wait()
        if let error = outcome.error { throw error }
    }

    private final class ResultBox: @unchecked Sendable { var error: Error? }
}

/// Moves bytes between Hummingbird and the handler.
struct OSRMResponder: HTTPResponder {
    typealias Context = BasicRequestContext
    let handler: OSRMHandler

    func respond(to request: Request, context: Context) async throws -> Response {
        let answer = handler.answer(method: request.method.rawValue, target: request.head.path ?? "")
        var headers = HTTPFields()
        headers[.contentType] = "application/json; charset=UTF-8"
        var buffer = ByteBuffer()
        answer.write(to: &buffer)
        return Response(status: .init(code: answer.status), headers: headers, body: .init(byteBuffer: buffer))
    }
}

extension OSRMAnswer {
    /// The body's bytes, without a detour through a `String` when it was rendered as bytes.
    func write(to buffer: inout ByteBuffer) {
        switch content {
        case .text(let text): buffer.writeString(text)
        case .bytes(let bytes): buffer.writeBytes(bytes)
        }
    }
}
