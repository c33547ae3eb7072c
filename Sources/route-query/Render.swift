import OffgridCore
import RouteQuery

/// The only place route-query turns results into JSON text: the exact writer (sorted keys,
/// shortest numbers), pretty for one response, compact for NDJSON lines.
enum Render {
    /// One response on stdout, pretty (or compact: what the server answers), followed by a newline;
    /// nothing but the error when `data`'s searches met a damaged block (`RoutingData.damage`).
    static func print<T: Encodable>(_ value: T, of data: RoutingData? = nil, compact: Bool = false) throws {
        try data?.throwIfDamaged()
        var bytes = try JSONEncoding.bytes(value, pretty: !compact)
        bytes.append(0x0A)
        StdIO.out(bytes)
    }

    /// One NDJSON line (without its newline). Encoding a response cannot fail: every number in
    /// one is finite, so a failure is a programming error.
    static func line<T: Encodable>(_ value: T) -> String {
        do { return try JSONEncoding.string(value, pretty: false) } catch { fatalError("route-query: cannot encode \(T.self): \(error)") }
    }
}
