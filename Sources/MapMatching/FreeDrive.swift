import LocationTraces
import RouteQuery

/// One line of free drive (`route-query trace` without a route): where a fix was matched, on
/// which road, how fast that road may be driven and which way the vehicle heads: what a map
/// view shows. An unmatched fix is a line with `matched: false`, in its place.
public struct FreeDriveFix: Encodable, Sendable {
    public var fix: Int
    public var time: Double
    public var matched: Bool
    /// The matched point, `[lon, lat]` (nil when unmatched).
    public var location: LonLat?
    public var name: String?
    public var ref: String?
    /// The graph's speed for the direction driven, km/h (the profile's: the road's maxspeed
    /// where tagged, its class's otherwise).
    public var speedKmh: Double?
    public var heading: Double?
    /// Metres from the fix to the matched point.
    public var distance: Double?
    /// Which run of the trace (matching) the fix belongs to.
    public var matching: Int?

    enum CodingKeys: String, CodingKey {
        case fix, time, matched, location, name, ref, heading, distance, matching
        case speedKmh = "speed_kmh"
    }
}

extension MapMatcher {
    /// Every fix of the trace matched without a route, in order.
    public func freeDrive(_ request: MatchRequest) -> [FreeDriveFix] {
        let positions = self.positions(request)
        return request.fixes.enumerated().map { i, fix in
            var line = FreeDriveFix(fix: i, time: fix.time, matched: false)
            guard let p = positions.fixes[i] else { return line }
            let edge = data.edges[p.phantom.edge]
            line.matched = true
            line.location = LonLat(lon: (p.phantom.lon * 1e6).rounded() / 1e6, lat: (p.phantom.lat * 1e6).rounded() / 1e6)
            line.name = data.string(edge.name)
            line.ref = data.string(edge.ref)
            line.speedKmh = Double(edge.speed(direction: p.direction)) / 10
            line.heading = (p.heading * 10).rounded() / 10
            line.distance = (p.phantom.distance * 100).rounded() / 100
            line.matching = p.run
            return line
        }
    }
}
