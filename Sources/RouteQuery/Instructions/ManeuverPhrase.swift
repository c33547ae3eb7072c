/// One maneuver of a leg as the phrasing needs it: what to do, onto which road, in both
/// spellings (plain text and SSML), now ("Turn right onto X") or ahead ("In 500 meters, turn …").
struct ManeuverPhrase {
    var type: ManeuverType
    var modifier: ManeuverModifier?
    /// The road after the maneuver as spoken: its name, else its first ref, else empty.
    var road: String
    /// For ramps, forks and merges onto a road with neither: the next road it leads to.
    var towards: String?
    var exit: Int?
    var compassBearing: Int
    /// Arrive only: "left", "right" or nil (on the road itself).
    var side: String?
    var goal: String

    /// A text in both spellings.
    struct Text: Equatable {
        var plain: String
        var ssml: String

        static func + (a: Text, b: Text) -> Text { Text(plain: a.plain + b.plain, ssml: a.ssml + b.ssml) }
        init(plain: String, ssml: String) { self.plain = plain; self.ssml = ssml }
        /// Fixed words: the same text, escaped for SSML.
        init(_ words: String) { plain = words; ssml = SSML.escape(words) }
    }

    /// What to do, said at the maneuver: "Turn right onto Landstrasse".
    var now: Text {
        if type == .arrive { return fill(Phrasebook.arrive(side: side, ahead: false)) }
        // A roundabout the destination lies in has no exit to take: it is only entered.
        let row = type.hasExitStep && exit == nil ? Phrasebook.enterOnly(type) : Phrasebook.row(type, modifier)
        if road.isEmpty, let towards, !towards.isEmpty { return fill(row.unnamed + Phrasebook.towards, towards: towards) }
        return fill(road.isEmpty ? row.unnamed : row.named)
    }

    /// The same, announced ahead: "in 500 meters, turn right onto Landstrasse" minus the distance.
    var ahead: Text {
        if type == .arrive {
            let t = fill(Phrasebook.arrive(side: side, ahead: true))
            return Text(plain: capitalizedFirst(t.plain), ssml: capitalizedFirst(t.ssml))
        }
        return now
    }

    /// "In 500 meters, turn right onto X".
    func announced(inMeters meters: Double) -> Text {
        let a = ahead
        return Text("In \(SpokenDistance.text(meters)), ") + Text(plain: lowercasedFirst(a.plain), ssml: lowercasedFirst(a.ssml))
    }

    /// Fills a phrasebook template: `{road}` and `{towards}` become addresses in SSML, the rest words.
    func fill(_ template: String, towards: String? = nil, distance: String? = nil) -> Text {
        var plain = "", ssml = ""
        plain.reserveCapacity(template.utf8.count + road.utf8.count + 16)
        ssml.reserveCapacity(template.utf8.count + road.utf8.count + 64)
        func words(_ w: String) { plain += w; ssml += SSML.escape(w) }
        func address(_ a: String) { plain += a; ssml += SSML.address(a) }
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            words(String(rest[..<open]))
            switch rest[rest.index(after: open)..<close] {
            case "road": address(road)
            case "towards": address(towards ?? "")
            case "dir": words(modifier.flatMap { Phrasebook.modifierWords[$0] } ?? "straight")
            case "side": words(Phrasebook.side(modifier))
            case "nth": words(Phrasebook.ordinal(exit ?? 1))
            case "compass": words(Phrasebook.compass(compassBearing))
            case "goal": words(goal)
            case "distance": words(distance ?? "")
            default: words(String(rest[open...close]))
            }
            rest = rest[rest.index(after: close)...]
        }
        words(String(rest))
        return Text(plain: plain, ssml: ssml)
    }
}

/// The first letter lowered (our phrases start with a verb of our own, never with a road name).
func lowercasedFirst(_ s: String) -> String { changingFirstASCII(s, from: 65...90, by: 32) }
func capitalizedFirst(_ s: String) -> String { changingFirstASCII(s, from: 97...122, by: -32) }

/// Our phrases start with an ASCII letter of our own; anything else is left as it is.
private func changingFirstASCII(_ s: String, from range: ClosedRange<UInt8>, by delta: Int) -> String {
    guard let first = s.utf8.first, range.contains(first) else { return s }
    var bytes = Array(s.utf8)
    bytes[0] = UInt8(Int(first) + delta)
    return String(decoding: bytes, as: UTF8.self)
}
