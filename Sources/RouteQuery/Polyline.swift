import OffgridCore

/// Google's encoded polyline (OSRM's `geometries=polyline` at precision 5, `polyline6` at 6).
///
/// Each coordinate is scaled by 10^precision and rounded half away from zero, as the reference
/// implementations do; the differences between consecutive *rounded* values are then written
/// as zig-zag varints in 5-bit groups offset by 63, latitude before longitude. Encoding the
/// rounded values (not rounding the differences) keeps errors from adding up along a line.
public enum Polyline {
    /// Encodes coordinates in degrees.
    public static func encode(_ coordinates: [(lat: Double, lon: Double)], precision: Int = 5) -> String {
        precondition((0...10).contains(precision), "polyline precision \(precision) outside 0...10")
        let factor = power10(precision)
        return encoded(count: coordinates.count) { i in
            (roundedHalfAway(coordinates[i].lat * factor), roundedHalfAway(coordinates[i].lon * factor))
        }
    }

    /// The same from separate latitude and longitude lists (a route's points as assembled),
    /// without pairing them up first.
    public static func encode(lat: [Double], lon: [Double], precision: Int = 5) -> String {
        precondition((0...10).contains(precision), "polyline precision \(precision) outside 0...10")
        precondition(lat.count == lon.count, "latitude and longitude counts differ")
        let factor = power10(precision)
        return encoded(count: lat.count) { i in (roundedHalfAway(lat[i] * factor), roundedHalfAway(lon[i] * factor)) }
    }

    /// The text of `count` points given as rounded (latitude, longitude) integers, written
    /// straight into the string's storage, sized for the longest possible values (13 characters:
    /// 64 bits in groups of 5).
    @inline(__always) static func encoded(count: Int, _ point: (Int) -> (lat: Int64, lon: Int64)) -> String {
        String(unsafeUninitializedCapacity: max(1, count * 26)) { text in
            var n = 0
            var lastLat: Int64 = 0, lastLon: Int64 = 0
            for i in 0..<count {
                let (y, x) = point(i)
                n = writeValue(y - lastLat, into: text, at: n)
                n = writeValue(x - lastLon, into: text, at: n)
                lastLat = y
                lastLon = x
            }
            return n
        }
    }

    /// `v.rounded(.toNearestOrAwayFromZero)` as an integer, bit for bit, without the libm call:
    /// truncation is one instruction and `v - trunc(v)` is exact.
    @inline(__always) static func roundedHalfAway(_ v: Double) -> Int64 {
        guard abs(v) < 0x1p52 else { return Int64(v.rounded(.toNearestOrAwayFromZero)) }
        let t = Int64(v)
        let fraction = v - Double(t)
        return fraction >= 0.5 ? t &+ 1 : fraction <= -0.5 ? t &- 1 : t
    }

    /// Writes one zig-zag value at `at`; returns the index after it.
    @inline(__always) static func writeValue(_ delta: Int64, into text: UnsafeMutableBufferPointer<UInt8>, at: Int) -> Int {
        // Zig-zag: the sign goes to the lowest bit so small negatives stay short.
        var v = UInt64(bitPattern: delta << 1)
        if delta < 0 { v = ~v }
        var n = at
        while v >= 0x20 {
            text[n] = UInt8(0x20 | (v & 0x1F)) &+ 63
            n &+= 1
            v >>= 5
        }
        text[n] = UInt8(v) &+ 63
        return n &+ 1
    }

    /// Encodes coordinates given in 1e-7 degrees (the graph file's unit), rounding in integers
    /// so no floating-point step can tip a half either way.
    public static func encode<Lat: Collection, Lon: Collection>(latE7: Lat, lonE7: Lon, precision: Int = 5) -> String
        where Lat.Element == Int32, Lon.Element == Int32 {
        precondition((0...7).contains(precision), "polyline precision \(precision) outside 0...7 for E7 input")
        precondition(latE7.count == lonE7.count, "latitude and longitude counts differ")
        let divisor = Int64(power10(7 - precision))
        let lat = Array(latE7), lon = Array(lonE7)
        return encoded(count: lat.count) { i in (roundedQuotient(Int64(lat[i]), divisor), roundedQuotient(Int64(lon[i]), divisor)) }
    }

    /// Decodes a polyline into degrees. Throws on a character outside `?`…`~`, a value cut off
    /// at the end, an over-long value, or a latitude without its longitude.
    public static func decode(_ text: String, precision: Int = 5) throws -> [(lat: Double, lon: Double)] {
        precondition((0...10).contains(precision), "polyline precision \(precision) outside 0...10")
        let factor = power10(precision)
        let bytes = Array(text.utf8)
        var out: [(lat: Double, lon: Double)] = []
        out.reserveCapacity(bytes.count / 6)
        var i = 0
        var lat: Int64 = 0, lon: Int64 = 0
        while i < bytes.count {
            lat += try readValue(bytes, &i)
            guard i < bytes.count else { throw InputError(offset: i, "invalid polyline: latitude without longitude at the end") }
            lon += try readValue(bytes, &i)
            out.append((lat: Double(lat) / factor, lon: Double(lon) / factor))
        }
        return out
    }

    /// One zig-zag varint starting at `i`; advances `i` past it.
    private static func readValue(_ bytes: [UInt8], _ i: inout Int) throws -> Int64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard i < bytes.count else { throw InputError(offset: i, "invalid polyline: value cut off at the end") }
            let byte = bytes[i]
            guard byte >= 63 && byte <= 126 else {
                throw InputError(offset: i, "invalid polyline: character \(String(UnicodeScalar(byte)).debugDescription) outside ?…~")
            }
            let chunk = UInt64(byte - 63)
            guard shift < 60 else { throw InputError(offset: i, "invalid polyline: value longer than 64 bits") }
            result |= (chunk & 0x1F) << shift
            shift += 5
            i += 1
            if chunk < 0x20 { break }
        }
        let magnitude = Int64(bitPattern: result >> 1)
        return result & 1 == 0 ? magnitude : ~magnitude
    }

    /// v / d rounded half away from zero (d > 0).
    @inline(__always) static func roundedQuotient(_ v: Int64, _ d: Int64) -> Int64 {
        let q = v / d, r = v % d
        guard 2 * abs(r) >= d else { return q }
        return v < 0 ? q - 1 : q + 1
    }

    static func power10(_ n: Int) -> Double {
        var f = 1.0
        for _ in 0..<n { f *= 10 }
        return f
    }
}
