/// The English phrasing of maneuvers, as tables: one row per maneuver type, with a text for a
/// road that has a name (`{road}`) and one for a road that has none, by modifier where the
/// modifier changes the words. docs/INSTRUCTIONS.md prints these tables; a test checks that
/// every type and modifier has a row.
enum Phrasebook {
    /// `{dir}` (left/right/…), `{road}`, `{nth}` (roundabout exit ordinal), `{compass}` (depart heading).
    struct Row {
        var unnamed: String
        var named: String
    }

    /// Modifier → words used inside the phrases.
    static let modifierWords: [ManeuverModifier: String] = [
        .uturn: "around", .sharpRight: "sharp right", .right: "right", .slightRight: "slight right",
        .straight: "straight", .slightLeft: "slight left", .left: "left", .sharpLeft: "sharp left",
    ]

    /// The side (left/right) a modifier points to, for ramps, forks and merges.
    static func side(_ m: ManeuverModifier?) -> String {
        switch m {
        case .sharpLeft?, .left?, .slightLeft?: return "left"
        case .uturn?: return "left"
        default: return "right"
        }
    }

    /// Imperative phrases by type, and for `turn`, `new name`, `continue` and `end of road` by modifier.
    static func row(_ type: ManeuverType, _ modifier: ManeuverModifier?) -> Row {
        switch (type, modifier) {
        case (.depart, _): return Row(unnamed: "Head {compass}", named: "Head {compass} on {road}")
        case (.turn, .uturn?), (.continue, .uturn?), (.newName, .uturn?), (.endOfRoad, .uturn?):
            return Row(unnamed: "Make a U-turn", named: "Make a U-turn onto {road}")
        case (.turn, .straight?): return Row(unnamed: "Go straight", named: "Go straight onto {road}")
        case (.turn, _): return Row(unnamed: "Turn {dir}", named: "Turn {dir} onto {road}")
        case (.newName, .straight?), (.newName, nil): return Row(unnamed: "Continue", named: "Continue onto {road}")
        case (.newName, _): return Row(unnamed: "Continue {dir}", named: "Continue {dir} onto {road}")
        case (.continue, .straight?), (.continue, nil): return Row(unnamed: "Continue straight", named: "Continue straight to stay on {road}")
        case (.continue, _): return Row(unnamed: "Turn {dir}", named: "Turn {dir} to stay on {road}")
        case (.merge, _): return Row(unnamed: "Merge {side}", named: "Merge {side} onto {road}")
        case (.onRamp, _): return Row(unnamed: "Take the ramp on the {side}", named: "Take the ramp on the {side} onto {road}")
        case (.offRamp, _): return Row(unnamed: "Take the exit on the {side}", named: "Take the exit on the {side} onto {road}")
        case (.fork, _): return Row(unnamed: "Keep {side} at the fork", named: "Keep {side} onto {road}")
        case (.endOfRoad, .straight?): return Row(unnamed: "Go straight at the end of the road", named: "Go straight at the end of the road onto {road}")
        case (.endOfRoad, _): return Row(unnamed: "Turn {dir} at the end of the road", named: "Turn {dir} at the end of the road onto {road}")
        case (.roundabout, _): return Row(unnamed: "Enter the roundabout and take the {nth} exit",
                                          named: "Enter the roundabout and take the {nth} exit onto {road}")
        case (.exitRoundabout, _): return Row(unnamed: "Exit the roundabout", named: "Exit the roundabout onto {road}")
        case (.rotary, _): return Row(unnamed: "Enter the traffic circle and take the {nth} exit",
                                      named: "Enter the traffic circle and take the {nth} exit onto {road}")
        case (.exitRotary, _): return Row(unnamed: "Exit the traffic circle", named: "Exit the traffic circle onto {road}")
        case (.roundaboutTurn, .uturn?): return Row(unnamed: "At the roundabout, make a U-turn", named: "At the roundabout, make a U-turn onto {road}")
        case (.roundaboutTurn, .straight?): return Row(unnamed: "At the roundabout, go straight", named: "At the roundabout, go straight onto {road}")
        case (.roundaboutTurn, _): return Row(unnamed: "At the roundabout, turn {dir}", named: "At the roundabout, turn {dir} onto {road}")
        case (.notification, .straight?), (.notification, nil): return Row(unnamed: "Continue", named: "Continue onto {road}")
        case (.notification, _): return Row(unnamed: "Continue {dir}", named: "Continue {dir} onto {road}")
        case (.arrive, _): return Row(unnamed: "You have arrived at {goal}", named: "You have arrived at {goal}")
        }
    }

    /// Entering a roundabout or rotary that is not left before the destination.
    static func enterOnly(_ type: ManeuverType) -> Row {
        type == .rotary ? Row(unnamed: "Enter the traffic circle", named: "Enter the traffic circle")
            : Row(unnamed: "Enter the roundabout", named: "Enter the roundabout")
    }

    /// Ramps and forks without a road name of their own say where they lead instead.
    static let towards = ", towards {towards}"

    /// Arrival: now (at the maneuver), and announced ahead ("In 500 meters, …").
    static func arrive(side: String?, ahead: Bool) -> String {
        switch (side, ahead) {
        case (nil, false): return "You have arrived at {goal}"
        case (let s?, false): return s == "straight" ? "You have arrived at {goal}, straight ahead" : "You have arrived at {goal}, on the \(s)"
        case (nil, true): return "you will arrive at {goal}"
        case (let s?, true): return s == "straight" ? "{goal} will be straight ahead" : "{goal} will be on the \(s)"
        }
    }

    /// "your destination" on the last leg, "your 1st destination" at an intermediate waypoint.
    static func goal(leg: Int, legCount: Int) -> String {
        leg == legCount - 1 ? "your destination" : "your \(ordinal(leg + 1)) destination"
    }

    /// After a long step: what to do until the next maneuver.
    static let continueFor = (unnamed: "Continue for {distance}", named: "Continue on {road} for {distance}")

    /// Joins a maneuver with the next one when the step between them is short.
    static let then = "{first}, then {second}"

    /// Depart bearings as compass words (8 sectors of 45°).
    static func compass(_ bearing: Int) -> String {
        let words = ["north", "northeast", "east", "southeast", "south", "southwest", "west", "northwest"]
        return words[((bearing % 360 + 360) % 360 * 2 + 45) / 90 % 8]
    }

    /// 1st, 2nd, 3rd, 4th … 11th, 12th, 13th, 21st.
    static func ordinal(_ n: Int) -> String {
        let tens = n % 100
        if (11...13).contains(tens) { return "\(n)th" }
        switch n % 10 {
        case 1: return "\(n)st"
        case 2: return "\(n)nd"
        case 3: return "\(n)rd"
        default: return "\(n)th"
        }
    }
}
