/// Kinds of turn restriction relations, with stable one-byte codes stored in routing tiles
/// (`RoutingTile.Restriction.code`). Never renumber, only append.
public enum RestrictionKind: UInt8, CaseIterable, Sendable {
    case noLeftTurn = 0
    case noRightTurn = 1
    case noStraightOn = 2
    case noUTurn = 3
    case noEntry = 4
    case noExit = 5
    case onlyLeftTurn = 6
    case onlyRightTurn = 7
    case onlyStraightOn = 8
    case onlyUTurn = 9
    /// Any other `no_*` value (OSRM treats every `no_` value as prohibitive), e.g. `no_weird_zigzags`.
    case noOther = 10
    /// Any other `only_*` value (OSRM treats every `only_` value as mandatory), e.g. `only_left_on`.
    case onlyOther = 11

    public var code: UInt8 { rawValue }

    /// "only_*": every other turn from the `from` way at the via node is forbidden.
    /// "no_*": this one turn is forbidden.
    public var isOnly: Bool {
        switch self {
        case .onlyLeftTurn, .onlyRightTurn, .onlyStraightOn, .onlyUTurn, .onlyOther: return true
        default: return false
        }
    }

    /// The OSM `restriction=*` value.
    public var osmValue: String {
        switch self {
        case .noLeftTurn: return "no_left_turn"
        case .noRightTurn: return "no_right_turn"
        case .noStraightOn: return "no_straight_on"
        case .noUTurn: return "no_u_turn"
        case .noEntry: return "no_entry"
        case .noExit: return "no_exit"
        case .onlyLeftTurn: return "only_left_turn"
        case .onlyRightTurn: return "only_right_turn"
        case .onlyStraightOn: return "only_straight_on"
        case .onlyUTurn: return "only_u_turn"
        case .noOther: return "no_*"
        case .onlyOther: return "only_*"
        }
    }

    /// The kind of a `restriction=*` value as OSRM reads it: the ten named values, any other
    /// value starting with `no_` or `only_` (generic), nil for the rest and for `*_on_red`
    /// (turns on red are a traffic-light rule, not a turn restriction).
    public init?(osmValue: String) {
        if let kind = RestrictionKind.allCases.first(where: { $0.osmValue == osmValue && $0 != .noOther && $0 != .onlyOther }) {
            self = kind
        } else if osmValue.hasSuffix("_on_red") {
            return nil
        } else if osmValue.hasPrefix("no_") {
            self = .noOther
        } else if osmValue.hasPrefix("only_") {
            self = .onlyOther
        } else {
            return nil
        }
    }
}

/// A turn restriction relation as the car profile reads it: its kind, and the condition of a
/// `restriction:conditional` one (empty for an unconditional one).
public struct RestrictionVerdict: Equatable, Sendable {
    public var kind: RestrictionKind
    /// The text after `@` of a conditional restriction, without the parentheses, e.g. `Mo-Fr 07:00-10:30`;
    /// "" when the restriction always applies.
    public var condition: String

    public init(kind: RestrictionKind, condition: String = "") { self.kind = kind; self.condition = condition }
    public var isConditional: Bool { !condition.isEmpty }
}

extension TravelProfile {
    /// Whether a relation is a turn restriction for cars, and which kind:
    /// - it must have `type=restriction`;
    /// - the value comes from the most specific key present: `restriction:motorcar`,
    ///   then `restriction:motor_vehicle`, then `restriction:vehicle`, then `restriction`
    ///   (a relation with only `restriction:hgv` does not apply to cars);
    /// - `except=*` (a semicolon list) naming `motorcar`, `motor_vehicle` or `vehicle` exempts
    ///   cars: nil;
    /// - `restriction:conditional` and the older `day_on`/`hour_on` tags are ignored: the
    ///   unconditional value applies, and a relation with only a conditional value gives nil;
    /// - values other than `no_*` / `only_*` and `*_on_red` give nil.
    public func evaluateRestriction(tags: [String: String]) -> RestrictionKind? {
        guard let v = evaluateRestrictionRelation(tags: tags), !v.isConditional else { return nil }
        return v.kind
    }

    /// Like `evaluateRestriction`, but a relation with only a conditional value
    /// (`restriction:conditional`, `restriction:motorcar:conditional`…, `no_right_turn @ (Mo-Fr 07:00-10:30)`)
    /// gives its kind and condition (the first `value @ (condition)` of a `;`-separated list whose
    /// value is a restriction), kept in the tiles for a later time-aware build; the graph ignores
    /// conditional restrictions, as OSRM does without time data.
    public func evaluateRestrictionRelation(tags: [String: String]) -> RestrictionVerdict? {
        guard tags["type"] == "restriction" else { return nil }
        // Walkers obey no turn restriction (OSRM's foot profile).
        guard settings.mode != .foot else { return nil }
        if let except = tags["except"], exempts(except) { return nil }
        for suffix in settings.mode.restrictionSuffixes {
            if let value = tags["restriction:" + suffix] { return RestrictionKind(osmValue: value.trimmingSpaces()).map { RestrictionVerdict(kind: $0) } }
        }
        if let value = tags["restriction"] { return RestrictionKind(osmValue: value.trimmingSpaces()).map { RestrictionVerdict(kind: $0) } }
        for key in settings.mode.restrictionSuffixes.map({ "restriction:\($0):conditional" }) + ["restriction:conditional"] {
            guard let text = tags[key] else { continue }
            return Self.parseConditional(text)
        }
        return nil
    }

    /// `value @ (condition)` (or `value @ condition`), the first such part of a `;` list whose value is a restriction.
    static func parseConditional(_ text: String) -> RestrictionVerdict? {
        var rest = Substring(text)
        while !rest.isEmpty {
            guard let at = rest.firstIndex(of: "@") else { return nil }
            let value = rest[..<at].trimmingSpaces()
            var after = rest[rest.index(after: at)...].drop { $0 == " " }
            var condition: Substring
            if after.first == "(" {
                after = after.dropFirst()
                guard let close = after.firstIndex(of: ")") else { return nil }
                condition = after[..<close]
                rest = after[after.index(after: close)...].drop { $0 == " " || $0 == ";" }
            } else {
                let end = after.firstIndex(of: ";") ?? after.endIndex
                condition = after[..<end]
                rest = after[end...].dropFirst()
            }
            let c = condition.trimmingSpaces()
            if let kind = RestrictionKind(osmValue: value), !c.isEmpty { return RestrictionVerdict(kind: kind, condition: c) }
        }
        return nil
    }

    private func exempts(_ except: String) -> Bool {
        let exempt = settings.mode.exemptingValues
        return except.split(separator: ";").contains { exempt.contains($0.trimmingSpaces()) }
    }
}

extension StringProtocol {
    /// Without leading and trailing spaces.
    func trimmingSpaces() -> String {
        var slice = self[...]
        while slice.first == " " { slice = slice.dropFirst() }
        while slice.last == " " { slice = slice.dropLast() }
        return String(slice)
    }
}
