import AsyncHTTPClient
import Foundation
import NIOCore
import OffgridCore

/// Passes the viewer's `/route/v1/…` requests to `route-query serve` (its OSRM API), so the page
/// talks to one origin; `route-query serve` itself sends no CORS headers. One shared HTTP client.
final class RoutingProxy: @unchecked Sendable {
    let base: String
    private let client = HTTPClient(eventLoopGroupProvider: .singleton,
                                    configuration: .init(timeout: .init(connect: .seconds(5), read: .seconds(30))))

    init(base: String) {
        var b = base
        while b.hasSuffix("/") { b.removeLast() }
        self.base = b
    }

    /// GET `pathAndQuery` from the routing server: status, content type, body (at most 32 MiB).
    func get(_ pathAndQuery: String) async throws -> (Int, String, [UInt8]) {
        let request = HTTPClientRequest(url: base + pathAndQuery)
        do {
            let response = try await client.execute(request, timeout: .seconds(60))
            let body = try await response.body.collect(upTo: 32 << 20)
            return (Int(response.status.code), response.headers.first(name: "Content-Type") ?? "application/json", Array(buffer: body))
        } catch {
            return (502, "text/plain; charset=utf-8", Array("the routing server \(base) did not answer: \(error)\n".utf8))
        }
    }

    func shutdown() async { try? await client.shutdown() }
}
