#if canImport(Glibc)
import Glibc
#endif

/// UTC timestamps as `yyyy-MM-ddTHH:mm:ssZ`, independent of locale and time zone.
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
}
