import CShims
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
        return String(unsafeUninitializedCapacity: PolylineText.capacity(coordinates.count)) { text in
            var out = PolylineText(text)
            for c in coordinates { out.append(lat: roundedHalfAway(c.lat * factor), lon: roundedHalfAway(c.lon * factor)) }
            return out.count
        }
    }

    /// The same from separate latitude and longitude lists (a route's points as assembled),
    /// without pairing them up first.
    public static func encode(lat: [Double], lon: [Double], precision: Int = 5) -> String {
        encode(lat: lat[...], lon: lon[...], precision: precision)
    }

    /// The same from runs of longer lists (a step's points within its leg's).
    public static func encode(lat: ArraySlice<Double>, lon: ArraySlice<Double>, precision: Int = 5) -> String {
        precondition((0...10).contains(precision), "polyline precision \(precision) outside 0...10")
        precondition(lat.count == lon.count, "latitude and longitude counts differ")
        let factor = power10(precision)
        return String(unsafeUninitializedCapacity: PolylineText.capacity(lat.count)) { text in
            var out = PolylineText(text)
            lat.withUnsafeBufferPointer { lat in
                lon.withUnsafeBufferPointer { lon in
                    for i in 0..<lat.count { out.append(lat: roundedHalfAway(lat[i] * factor), lon: roundedHalfAway(lon[i] * factor)) }
                }
            }
            return out.count
        }
    }

    /// `v.rounded(.toNearestOrAwayFromZero)` as an integer, bit for bit, without the libm call:
    /// `v` plus the largest double below one half (with v's sign), truncated. For 1 <= |v| <
    /// 2^52 the sum reaches the next integer exactly when v's fraction is a half or more: below
    /// a half it is at most k + 1 - ulp(v) - 2^-54, which rounds down to a double below k + 1;
    /// from a half on it is at least k + 1 - 2^-54, nearer k + 1 than the double below it (a
    /// tie only at k + 1 = 1, which goes to the even 1.0). Below 1 in magnitude the sum stays
    /// under 1 - 2^-53 unless |v| >= 0.5. Three instructions where the fraction test took nine
    /// (`PolylineTests` compare it with the library's rounding around every half and at random).
    @inline(__always) static func roundedHalfAway(_ v: Double) -> Int64 {
        guard abs(v) < 0x1p52 else { return Int64(v.rounded(.toNearestOrAwayFromZero)) }
        return offgrid_truncate(v + Double(signOf: v, magnitudeOf: 0.49999999999999994))
    }

    /// Encodes coordinates given in 1e-7 degrees (the graph file's unit), rounding in integers
    /// so no floating-point step can tip a half either way.
    public static func encode<Lat: Collection, Lon: Collection>(latE7: Lat, lonE7: Lon, precision: Int = 5) -> String
        where Lat.Element == Int32, Lon.Element == Int32 {
        precondition((0...7).contains(precision), "polyline precision \(precision) outside 0...7 for E7 input")
        precondition(latE7.count == lonE7.count, "latitude and longitude counts differ")
        let divisor = Int64(power10(7 - precision))
        return String(unsafeUninitializedCapacity: PolylineText.capacity(latE7.count)) { text in
            var out = PolylineText(text)
            for (lat, lon) in zip(latE7, lonE7) {
                out.append(lat: roundedQuotient(Int64(lat), divisor), lon: roundedQuotient(Int64(lon), divisor))
            }
            return out.count
        }
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

/// A line's polyline, with where each point's characters end, so that the polyline of any run of
/// its points is that run's first point written whole, then the rest's characters copied (each
/// is the delta from the point before, the same in both). A route's steps are runs of its leg's
/// points: the leg is encoded once, not once for the overview and again step by step.
public struct PolylineRuns {
    private let text: [UInt8]
    /// `pointEnds[k]`: the characters up to and including point `k` (indexed as `lat`).
    private let pointEnds: [Int32]
    private let lat: ArraySlice<Double>, lon: ArraySlice<Double>
    private let factor: Double

    public init(lat: ArraySlice<Double>, lon: ArraySlice<Double>, precision: Int = 5) {
        precondition((0...10).contains(precision), "polyline precision \(precision) outside 0...10")
        precondition(lat.count == lon.count && lat.startIndex == lon.startIndex, "latitude and longitude runs differ")
        let factor = Polyline.power10(precision)
        var ends: [Int32] = []
        text = [UInt8](unsafeUninitializedCapacity: PolylineText.capacity(lat.count)) { buffer, count in
            var out = PolylineText(buffer)
            ends = [Int32](unsafeUninitializedCapacity: lat.count) { ends, initialized in
                lat.withUnsafeBufferPointer { lat in
                    lon.withUnsafeBufferPointer { lon in
                        // A local copy: the writer captured by these closures lived in memory,
                        // its count and last point stored and loaded again for every value.
                        var writer = out
                        for k in 0..<lat.count {
                            writer.append(lat: Polyline.roundedHalfAway(lat[k] * factor), lon: Polyline.roundedHalfAway(lon[k] * factor))
                            ends[k] = Int32(truncatingIfNeeded: writer.count)
                        }
                        out = writer
                    }
                }
                initialized = lat.count
            }
            count = out.count
        }
        pointEnds = ends
        self.lat = lat
        self.lon = lon
        self.factor = factor
    }

    /// The polyline of every point.
    public var whole: EncodedPolyline { EncodedPolyline(text: text) }

    /// The polyline of the points `points` (indexes of `lat`, a run within it): its first point
    /// whole, then the line's characters from the next point on, shared, not copied.
    public func run(_ points: Range<Int>) -> EncodedPolyline {
        precondition(points.lowerBound >= lat.startIndex && points.upperBound <= lat.endIndex, "a run of the line's points")
        if points.isEmpty { return EncodedPolyline(text: []) }
        let k = points.lowerBound - lat.startIndex
        let first = EncodedPolyline.RoundedPoint(lat: Polyline.roundedHalfAway(lat[points.lowerBound] * factor),
                                                 lon: Polyline.roundedHalfAway(lon[points.lowerBound] * factor))
        return EncodedPolyline(first: first, text: text, range: Int(pointEnds[k])..<Int(pointEnds[k + points.count - 1]))
    }
}

/// Polyline text written into a string's storage: the deltas of rounded coordinates.
struct PolylineText {
    let text: UnsafeMutableBufferPointer<UInt8>
    private(set) var count = 0
    private var lastLat: Int64 = 0
    private var lastLon: Int64 = 0

    /// Bytes enough for `points` points: a value is at most 13 characters (64 bits in groups of 5).
    static func capacity(_ points: Int) -> Int { max(1, points * 26) }

    init(_ text: UnsafeMutableBufferPointer<UInt8>) { self.text = text }

    @inline(__always) mutating func append(lat: Int64, lon: Int64) {
        // Wrapping: a difference overflows only past 2^62, far beyond any coordinate at any
        // precision up to 10 (180° × 10^10 < 2^41).
        write(lat &- lastLat)
        write(lon &- lastLon)
        lastLat = lat
        lastLon = lon
    }

    @inline(__always) private mutating func write(_ delta: Int64) {
        // Zig-zag: the sign goes to the lowest bit so small negatives stay short.
        var v = UInt64(bitPattern: delta << 1)
        if delta < 0 { v = ~v }
        while v >= 0x20 {
            text[count] = UInt8(0x20 | (v & 0x1F)) &+ 63
            count &+= 1
            v >>= 5
        }
        text[count] = UInt8(v) &+ 63
        count &+= 1
    }
}
