import RouteQuery

/// Reads the query part of an OSRM URL (`coordinates[.json][?key=value&…]`) byte by byte the way
/// osrm-routed's grammar does; the first byte it cannot take is where the query is malformed
/// (`InvalidQuery`, "Query string malformed close to position N", N counted from the URL start).
struct QueryScanner {
    let bytes: [UInt8]
    var i: Int

    init(_ url: OSRMURL) {
        bytes = url.bytes
        i = url.queryStart
    }

    var atEnd: Bool { i >= bytes.count }
    var peek: UInt8? { i < bytes.count ? bytes[i] : nil }

    func malformed() -> QueryFailure {
        QueryFailure(code: "InvalidQuery", message: "Query string malformed close to position \(i)")
    }

    mutating func expect(_ c: String) throws(QueryFailure) {
        guard take(c) else { throw malformed() }
    }

    mutating func take(_ word: String) -> Bool {
        let w = Array(word.utf8)
        guard i + w.count <= bytes.count, bytes[i..<(i + w.count)].elementsEqual(w) else { return false }
        i += w.count
        return true
    }

    /// A key up to `=` (letters and `_`), with the `=` consumed.
    mutating func key() throws(QueryFailure) -> String {
        let start = i
        while let c = peek, (c >= 0x61 && c <= 0x7A) || c == UInt8(ascii: "_") { i += 1 }
        let name = String(decoding: bytes[start..<i], as: UTF8.self)
        guard !name.isEmpty, take("=") else { i = start; throw malformed() }
        return name
    }

    /// A decimal number as Boost.Spirit's `double_` reads one (sign, digits, fraction,
    /// exponent); not finite (1e400) is malformed.
    mutating func double() throws(QueryFailure) -> Double {
        let start = i
        if peek == UInt8(ascii: "-") || peek == UInt8(ascii: "+") { i += 1 }
        var digits = skipDigits()
        if take(".") { digits += skipDigits() }
        guard digits > 0 else { i = start; throw malformed() }
        if let e = peek, e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
            let mark = i
            i += 1
            if peek == UInt8(ascii: "-") || peek == UInt8(ascii: "+") { i += 1 }
            if skipDigits() == 0 { i = mark }
        }
        guard let v = Double(String(decoding: bytes[start..<i], as: UTF8.self)), v.isFinite else { i = start; throw malformed() }
        return v
    }

    /// An unsigned integer that fits 32 bits (as OSRM's `uint_`).
    mutating func unsigned() throws(QueryFailure) -> Int {
        let start = i
        guard skipDigits() > 0, let v = UInt32(String(decoding: bytes[start..<i], as: UTF8.self)) else { i = start; throw malformed() }
        return Int(v)
    }

    /// A signed 16-bit integer (OSRM's `short_`, used for bearings).
    mutating func short() throws(QueryFailure) -> Int {
        let start = i
        if peek == UInt8(ascii: "-") || peek == UInt8(ascii: "+") { i += 1 }
        guard skipDigits() > 0, let v = Int16(String(decoding: bytes[start..<i], as: UTF8.self)) else { i = start; throw malformed() }
        return Int(v)
    }

    mutating func bool() throws(QueryFailure) -> Bool {
        if take("true") { return true }
        if take("false") { return false }
        throw malformed()
    }

    /// One of the words, longest first so `polyline6` is not read as `polyline`.
    mutating func word(_ words: [String]) throws(QueryFailure) -> String {
        for w in words.sorted(by: { $0.count > $1.count }) where take(w) { return w }
        throw malformed()
    }

    /// The bytes up to the next `&` or the end (a value this server ignores, e.g. hints).
    mutating func skipValue() {
        while let c = peek, c != UInt8(ascii: "&") { i += 1 }
    }

    /// Whether the value ended here (at `&` or the end of the URL).
    var atValueEnd: Bool { peek == nil || peek == UInt8(ascii: "&") }

    /// `item;item;…` where an item may be empty (nil), until the value ends.
    mutating func list<T>(_ item: (inout QueryScanner) throws(QueryFailure) -> T) throws(QueryFailure) -> [T?] {
        var out: [T?] = []
        repeat {
            if let c = peek, c != UInt8(ascii: ";") && c != UInt8(ascii: "&") {
                out.append(try item(&self))
            } else {
                out.append(nil)
            }
        } while take(";")
        return out
    }

    private mutating func skipDigits() -> Int {
        let start = i
        while let c = peek, c >= 0x30 && c <= 0x39 { i += 1 }
        return i - start
    }
}
