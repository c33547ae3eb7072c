/// The banner of one maneuver: road shields (refs as `icon` components), the road name, and
/// for roundabouts the exit number; the maneuver's type and modifier for the arrow, and
/// `degrees` for a roundabout's exit.
struct BannerBuilder {
    let phrase: ManeuverPhrase
    let roadName: String
    let roadRef: String
    let degrees: Double?
    let overallModifier: ManeuverModifier?

    func primary() -> BannerText {
        var components: [BannerComponent] = []
        if phrase.type.hasExitStep, let exit = phrase.exit {
            components += [BannerComponent(text: "Exit", type: .exit), BannerComponent(text: String(exit), type: .exitNumber)]
        }
        let road = roadComponents()
        if road.isEmpty && components.isEmpty {
            // Nothing to name: the banner says what to do instead.
            components.append(BannerComponent(text: phrase.type == .arrive ? "Your destination" : phrase.now.plain, type: .text))
        } else {
            components += road
        }
        let modifier: String?
        switch phrase.type {
        case .arrive: modifier = phrase.side
        case .roundabout, .rotary: modifier = (overallModifier ?? phrase.modifier)?.rawValue
        default: modifier = phrase.modifier?.rawValue
        }
        return BannerText(text: components.map(\.text).joined(separator: " "), components: components,
                          type: phrase.type.rawValue, modifier: modifier,
                          degrees: phrase.type.hasExitStep ? degrees : nil, drivingSide: "right")
    }

    /// "A13 / Hauptstrasse": every ref as an icon, then a delimiter and the name.
    func roadComponents() -> [BannerComponent] {
        var out: [BannerComponent] = []
        for ref in refs(roadRef) {
            if !out.isEmpty { out.append(BannerComponent(text: "/", type: .delimiter)) }
            out.append(BannerComponent(text: ref, type: .icon))
        }
        if !roadName.isEmpty {
            if !out.isEmpty { out.append(BannerComponent(text: "/", type: .delimiter)) }
            out.append(BannerComponent(text: roadName, type: .text))
        }
        return out
    }
}

/// OSM's `ref=28;13`: the refs, trimmed, empty ones left out.
func refs(_ ref: String) -> [String] {
    ref.split(separator: ";").map { String($0.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed()) }.filter { !$0.isEmpty }
}
