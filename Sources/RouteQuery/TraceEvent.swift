/// One line of `route-query trace`'s NDJSON: what a navigation SDK would report per fix.
public enum TraceEvent: Encodable, Sendable {
    /// Where the fix lies along the route being followed.
    /// `voiceInstruction` / `bannerInstruction`: the route's instruction that fell due at this fix
    /// (absent when none did, or the route carries none).
    /// `matchedLocation`: the road position followed (the map matcher's), when there is one.
    case progress(fix: Int, time: Double, location: LonLat, matchedLocation: LonLat? = nil, distanceAlong: Double, distanceRemaining: Double,
                  distanceFromRoute: Double, offRoute: Bool, voiceInstruction: VoiceInstruction? = nil,
                  bannerInstruction: BannerInstruction? = nil)
    /// The driver left the route at this fix.
    case offRoute(fix: Int, time: Double, location: LonLat, distanceFromRoute: Double)
    /// The new route from the fix to the destination (or why there is none).
    case reroute(fix: Int, time: Double, route: RouteAnswer)
    case done(fixes: Int, reroutes: Int)

    enum CodingKeys: String, CodingKey {
        case event, fix, time, location, matchedLocation, distanceAlong, distanceRemaining, distanceFromRoute, offRoute, route, fixes, reroutes
        case voiceInstruction, bannerInstruction
    }

    /// The `event` field.
    public var name: String {
        switch self {
        case .progress: return "progress"
        case .offRoute: return "off-route"
        case .reroute: return "reroute"
        case .done: return "done"
        }
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(name, forKey: .event)
        switch self {
        case let .progress(fix, time, location, matchedLocation, along, remaining, fromRoute, offRoute, voice, banner):
            try c.encode(fix, forKey: .fix)
            try c.encode(time, forKey: .time)
            try c.encode(location, forKey: .location)
            try c.encodeIfPresent(matchedLocation, forKey: .matchedLocation)
            try c.encode(along, forKey: .distanceAlong)
            try c.encode(remaining, forKey: .distanceRemaining)
            try c.encode(fromRoute, forKey: .distanceFromRoute)
            try c.encode(offRoute, forKey: .offRoute)
            try c.encodeIfPresent(voice, forKey: .voiceInstruction)
            try c.encodeIfPresent(banner, forKey: .bannerInstruction)
        case let .offRoute(fix, time, location, fromRoute):
            try c.encode(fix, forKey: .fix)
            try c.encode(time, forKey: .time)
            try c.encode(location, forKey: .location)
            try c.encode(fromRoute, forKey: .distanceFromRoute)
        case let .reroute(fix, time, route):
            try c.encode(fix, forKey: .fix)
            try c.encode(time, forKey: .time)
            try c.encode(route, forKey: .route)
        case let .done(fixes, reroutes):
            try c.encode(fixes, forKey: .fixes)
            try c.encode(reroutes, forKey: .reroutes)
        }
    }
}
