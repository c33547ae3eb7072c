/// Distances as a driver hears them: a few round values ("In 500 meters", "In 1.5 kilometers"),
/// always rounded *down*, so an announcement never promises more road than there is.
enum SpokenDistance {
    /// The values announcements use up to 2 km; longer stretches use whole kilometres.
    static let steps: [Double] = [50, 100, 150, 200, 250, 300, 400, 500, 600, 700, 800, 900, 1000, 1500, 2000]

    /// The largest speakable distance ≤ `meters`, or nil below 50 m.
    static func roundedDown(_ meters: Double) -> Double? {
        if meters >= 3000 { return (meters / 1000).rounded(.down) * 1000 }
        return steps.last { $0 <= meters }
    }

    /// "50 meters", "1 kilometer", "1.5 kilometers", "12 kilometers" (metric, as spoken).
    static func text(_ meters: Double) -> String {
        if meters < 1000 { return "\(Int(meters)) meters" }
        let km = meters / 1000
        if km == 1 { return "1 kilometer" }
        if km == km.rounded() { return "\(Int(km)) kilometers" }
        return "\(Int(km)).\(Int((km * 10).rounded()) % 10) kilometers"
    }
}

/// SSML as Mapbox's Directions API writes it, minus its `<amazon:effect>` wrapper (a prefix with no
/// namespace declaration, which namespace-aware XML parsers reject): standard SSML 1.1 any engine
/// reads. The announcement in `<speak><prosody rate="1.08">`, road names and refs in
/// `<say-as interpret-as="address">`, XML special characters escaped.
enum SSML {
    static func escape(_ text: String) -> String {
        // Most names need nothing: one pass over the bytes to find out.
        if !text.utf8.contains(where: { $0 < 0x20 || $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x22 || $0 == 0x27 }) { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for c in text.unicodeScalars {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default:
                // Control characters are not allowed in XML 1.0 at all: drop them.
                if c.value < 0x20 && c != "\t" && c != "\n" && c != "\r" { continue }
                out.unicodeScalars.append(c)
            }
        }
        return out
    }

    static func address(_ road: String) -> String { "<say-as interpret-as=\"address\">\(escape(road))</say-as>" }

    static func speak(_ body: String) -> String {
        "<speak><prosody rate=\"1.08\">\(body)</prosody></speak>"
    }
}
