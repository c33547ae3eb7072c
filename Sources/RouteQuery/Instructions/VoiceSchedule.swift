/// Where along a step the announcements of its upcoming maneuver fall, from the speed driven on
/// it (like Mapbox Navigation): an early one about a minute ahead (2 km on roads driven at
/// 80 km/h or more), a near one about 15 s ahead, and one at the maneuver, 5 s ahead. Spoken
/// distances are the trigger distances (rounded down to a speakable value), so "In 500 meters"
/// is said 500 m before the maneuver.
struct VoiceSchedule {
    /// Step length (m) and average speed on it (m/s).
    let length: Double
    let speed: Double

    static let earlySeconds = 60.0
    static let fastSpeed = 80.0 / 3.6
    static let fastEarlyMeters = 2000.0
    static let nearSeconds = 15.0
    static let atSeconds = 5.0
    /// Two announcements closer than this many seconds of driving are one too many.
    static let gapSeconds = 4.0

    init(length: Double, seconds: Double) {
        self.length = length
        // Ferries and zero-time pieces: fall back to town speed.
        let v = seconds > 0 ? length / seconds : 0
        speed = v.isFinite && v >= 1 ? min(v, 45) : 50 / 3.6
    }

    /// About a minute ahead: 2 km on fast roads, else a minute's drive rounded down (≥ 200 m).
    var early: Double {
        if speed >= Self.fastSpeed { return Self.fastEarlyMeters }
        return max(200, SpokenDistance.roundedDown(speed * Self.earlySeconds) ?? 200)
    }

    /// About 15 s ahead, rounded down, at least 50 m and at most 500 m; never beyond the step.
    var near: Double? { SpokenDistance.roundedDown(min(max(speed * Self.nearSeconds, 50), 500, length)) }

    /// At the maneuver: 5 s ahead, 15…150 m, never beyond the step.
    var at: Double { min(round1(min(max(speed * Self.atSeconds, 15), 150)), round1(length)) }

    var gap: Double { max(speed * Self.gapSeconds, 20) }

    /// The trigger distances, largest first: (start of step, early, near, at); nil where left out.
    /// `startsWithAnnouncement`: the step's own start carries one (depart, or a long stretch).
    func distances(startsWithAnnouncement: Bool) -> (start: Double?, early: Double?, near: Double?, at: Double?) {
        let start = round1(length)
        var kept: [Double] = startsWithAnnouncement ? [start] : []
        func fits(_ d: Double) -> Bool { d <= start && (kept.last.map { $0 - d >= gap } ?? true) }
        var e: Double?, n: Double?, a: Double?
        if early < start, fits(early) { e = early; kept.append(early) }
        if let near, near < (e ?? .infinity), fits(near), near - at >= gap { n = near; kept.append(near) }
        if fits(at) { a = at; kept.append(at) }
        return (startsWithAnnouncement ? start : nil, e, n, a)
    }
}
