#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// UTC timestamps as `yyyy-MM-ddTHH:mm:ssZ`, independent of locale and time zone, and the one
/// parser of the dates manifests and tilesets give.
public enum ISO8601 {
    public static func string(_ secondsSinceEpoch: Int64) -> String {
        let (y, mo, d, h, mi, s) = components(secondsSinceEpoch)
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        return "\(y)-\(two(mo))-\(two(d))T\(two(h)):\(two(mi)):\(two(s))Z"
    }

    /// `yyyy-MM-dd` of a timestamp.
    public static func date(_ secondsSinceEpoch: Int64) -> String {
        String(string(secondsSinceEpoch).prefix(10))
    }

    static func components(_ t: Int64) -> (Int, Int, Int, Int, Int, Int) {
        var time = time_t(t)
        var tm = tm()
        gmtime_r(&time, &tm)
        return (Int(tm.tm_year) + 1900, Int(tm.tm_mon) + 1, Int(tm.tm_mday), Int(tm.tm_hour), Int(tm.tm_min), Int(tm.tm_sec))
    }

    /// Seconds since 1970 (rounded down) of an ISO 8601 date-time (`2025-06-01T00:00:00Z`, with
    /// fractional seconds or a `±hh:mm` offset), a plain date (`2025-06-01`, midnight UTC), an
    /// HTTP date (`Sun, 01 Jun 2025 00:00:00 GMT`) or a number of seconds; nil for anything else.
    public static func parse(_ text: String) -> Int64? {
        let t = text.trimmingWhitespace
        if let n = Double(t), n.isFinite, abs(n) < 1e15 { return Int64(n.rounded(.down)) }
        return parseDateTime(Array(t.utf8)) ?? parseHTTPDate(t)
    }

    private static func parseDateTime(_ b: [UInt8]) -> Int64? {
        var i = 0
        func digits(_ n: Int) -> Int? {
            guard i + n <= b.count else { return nil }
            var v = 0
            for k in i..<(i + n) {
                guard b[k] >= 0x30, b[k] <= 0x39 else { return nil }
                v = v * 10 + Int(b[k] - 0x30)
            }
            i += n
            return v
        }
        func expect(_ c: Character) -> Bool {
            guard i < b.count, b[i] == c.asciiValue! else { return false }
            i += 1
            return true
        }
        guard let y = digits(4), expect("-"), let mo = digits(2), expect("-"), let d = digits(2) else { return nil }
        var h = 0, mi = 0, s = 0, offset = 0
        if i < b.count {
            guard expect("T") || expect("t") || expect(" "), let hh = digits(2), expect(":"), let mm = digits(2),
                  expect(":"), let ss = digits(2) else { return nil }
            (h, mi, s) = (hh, mm, ss)
            if expect(".") {
                let start = i
                while i < b.count, b[i] >= 0x30, b[i] <= 0x39 { i += 1 }
                guard i > start else { return nil }
            }
            if expect("Z") || expect("z") {
            } else if i < b.count, b[i] == 0x2B || b[i] == 0x2D {
                let sign = b[i] == 0x2D ? -1 : 1
                i += 1
                guard let oh = digits(2), expect(":"), let om = digits(2), oh < 24, om < 60 else { return nil }
                offset = sign * (oh * 3600 + om * 60)
            } else {
                return nil
            }
            guard i == b.count else { return nil }
        }
        guard (1...12).contains(mo), (1...31).contains(d), h < 24, mi < 60, s < 61 else { return nil }
        return utcSeconds(y, mo, d, h, mi, s).map { $0 - Int64(offset) }
    }

    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// RFC 7231 IMF-fixdate: `Sun, 01 Jun 2025 00:00:00 GMT`.
    private static func parseHTTPDate(_ t: String) -> Int64? {
        let parts = t.split(separator: " ")
        guard parts.count == 6, parts[0].count == 4, parts[0].hasSuffix(","), parts[5] == "GMT",
              let d = Int(parts[1]), let mo = months.firstIndex(of: String(parts[2])), let y = Int(parts[3]) else { return nil }
        let hms = parts[4].split(separator: ":")
        guard hms.count == 3, let h = Int(hms[0]), let mi = Int(hms[1]), let s = Int(hms[2]),
              (1...31).contains(d), h < 24, mi < 60, s < 61 else { return nil }
        return utcSeconds(y, mo + 1, d, h, mi, s)
    }

    /// Seconds since 1970 of a UTC calendar time; nil for a day the month does not have.
    private static func utcSeconds(_ y: Int, _ mo: Int, _ d: Int, _ h: Int, _ mi: Int, _ s: Int) -> Int64? {
        var tm = tm()
        tm.tm_year = Int32(y - 1900)
        tm.tm_mon = Int32(mo - 1)
        tm.tm_mday = Int32(d)
        tm.tm_hour = Int32(h)
        tm.tm_min = Int32(mi)
        tm.tm_sec = Int32(s)
        let t = timegm(&tm)
        guard tm.tm_mday == Int32(d), tm.tm_mon == Int32(mo - 1) else { return nil }
        return Int64(t)
    }
}

extension String {
    var trimmingWhitespace: String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let last = scalars.lastIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        return String(scalars[first...last])
    }
}
