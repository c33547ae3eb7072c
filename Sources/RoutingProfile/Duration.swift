/// Parsing of OSM `duration=*` values (ferries, shuttle trains).
public enum Duration {
    /// Seconds of "HH:MM:SS", "HH:MM", "MM" (minutes) or ISO 8601 "PnDTnHnMnS" (e.g. "PT1H30M");
    /// nil for anything else.
    public static func seconds(_ value: String) -> Double? {
        let v = value.trimmingSpaces()
        if v.hasPrefix("P") { return iso8601(v) }
        let parts = v.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count) else { return nil }
        var numbers: [Double] = []
        for p in parts {
            guard !p.isEmpty, p.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }), let n = Double(p) else { return nil }
            numbers.append(n)
        }
        switch numbers.count {
        case 1: return numbers[0] * 60
        case 2: return numbers[0] * 3600 + numbers[1] * 60
        default: return numbers[0] * 3600 + numbers[1] * 60 + numbers[2]
        }
    }

    private static func iso8601(_ v: String) -> Double? {
        var total = 0.0, number = "", inTime = false, any = false
        for c in v.dropFirst() {
            if c == "T" { inTime = true; continue }
            if c.isASCII && (c.isNumber || c == "." || c == ",") { number.append(c == "," ? "." : c); continue }
            guard let n = Double(number) else { return nil }
            number = ""
            any = true
            switch (c, inTime) {
            case ("D", false): total += n * 86400
            case ("W", false): total += n * 604800
            case ("H", true): total += n * 3600
            case ("M", true): total += n * 60
            case ("S", true): total += n
            default: return nil
            }
        }
        return any && number.isEmpty ? total : nil
    }
}
