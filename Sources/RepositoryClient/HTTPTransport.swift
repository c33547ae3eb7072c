import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import OffgridCore

/// One request over the shared `HTTPClient`, with its failures sorted into retryable (5xx,
/// dropped connections, timeouts) and final (4xx, redirect loops, bodies over the cap).
struct HTTPTransport {
    let client: HTTPClient

    static func makeClient(_ options: FetchOptions) -> HTTPClient {
        var pool = HTTPClient.Configuration.ConnectionPool()
        pool.concurrentHTTP1ConnectionsPerHostSoftLimit = max(1, options.connections)
        pool.idleTimeout = .seconds(30)
        var configuration = HTTPClient.Configuration(
            redirectConfiguration: .follow(max: options.maxRedirects, allowCycles: false),
            timeout: .init(connect: .milliseconds(Int64(options.connectTimeout * 1000)),
                           read: .milliseconds(Int64(options.readTimeout * 1000))),
            decompression: .disabled)
        configuration.connectionPool = pool
        configuration.httpVersion = .http1Only
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    /// Sends a GET; the response head (the body is streamed by the caller).
    func get(_ url: String, headers: [(String, String)]) async throws -> HTTPClientResponse {
        var request = HTTPClientRequest(url: url)
        request.method = .GET
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        do {
            // Slow bodies are bounded by the read (idle) timeout, not by a total deadline: a large
            // object on a slow link is fine as long as bytes keep coming.
            return try await client.execute(request, deadline: .now() + .hours(24))
        } catch {
            throw Self.classify(error, url: url)
        }
    }

    /// A failure of the HTTP stack as a `FetchFailure` naming the URL.
    static func classify(_ error: Error, url: String) -> Error {
        if error is CancellationError || error is FetchFailure || error is InputError { return error }
        if let e = error as? HTTPClientError {
            switch e {
            case .redirectCycleDetected:
                return FetchFailure(url: url, message: "redirect loop; refused", retryable: false)
            case .redirectLimitReached:
                return FetchFailure(url: url, message: "too many redirects; refused", retryable: false)
            case .readTimeout, .deadlineExceeded:
                return FetchFailure(url: url, message: "timed out waiting for the server", retryable: true)
            case .connectTimeout:
                return FetchFailure(url: url, message: "timed out connecting", retryable: true)
            case .remoteConnectionClosed:
                return FetchFailure(url: url, message: "the server closed the connection early", retryable: true)
            case .cancelled:
                return CancellationError()
            default:
                return FetchFailure(url: url, message: "request failed: \(e)", retryable: true)
            }
        }
        return FetchFailure(url: url, message: "request failed: \(error)", retryable: true)
    }

    /// The failure for a status that is not the one wanted.
    static func statusFailure(_ status: HTTPResponseStatus, url: String) -> FetchFailure {
        FetchFailure(url: url, message: "HTTP \(status.code) \(status.reasonPhrase)", retryable: status.code >= 500)
    }

    /// Reads a whole (small) body, refusing more than `maxBytes`.
    static func readBody(_ response: HTTPClientResponse, url: String, maxBytes: Int) async throws -> [UInt8] {
        if let length = response.headers.first(name: "Content-Length").flatMap(Int.init), length > maxBytes {
            throw FetchFailure(url: url, message: "is \(length) bytes, over the limit of \(maxBytes); refused", retryable: false)
        }
        var bytes: [UInt8] = []
        do {
            for try await buffer in response.body {
                guard bytes.count + buffer.readableBytes <= maxBytes else {
                    throw FetchFailure(url: url, message: "is over the limit of \(maxBytes) bytes; refused", retryable: false)
                }
                buffer.withUnsafeReadableBytes { bytes.append(contentsOf: $0) }
            }
        } catch {
            throw classify(error, url: url)
        }
        if let length = response.headers.first(name: "Content-Length").flatMap(Int.init), length != bytes.count {
            throw FetchFailure(url: url, message: "the body ended after \(bytes.count) of \(length) bytes", retryable: true)
        }
        return bytes
    }
}
