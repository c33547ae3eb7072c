import Foundation
import Hummingbird
import OffgridCore
import TileMath

/// Answers every request from the current `StoreSnapshot`. Status codes (docs/CLI.md, "serve"):
/// 200 with the bytes; 204 for a tile no pack holds (or an empty stored tile) inside a held
/// region's cover and zooms; 304 when `If-None-Match` names the current ETag; 400 for a malformed
/// path (bad escapes, non-numeric or out-of-range tile coordinates, bad glyph ranges); 404 for
/// anything the store does not hold; 405 for methods other than GET and HEAD; 414 for paths over
/// 4 KiB; 500 when a stored file cannot be read (the message names it; the server keeps serving).
struct TileResponder: HTTPResponder {
    typealias Context = BasicRequestContext
    let server: TileServer

    func respond(to request: Request, context: Context) async throws -> Response {
        let head = request.method == .head
        guard request.method == .get || head else {
            return Self.text(.methodNotAllowed, "only GET and HEAD\n", extra: [.allow: "GET, HEAD"])
        }
        let snapshot = server.current()
        let response: Response
        do {
            if let (t, z, x, y) = Self.fastTile(request.uri.path, snapshot) {
                response = server.onDemand == nil ? try tile(snapshot, t, z, x, y, request) : try await onDemandTile(snapshot, t.name, z, x, y, request)
                return head ? Self.stripBody(response) : response
            }
            switch try ServerRoute.parse(request.uri.path) {
            case .tile(let name, let z, let x, let y):
                if server.onDemand != nil {
                    response = try await onDemandTile(snapshot, name, z, x, y, request)
                    break
                }
                guard let t = snapshot.tilesets[name] else { return Self.text(.notFound, "no tileset \"\(name)\" in the store\n") }
                response = try tile(snapshot, t, z, x, y, request)
            case .tileJSON(let name):
                guard let t = snapshot.tilesets[name] else { return Self.text(.notFound, "no tileset \"\(name)\" in the store\n") }
                response = json(ServerDocuments.tileJSON(t, base: base(request)), request, cache: Self.cacheControl(t.expiresAt, now: server.now()))
            case .style(let id):
                guard let s = snapshot.styles[id] else { return Self.text(.notFound, "no style \"\(id)\" in the store\n") }
                let doc = try ServerDocuments.style(try Self.read(s.style.file), style: s, snapshot: snapshot, base: base(request))
                response = json(doc, request, cache: "public, max-age=3600")
            case .sprite(let id, let sprite, let ratio, let isJSON):
                guard let s = snapshot.styles[id] else { return Self.text(.notFound, "no style \"\(id)\" in the store\n") }
                guard let r = s.sprites["\(sprite)|\(ratio)|\(isJSON ? "json" : "png")"] else {
                    return Self.text(.notFound, "style \"\(id)\" has no sprite \"\(sprite)\" at pixel ratio \(ratio)\n")
                }
                response = try resource(r, type: isJSON ? "application/json" : "image/png", request)
            case .glyphs(let stack, let start):
                guard let r = Self.glyphs(snapshot, stack: stack, start: start) else {
                    return Self.text(.notFound, "no font of \"\(stack)\" has glyph range \(start)-\(start + 255)\n")
                }
                response = try resource(r, type: "application/x-protobuf", request)
            case .health:
                response = Self.text(.ok, "ok\n")
            case .index where Self.acceptsHTML(request):
                response = Self.html(ViewerPage.html(hasAssets: server.viewer.assets != nil))
            case .index, .indexJSON:
                response = json(server.indexDocument(snapshot, base: base(request)), request, cache: "no-cache")
            case .viewer:
                response = Self.html(ViewerPage.html(hasAssets: server.viewer.assets != nil))
            case .viewerAsset(let name):
                guard let (file, type) = server.viewer.asset(name) else {
                    return Self.text(.notFound, server.viewer.assets == nil
                        ? "no MapLibre GL JS files: start the server with --viewer-assets DIR (or OFFGRID_MAPLIBRE_DIR)\n"
                        : "no viewer file \"\(name)\"\n")
                }
                response = Response(status: .ok, headers: [.contentType: type, .cacheControl: "public, max-age=3600"],
                                    body: ResponseBody(byteBuffer: ByteBuffer(bytes: try FileTools.readFile(file, maxBytes: 64 << 20))))
            case .routing:
                guard let routing = server.routing else {
                    return Self.text(.notFound, "no routing server: start tilestore serve with --routing URL (route-query serve)\n")
                }
                let query = request.uri.query.map { "?" + $0 } ?? ""
                let (status, type, body) = try await routing.get(request.uri.path + query)
                response = Response(status: .init(code: status), headers: [.contentType: type, .cacheControl: "no-store"],
                                    body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
            }
        } catch let failure as ServerRoute.Failure {
            switch failure {
            case .badRequest(let m): return Self.text(.badRequest, m + "\n")
            case .notFound(let m): return Self.text(.notFound, m + "\n")
            case .tooLong: return Self.text(.uriTooLong, "path longer than \(ServerRoute.maxPathBytes) bytes\n")
            }
        } catch {
            server.log("error: \(error)")
            return Self.text(.internalServerError, "\(error)\n")
        }
        return head ? Self.stripBody(response) : response
    }

    /// HEAD: GET's headers, `Content-Length` included, without the body.
    static func stripBody(_ response: Response) -> Response {
        var stripped = response
        let length = response.body.contentLength ?? 0
        stripped.body = ResponseBody()
        stripped.headers[.contentLength] = String(length)
        return stripped
    }

    /// `/tiles/{name}/{z}/{x}/{y}[.ext]` with the name encoded exactly as the TileJSON template
    /// writes it (what a client following the template sends), matched on the raw bytes without
    /// splitting, decoding or allocating. Anything else (other encodings, bad numbers, queries)
    /// returns nil and goes through `ServerRoute.parse`, which answers it or says what is wrong.
    static func fastTile(_ path: String, _ s: StoreSnapshot) -> (StoreSnapshot.Tileset, Int, Int, Int)? {
        var utf8 = Substring(path).utf8
        guard utf8.starts(with: "/tiles/".utf8) else { return nil }
        utf8 = utf8.dropFirst(7)
        for (encoded, t) in s.encodedTilesets where utf8.starts(with: encoded.utf8) {
            var rest = utf8.dropFirst(encoded.utf8.count)
            guard rest.first == UInt8(ascii: "/") else { continue }
            rest = rest.dropFirst()
            var numbers = (0, 0, 0), k = 0, digits = 0, value = 0, ended = false
            for b in rest {
                if ended { if b == UInt8(ascii: "/") || b == UInt8(ascii: "?") || b == UInt8(ascii: "%") { return nil }; continue }
                if b >= 48 && b <= 57 {
                    digits += 1
                    guard digits <= 10 else { return nil }
                    value = value * 10 + Int(b - 48)
                } else if b == UInt8(ascii: "/") && k < 2 && digits > 0 {
                    if k == 0 { numbers.0 = value } else { numbers.1 = value }
                    k += 1; digits = 0; value = 0
                } else if b == UInt8(ascii: ".") && k == 2 && digits > 0 {
                    ended = true
                } else {
                    return nil
                }
            }
            guard k == 2, digits > 0 else { return nil }
            numbers.2 = value
            let (z, x, y) = numbers
            guard z <= 30, x < (1 << z), y < (1 << z) else { return nil }
            return (t, z, x, y)
        }
        return nil
    }

    // MARK: - Tiles (the fast path)

    /// `serve --repository`: the pack holding the tile is fetched (or refreshed) first when the
    /// store lacks it (or holds an outdated one); an outdated pack that cannot be refreshed is
    /// served as it is, its expiry in Cache-Control.
    private func onDemandTile(_ snapshot: StoreSnapshot, _ name: String, _ z: Int, _ x: Int, _ y: Int, _ request: Request) async throws -> Response {
        switch await server.onDemand!.prepare(name: name, z: z, x: x, y: y, snapshot: snapshot) {
        case .serve(let s, let stale):
            guard let t = s.tilesets[name] else { return Self.text(.notFound, "no tileset \"\(name)\" in the store or the repository\n") }
            return try tile(s, t, z, x, y, request, stale: stale)
        case .empty:
            let cache = Self.cacheControl(snapshot.tilesets[name]?.expiresAt, now: server.now())
            return Response(status: .noContent, headers: [.accessControlAllowOrigin: "*", .cacheControl: cache])
        case .failed(let message):
            return Self.text(.badGateway, "tile \(z)/\(x)/\(y) of \"\(name)\": its pack could not be fetched: \(message)\n")
        }
    }

    private func tile(_ snapshot: StoreSnapshot, _ t: StoreSnapshot.Tileset, _ z: Int, _ x: Int, _ y: Int, _ request: Request,
                      stale: Bool = false) throws -> Response {
        let name = t.name
        guard let at = t.index.locate(z: z, x: x, y: y) else {
            if z >= t.minZoom, z <= t.maxZoom, snapshot.isInCover(t, z: z, x: x, y: y) {
                return Response(status: .noContent, headers: [.accessControlAllowOrigin: "*", .cacheControl: Self.cacheControl(t.expiresAt, now: server.now())])
            }
            return Self.text(.notFound, "tile \(z)/\(x)/\(y) is outside what the store holds of \"\(name)\"\n")
        }
        // A stale pack (outdated, the repository out of reach) says so and keeps only its own expiry.
        let cache = stale && t.expiresAt == nil ? "no-cache" : Self.cacheControl(t.expiresAt, now: server.now())
        guard at.length > 0 else {
            return Response(status: .noContent, headers: [.accessControlAllowOrigin: "*", .cacheControl: cache])
        }
        let etag = "\"\(at.pack.tag)-\(String(at.crc32, radix: 16))\""
        if Self.matches(request.headers[.ifNoneMatch], etag) {
            return Response(status: .notModified, headers: [.eTag: etag, .cacheControl: cache, .accessControlAllowOrigin: "*"])
        }
        var buffer = ByteBufferAllocator().buffer(capacity: at.length)
        try buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: at.length) { raw in
            try at.read(into: UnsafeMutableRawBufferPointer(rebasing: raw[0..<at.length]))
            return at.length
        }
        var headers: HTTPFields = [.contentType: Self.contentType(t.index.tileType), .eTag: etag, .cacheControl: cache,
                                   .accessControlAllowOrigin: "*"]
        switch t.index.compression {
        case .gzip: headers[.contentEncoding] = "gzip"
        case .brotli: headers[.contentEncoding] = "br"
        case .zstd: headers[.contentEncoding] = "zstd"
        default: break
        }
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: buffer))
    }

    static func contentType(_ type: TileType) -> String {
        switch type {
        case .mvt: return "application/vnd.mapbox-vector-tile"
        case .png: return "image/png"
        case .jpeg: return "image/jpeg"
        case .webp: return "image/webp"
        case .avif: return "image/avif"
        case .mlt: return "application/vnd.maplibre-vector-tile"
        case .unknown: return "application/octet-stream"
        }
    }

    /// `public, max-age=N` until the earliest expiry of the regions holding the tiles (a day
    /// at most, a day when none expires); `no-cache` once expired.
    static func cacheControl(_ expiresAt: Int64?, now: Int64) -> String {
        guard let expiresAt else { return "public, max-age=86400" }
        let left = expiresAt - now
        return left <= 0 ? "no-cache" : "public, max-age=\(min(left, 86400))"
    }

    static func matches(_ header: String?, _ etag: String) -> Bool {
        guard let header else { return false }
        if header.trimmingCharacters(in: .whitespaces) == "*" { return true }
        return header.split(separator: ",").contains { part in
            var p = part.trimmingCharacters(in: .whitespaces)
            if p.hasPrefix("W/") { p.removeFirst(2) }
            return p == etag
        }
    }

    // MARK: - Styles, sprites, glyphs, documents

    static func glyphs(_ snapshot: StoreSnapshot, stack: String, start: Int) -> StoreSnapshot.Resource? {
        if let exact = snapshot.fonts[stack]?[start] { return exact }
        for font in stack.split(separator: ",") {
            let name = font.trimmingCharacters(in: .whitespaces)
            if let r = snapshot.fonts[name]?[start] { return r }
        }
        return nil
    }

    static func read(_ file: String) throws -> [UInt8] {
        try FileTools.readFile(file, maxBytes: 256 << 20)
    }

    private func resource(_ r: StoreSnapshot.Resource, type: String, _ request: Request) throws -> Response {
        let etag = "\"\(r.sha256.prefix(32))\""
        let cache = "public, max-age=86400"
        if Self.matches(request.headers[.ifNoneMatch], etag) {
            return Response(status: .notModified, headers: [.eTag: etag, .cacheControl: cache, .accessControlAllowOrigin: "*"])
        }
        let bytes = try Self.read(r.file)
        return Response(status: .ok, headers: [.contentType: type, .eTag: etag, .cacheControl: cache, .accessControlAllowOrigin: "*"],
                        body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    private func json(_ value: JSONValue, _ request: Request, cache: String) -> Response {
        let bytes = Array(JSONWriter.string(value, pretty: false).utf8)
        let etag = "\"\(SHA256.hex(SHA256.hash(bytes)).prefix(32))\""
        if Self.matches(request.headers[.ifNoneMatch], etag) {
            return Response(status: .notModified, headers: [.eTag: etag, .cacheControl: cache, .accessControlAllowOrigin: "*"])
        }
        return Response(status: .ok, headers: [.contentType: "application/json", .eTag: etag, .cacheControl: cache,
                                               .accessControlAllowOrigin: "*"],
                        body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    /// `http://` + the request's Host when it is a plain host[:port], else the address listened on.
    private func base(_ request: Request) -> String {
        if let host = request.head.authority, !host.isEmpty, host.utf8.count <= 255,
           host.utf8.allSatisfy({ b in (b >= 48 && b <= 58) || (b >= 65 && b <= 90) || (b >= 97 && b <= 122) || b == 45 || b == 46 || b == 91 || b == 93 }) {
            return "http://\(host)"
        }
        return "http://\(server.listeningAddress())"
    }

    static func acceptsHTML(_ request: Request) -> Bool {
        request.headers[.accept]?.contains("text/html") ?? false
    }

    static func html(_ page: String) -> Response {
        Response(status: .ok, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-cache"],
                 body: ResponseBody(byteBuffer: ByteBuffer(string: page)))
    }

    static func text(_ status: HTTPResponse.Status, _ message: String, extra: HTTPFields = [:]) -> Response {
        var headers: HTTPFields = [.contentType: "text/plain; charset=utf-8", .accessControlAllowOrigin: "*"]
        headers.append(contentsOf: extra)
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: message)))
    }
}
