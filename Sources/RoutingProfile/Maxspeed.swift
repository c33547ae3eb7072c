/// Parsing of OSM `maxspeed=*` values.
public enum Maxspeed {
    public static let kmhPerMph = 1.609344
    public static let kmhPerKnot = 1.852
    /// Larger values are tagging errors (or "999" placeholders) and are ignored.
    public static let plausibleMaximumKmh = 300.0

    /// The speed in km/h of a numeric `maxspeed` value, or nil when it is not one.
    ///
    /// Accepted: a number (integer or with a decimal point), optionally followed by spaces and
    /// a unit: none or "km/h", "kmh", "kph" (km/h), "mph", "knots" (any letter case), e.g. "50",
    /// "50 km/h", "50kmh", "30 mph" (48.28 km/h), "7.5". Everything else — "none", "signals",
    /// "walk", "DE:urban", "50;30", "50,5", 0, > 300 km/h — returns nil, and callers fall back
    /// to the road class speed. Runs over the UTF-8 bytes without allocating.
    public static func kmh(_ value: String) -> Double? {
        var whole: Double = 0
        var fraction: Double = 0
        var fractionScale: Double = 1
        var digits = 0
        var seenPoint = false
        var unit: UInt64 = 0 // up to 8 lowercased unit bytes, packed
        var unitLength = 0
        var phase = 0 // 0 leading spaces, 1 number, 2 spaces, 3 unit, 4 trailing spaces
        for byte in value.utf8 {
            switch phase {
            case 0 where byte == 0x20:
                continue
            case 0, 1:
                if byte >= 0x30 && byte <= 0x39 {
                    phase = 1
                    digits += 1
                    if seenPoint {
                        fractionScale /= 10
                        fraction += Double(byte - 0x30) * fractionScale
                    } else {
                        whole = whole * 10 + Double(byte - 0x30)
                    }
                } else if byte == 0x2E && phase == 1 && !seenPoint {
                    seenPoint = true
                } else if phase == 1 && byte == 0x20 {
                    phase = 2
                } else if phase == 1 && isUnitByte(byte) {
                    phase = 3
                    guard append(byte, to: &unit, length: &unitLength) else { return nil }
                } else {
                    return nil
                }
            case 2 where byte == 0x20, 4 where byte == 0x20:
                continue
            case 2, 3:
                if isUnitByte(byte) {
                    phase = 3
                    guard append(byte, to: &unit, length: &unitLength) else { return nil }
                } else if byte == 0x20 && phase == 3 {
                    phase = 4
                } else {
                    return nil
                }
            default:
                return nil
            }
        }
        guard digits > 0 else { return nil }
        let number = whole + fraction
        let factor: Double
        switch unit {
        case 0: factor = 1
        case unitKmh, unitKmhShort, unitKph: factor = 1
        case unitMph: factor = kmhPerMph
        case unitKnots: factor = kmhPerKnot
        default: return nil
        }
        let kmh = number * factor
        guard kmh > 0, kmh <= plausibleMaximumKmh else { return nil }
        return kmh
    }

    @inline(__always) private static func isUnitByte(_ b: UInt8) -> Bool {
        (b >= 0x61 && b <= 0x7A) || (b >= 0x41 && b <= 0x5A) || b == 0x2F
    }

    /// Appends a lowercased unit byte; false when the unit is longer than any known one.
    @inline(__always) private static func append(_ b: UInt8, to unit: inout UInt64, length: inout Int) -> Bool {
        guard length < 8 else { return false }
        let lower = (b >= 0x41 && b <= 0x5A) ? b + 0x20 : b
        unit |= UInt64(lower) << (8 * UInt64(length))
        length += 1
        return true
    }

    private static let unitKmh = packed("km/h")
    private static let unitKmhShort = packed("kmh")
    private static let unitKph = packed("kph")
    private static let unitMph = packed("mph")
    private static let unitKnots = packed("knots")

    private static func packed(_ s: StaticString) -> UInt64 {
        var v: UInt64 = 0
        s.withUTF8Buffer { buffer in
            for (i, b) in buffer.enumerated() { v |= UInt64(b) << (8 * UInt64(i)) }
        }
        return v
    }
}
