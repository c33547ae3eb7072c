/// The server's URL paths, parsed from the raw (percent-encoded) request path without touching
/// the file system: names are only ever dictionary keys, so no path can reach a file the store
/// does not list.
enum ServerRoute: Equatable {
    /// `/tiles/{tileset}/{z}/{x}/{y}` (an extension on y such as `.pbf` or `.mvt` is accepted).
    case tile(tileset: String, z: Int, x: Int, y: Int)
    /// `/tiles/{tileset}.json`
    case tileJSON(tileset: String)
    /// `/styles/{id}/style.json`
    case style(id: String)
    /// `/styles/{id}/sprite{@Nx}.{json,png}` (sprite `default`) or
    /// `/styles/{id}/sprites/{sprite}/sprite{@Nx}.{json,png}`.
    case sprite(style: String, sprite: String, ratio: Int, json: Bool)
    /// `/fonts/{fontstack}/{start}-{end}.pbf`
    case glyphs(fontStack: String, start: Int)
    /// `/health`, `/` (an index of tilesets and styles).
    case health, index
    /// `/index.json`: the index as JSON whatever the client accepts; `/viewer`: the map page;
    /// `/viewer/{file}`: its script and style sheet (MapLibre GL JS); `/route/v1/…`: OSRM's
    /// route service, passed to `route-query serve` (`--routing`).
    case indexJSON, viewer
    case viewerAsset(String)
    case routing

    /// Longest path accepted (414 beyond).
    static let maxPathBytes = 4096

    enum Failure: Error, Equatable {
        case badRequest(String)
        case notFound(String)
        case tooLong
    }

    static func parse(_ raw: String) throws -> ServerRoute {
        guard raw.utf8.count <= maxPathBytes else { throw Failure.tooLong }
        var path = Substring(raw)
        if let q = path.firstIndex(where: { $0 == "?" || $0 == "#" }) { path = path[..<q] }
        guard path.first == "/" else { throw Failure.badRequest("the path must start with /") }
        let rawSegments = path.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
        var segments: [String] = []
        segments.reserveCapacity(rawSegments.count)
        for s in rawSegments {
            guard let decoded = percentDecode(s) else { throw Failure.badRequest("bad percent-encoding or UTF-8 in the path") }
            segments.append(decoded)
        }
        if segments == [""] { return .index }
        switch segments.first {
        case "health" where segments.count == 1:
            return .health
        case "index.json" where segments.count == 1:
            return .indexJSON
        case "viewer" where segments.count == 1:
            return .viewer
        case "viewer" where segments.count == 2:
            return .viewerAsset(segments[1])
        case "route" where segments.count == 4 && segments[1] == "v1":
            return .routing
        case "tiles":
            if segments.count == 2, segments[1].hasSuffix(".json"), segments[1].count > 5 {
                return .tileJSON(tileset: String(segments[1].dropLast(5)))
            }
            guard segments.count == 5 else { throw Failure.notFound("tile paths are /tiles/{tileset}/{z}/{x}/{y}") }
            var last = Substring(segments[4])
            if let dot = last.firstIndex(of: "."), last.distance(from: dot, to: last.endIndex) <= 6 { last = last[..<dot] }
            guard let z = number(Substring(segments[2])), let x = number(Substring(segments[3])), let y = number(last) else {
                throw Failure.badRequest("tile coordinates must be decimal numbers")
            }
            guard z <= 30, x < (1 << z), y < (1 << z) else {
                throw Failure.badRequest("tile \(z)/\(x)/\(y) does not exist (zoom at most 30, x and y below 2^zoom)")
            }
            return .tile(tileset: segments[1], z: z, x: x, y: y)
        case "styles":
            if segments.count == 3, segments[2] == "style.json" { return .style(id: segments[1]) }
            if segments.count == 3, let (ratio, json) = spriteFile(segments[2]) {
                return .sprite(style: segments[1], sprite: "default", ratio: ratio, json: json)
            }
            if segments.count == 5, segments[2] == "sprites", let (ratio, json) = spriteFile(segments[4]) {
                return .sprite(style: segments[1], sprite: segments[3], ratio: ratio, json: json)
            }
            throw Failure.notFound("style paths are /styles/{id}/style.json and /styles/{id}/sprite{@2x}.{json,png}")
        case "fonts":
            guard segments.count == 3, segments[2].hasSuffix(".pbf") else {
                throw Failure.notFound("glyph paths are /fonts/{fontstack}/{start}-{end}.pbf")
            }
            let range = segments[2].dropLast(4).split(separator: "-", omittingEmptySubsequences: false)
            guard range.count == 2, let start = number(range[0]), let end = number(range[1]),
                  start % 256 == 0, end == start + 255, start <= 65280 else {
                throw Failure.badRequest("glyph range must be {start}-{start+255}.pbf with start a multiple of 256 up to 65280")
            }
            guard !segments[1].isEmpty else { throw Failure.badRequest("empty font stack") }
            return .glyphs(fontStack: segments[1], start: start)
        default:
            throw Failure.notFound("no such path (see /tiles/{tileset}.json, /styles/{id}/style.json, /fonts/…)")
        }
    }

    /// `sprite.json`, `sprite@2x.png`, … → (ratio, isJSON).
    static func spriteFile(_ name: String) -> (Int, Bool)? {
        guard name.hasPrefix("sprite") else { return nil }
        var rest = name.dropFirst(6)
        let json: Bool
        if rest.hasSuffix(".json") { json = true; rest = rest.dropLast(5) } else if rest.hasSuffix(".png") { json = false; rest = rest.dropLast(4) } else { return nil }
        if rest.isEmpty { return (1, json) }
        guard rest.hasPrefix("@"), rest.hasSuffix("x"), let r = number(rest.dropFirst().dropLast()), (1...4).contains(r) else { return nil }
        return (r, json)
    }

    /// A decimal number of at most 10 digits.
    @inline(__always)
    static func number(_ s: Substring) -> Int? {
        guard !s.isEmpty, s.utf8.count <= 10 else { return nil }
        var v = 0
        for b in s.utf8 {
            guard b >= 48 && b <= 57 else { return nil }
            v = v * 10 + Int(b - 48)
        }
        return v
    }

    /// Percent-decodes one segment; nil for a bad escape, invalid UTF-8 or a NUL.
    static func percentDecode(_ s: Substring) -> String? {
        guard s.utf8.contains(UInt8(ascii: "%")) else { return s.utf8.contains(0) ? nil : String(s) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(s.utf8.count)
        var it = s.utf8.makeIterator()
        func hex(_ b: UInt8?) -> UInt8? {
            guard let b else { return nil }
            switch b {
            case 48...57: return b - 48
            case 65...70: return b - 55
            case 97...102: return b - 87
            default: return nil
            }
        }
        while let b = it.next() {
            if b == UInt8(ascii: "%") {
                guard let h = hex(it.next()), let l = hex(it.next()) else { return nil }
                bytes.append(h << 4 | l)
            } else {
                bytes.append(b)
            }
        }
        guard !bytes.contains(0), let text = String(validating: bytes, as: UTF8.self) else { return nil }
        return text
    }

    /// Percent-encodes a name for a URL path segment (unreserved characters stay).
    static func percentEncode(_ s: String) -> String {
        var out = ""
        for b in s.utf8 {
            switch b {
            case 48...57, 65...90, 97...122, UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(b))
            default:
                out += "%" + String(b >> 4, radix: 16, uppercase: true) + String(b & 15, radix: 16, uppercase: true)
            }
        }
        return out
    }
}
