/// Parsing of OSM's physical limit values (`maxheight`, `maxwidth`, `width`, `maxlength`,
/// `maxweight`) into metres and kilograms, and the check against the profile's vehicle.
public enum PhysicalLimit {
    static let metresPerInch = 0.0254
    static let kilogramsPerPound = 0.45359237

    /// Metres of a length value: "2.5", "2,5", "3 m", "1m", feet and inches ("6'", "6'2\""),
    /// or nil for values that state no number ("default", "none", "no-sign", "unsigned", "below_default").
    public static func metres(_ value: String) -> Double? {
        guard let (number, rest) = leadingNumber(value) else { return nil }
        let unit = rest.trimmingSpaces()
        if unit.hasPrefix("'") {
            // Feet, then optional inches up to a closing ".
            var inches = number * 12
            let afterFeet = unit.dropFirst().trimmingSpaces()
            if let (moreInches, _) = leadingNumber(afterFeet) { inches += moreInches }
            return inches * metresPerInch
        }
        switch unit.lowercased() {
        case "", "m", "meter", "meters", "metre", "metres": return number
        case "cm": return number / 100
        case "ft", "feet": return number * 12 * metresPerInch
        case "\"", "in": return number * metresPerInch
        default: return nil
        }
    }

    /// Kilograms of a weight value: "3.5" and "3.5 t" (tonnes), "35000 kg", "8.9t", "0.1 lbs";
    /// nil for values that state no number.
    public static func kilograms(_ value: String) -> Double? {
        guard let (number, rest) = leadingNumber(value) else { return nil }
        switch rest.trimmingSpaces().lowercased() {
        case "", "t", "tonne", "tonnes", "ton", "tons": return number * 1000
        case "kg": return number
        case "lbs", "lb": return number * kilogramsPerPound
        case "st": return number * 907.18474  // short tons
        default: return nil
        }
    }

    /// The number at the start of `value` (a decimal comma read as a point) and what follows it.
    static func leadingNumber<S: StringProtocol>(_ value: S) -> (Double, Substring)? {
        var digits = ""
        var rest = Substring(value)
        while let c = rest.first, c == " " { rest = rest.dropFirst() }
        var seenPoint = false
        while let c = rest.first {
            if c.isASCII && c.isNumber {
                digits.append(c)
            } else if (c == "." || c == ","), !seenPoint, !digits.isEmpty,
                      let next = rest.dropFirst().first, next.isASCII && next.isNumber {
                seenPoint = true
                digits.append(".")
            } else {
                break
            }
            rest = rest.dropFirst()
        }
        guard !digits.isEmpty, let number = Double(digits) else { return nil }
        return (number, rest)
    }
}

extension TravelProfile {
    /// Whether the profile's vehicle fits a way in one direction, given that direction's values
    /// of the limit keys (each nil when absent): OSRM's order of keys, first present wins.
    func vehicleFits(height: String?, width: String?, narrow: Bool, length: String?, weight: String?) -> Bool {
        let s = settings
        if let h = height.flatMap(PhysicalLimit.metres), h < s.vehicleHeightM { return false }
        if width == "narrow" || narrow {
            if s.vehicleWidthM > 2.2 { return false }
        } else if let w = width.flatMap(PhysicalLimit.metres), w <= s.vehicleWidthM {
            return false
        }
        if let l = length.flatMap(PhysicalLimit.metres), l < s.vehicleLengthM { return false }
        if let w = weight.flatMap(PhysicalLimit.kilograms), w < s.vehicleWeightKg { return false }
        return true
    }
}
