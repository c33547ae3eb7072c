import RouteQuery

/// The parts of an OSRM API v1 URL, `/{service}/v{version}/{profile}/{query}`, with the query
/// (coordinates, optional `.json`, `?options`) still as bytes. The whole target is
/// percent-decoded first, as osrm-routed does; then every byte must be one OSRM's URL grammar
/// allows, or the request is `InvalidUrl`.
struct OSRMURL {
    var service: String
    var version: Int
    var profile: String
    /// The decoded target, and where its query part starts.
    var bytes: [UInt8]
    var queryStart: Int

    /// Parses a raw request target. Throws InvalidUrl, InvalidService or InvalidVersion as
    /// osrm-routed answers them.
    init(target raw: some Collection<UInt8>) throws(QueryFailure) {
        let bytes = Self.percentDecoded(raw)
        self.bytes = bytes
        var i = 0
        func fail() -> QueryFailure {
            let lo = max(0, i - 3), hi = min(bytes.count, i + 3)
            let context = String(decoding: bytes[lo..<hi], as: UTF8.self)
            return QueryFailure(code: "InvalidUrl", message: "URL string malformed close to position \(i): \"\(context)\"")
        }
        func expect(_ c: UInt8) throws(QueryFailure) {
            guard i < bytes.count, bytes[i] == c else { throw fail() }
            i += 1
        }
        func run(_ allowed: (UInt8) -> Bool) throws(QueryFailure) -> Substring {
            let start = i
            while i < bytes.count, allowed(bytes[i]) { i += 1 }
            guard i > start else { throw fail() }
            return Substring(decoding: bytes[start..<i], as: UTF8.self)
        }
        try expect(UInt8(ascii: "/"))
        let service = try run(isAlphanumeric)
        try expect(UInt8(ascii: "/"))
        try expect(UInt8(ascii: "v"))
        let versionText = try run { $0 >= 0x30 && $0 <= 0x39 }
        try expect(UInt8(ascii: "/"))
        let profile = try run(isIdentifier)
        try expect(UInt8(ascii: "/"))
        queryStart = i
        // Mapbox's `exclude=point(lon lat)` holds a space (`%20` or `+`), which nothing else may.
        var inPoint = false
        _ = try run { c in
            if isQueryByte(c) {
                if c == UInt8(ascii: "(") { inPoint = i >= 5 && bytes[(i - 5)..<i].elementsEqual("point".utf8) }
                if c == UInt8(ascii: ")") { inPoint = false }
                return true
            }
            return inPoint && (c == UInt8(ascii: " ") || c == UInt8(ascii: "+"))
        }
        guard i == bytes.count else { throw fail() }
        self.service = String(service)
        self.profile = String(profile)
        // A version too long for an Int is no version osrm-routed serves either.
        version = Int(versionText) ?? -1
        guard ["route", "table", "nearest", "match"].contains(self.service) else {
            let known = ["trip", "tile"].contains(self.service)
            throw QueryFailure(code: "InvalidService", message: known ? "Service \(service) is not supported by this server"
                                                                    : "Service \(service) not found!")
        }
        guard version == 1 else { throw QueryFailure(code: "InvalidVersion", message: "Service \(service) not found!") }
    }

    /// `%XX` → the byte; anything else as is (a `%` without two hex digits stays, and fails later).
    static func percentDecoded(_ raw: some Collection<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(raw.count)
        var it = Array(raw)[...]
        while let c = it.popFirst() {
            if c == UInt8(ascii: "%"), it.count >= 2, let h = hexValue(it[it.startIndex]), let l = hexValue(it[it.startIndex + 1]) {
                out.append(h << 4 | l)
                it = it.dropFirst(2)
            } else {
                out.append(c)
            }
        }
        return out
    }

    static func hexValue(_ c: UInt8) -> UInt8? {
        switch c {
        case 0x30...0x39: return c - 0x30
        case 0x41...0x46: return c - 0x41 + 10
        case 0x61...0x66: return c - 0x61 + 10
        default: return nil
        }
    }
}

@inline(__always) func isAlphanumeric(_ c: UInt8) -> Bool {
    (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A)
}

/// A profile name: `[a-zA-Z0-9_.~:-]`.
@inline(__always) func isIdentifier(_ c: UInt8) -> Bool {
    isAlphanumeric(c) || "_.~:-".utf8.contains(c)
}

/// Query bytes OSRM's grammar accepts: polyline characters and `=,;:&().-`.
@inline(__always) func isQueryByte(_ c: UInt8) -> Bool {
    isAlphanumeric(c) || "_[]{}@?|\\~`^=,;:&().-".utf8.contains(c)
}
