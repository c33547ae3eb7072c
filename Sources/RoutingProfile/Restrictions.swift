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

    public var code: UInt8 { rawValue }

    /// "only_*": every other turn from the `from` way at the via node is forbidden.
    /// "no_*": this one turn is forbidden.
    public var isOnly: Bool { rawValue >= RestrictionKind.onlyLeftTurn.rawValue }

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
        }
    }

    public init?(osmValue: String) {
        guard let kind = RestrictionKind.allCases.first(where: { $0.osmValue == osmValue }) else { return nil }
        self = kind
    }
}

extension CarProfile {
    /// Whether a relation is a turn restriction for cars, and which kind:
    /// - it must have `type=restriction`;
    /// - the value comes from the most specific key present: `restriction:motorcar`,
    ///   then `restriction:motor_vehicle`, then `restriction:vehicle`, then `restriction`
    ///   (a relation with only `restriction:hgv` does not apply to cars);
    /// - `except=*` (a semicolon list) naming `motorcar`, `motor_vehicle` or `vehicle` exempts
    ///   cars: nil;
    /// - `restriction:conditional` and the older `day_on`/`hour_on` tags are ignored: the
    ///   unconditional value applies, and a relation with only a conditional value gives nil;
    /// - unknown values give nil.
    public func evaluateRestriction(tags: [String: String]) -> RestrictionKind? {
        guard tags["type"] == "restriction" else { return nil }
        guard let value = tags["restriction:motorcar"] ?? tags["restriction:motor_vehicle"]
                ?? tags["restriction:vehicle"] ?? tags["restriction"] else { return nil }
        if let except = tags["except"], exemptsCars(except) { return nil }
        return RestrictionKind(osmValue: value.trimmingSpaces())
    }

    private func exemptsCars(_ except: String) -> Bool {
        except.split(separator: ";").contains { item in
            let v = item.trimmingSpaces()
            return v == "motorcar" || v == "motor_vehicle" || v == "vehicle"
        }
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
