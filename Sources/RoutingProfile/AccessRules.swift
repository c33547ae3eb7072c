/// What an access value (`access=*`, `motorcar=*`, … on a way or a node) means for cars.
public enum AccessVerdict: Int, Comparable, Sendable {
    /// In `deniedAccessValues` and not restricted: closed.
    case denied = 0
    /// In `restrictedAccessValues`: only to reach a place there.
    case restricted = 1
    /// In no list: open (OSRM opens every value it does not blacklist).
    case unknown = 2
    /// In `allowedAccessValues`.
    case allowed = 3

    public static func < (a: AccessVerdict, b: AccessVerdict) -> Bool { a.rawValue < b.rawValue }
}

extension TravelProfile {
    /// The verdict on an access value; a `;` list takes its most permissive part, so
    /// `destination;agricultural` is restricted and `yes;no` allowed.
    public func accessVerdict(_ value: String) -> AccessVerdict {
        if !value.contains(";") { return verdict(single: value.trimmingSpaces()) }
        var best = AccessVerdict.denied
        for part in value.split(separator: ";") { best = max(best, verdict(single: part.trimmingSpaces())) }
        return best
    }

    private func verdict(single value: String) -> AccessVerdict {
        let s = settings
        if s.allowedAccessValues.contains(value) { return .allowed }
        if s.restrictedAccessValues.contains(value) { return .restricted }
        if s.deniedAccessValues.contains(value) { return .denied }
        return .unknown
    }
}
