/// Shortest decimal text that reads back as exactly the same `Double`, without exponent or
/// trailing ".0": 47 → "47", 9.25 → "9.25", 1e-05 → "0.00001", -0 → "0".
///
/// Used for bbox descriptions and canonical GeoJSON, so printed coordinates round-trip exactly
/// (a split suggestion pasted back as `--region` selects exactly the tiles it names).
public func shortestDecimal(_ value: Double) -> String {
    if value == 0 { return "0" }
    guard value.isFinite else { return value.isNaN ? "NaN" : (value < 0 ? "-Infinity" : "Infinity") }
    // Swift's description is already the shortest round-tripping digit string; only its
    // layout (exponent, ".0") needs changing.
    var text = value.description
    var negative = false
    if text.hasPrefix("-") {
        negative = true
        text.removeFirst()
    }
    var exponent = 0
    if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
        exponent = Int(text[text.index(after: e)...]) ?? 0
        text = String(text[..<e])
    }
    // Split into digits and the position of the decimal point within them.
    let parts = text.split(separator: ".", omittingEmptySubsequences: false)
    let integerPart = parts.first.map(String.init) ?? "0"
    let fractionPart = parts.count > 1 ? String(parts[1]) : ""
    var digits = Array(integerPart + fractionPart)
    var pointPosition = integerPart.count + exponent
    // Drop leading zeros (keeping track of the point) and trailing zeros.
    while digits.count > 1, digits.first == "0" {
        digits.removeFirst()
        pointPosition -= 1
    }
    while digits.count > 1, digits.last == "0", digits.count > pointPosition {
        digits.removeLast()
    }
    var result: String
    if pointPosition <= 0 {
        result = "0." + String(repeating: "0", count: -pointPosition) + String(digits)
    } else if pointPosition >= digits.count {
        result = String(digits) + String(repeating: "0", count: pointPosition - digits.count)
    } else {
        result = String(digits[..<pointPosition]) + "." + String(digits[pointPosition...])
    }
    if result.contains(".") {
        while result.hasSuffix("0") { result.removeLast() }
        if result.hasSuffix(".") { result.removeLast() }
    }
    return negative ? "-" + result : result
}
