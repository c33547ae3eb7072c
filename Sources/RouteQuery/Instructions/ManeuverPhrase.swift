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
        let row = Phrasebook.row(type, modifier)
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
        var out = Text(plain: "", ssml: "")
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            out = out + Text(String(rest[..<open]))
            let key = rest[rest.index(after: open)..<close]
            switch key {
            case "road": out = out + Text(plain: road, ssml: SSML.address(road))
            case "towards": out = out + Text(plain: towards ?? "", ssml: SSML.address(towards ?? ""))
            case "dir": out = out + Text(modifier.flatMap { Phrasebook.modifierWords[$0] } ?? "straight")
            case "side": out = out + Text(Phrasebook.side(modifier))
            case "nth": out = out + Text(Phrasebook.ordinal(exit ?? 1))
            case "compass": out = out + Text(Phrasebook.compass(compassBearing))
            case "goal": out = out + Text(goal)
            case "distance": out = out + Text(distance ?? "")
            default: out = out + Text(String(rest[open...close]))
            }
            rest = rest[rest.index(after: close)...]
        }
        return out + Text(String(rest))
    }
}

/// The first letter lowered (our phrases start with a verb of our own, never with a road name).
func lowercasedFirst(_ s: String) -> String { s.isEmpty ? s : s.prefix(1).lowercased() + s.dropFirst() }
func capitalizedFirst(_ s: String) -> String { s.isEmpty ? s : s.prefix(1).uppercased() + s.dropFirst() }
