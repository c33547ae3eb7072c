import LocationTraces
import RouteQuery
import TileMath

/// One hidden state of the model: a road position a fix may stand for, driven in one direction.
struct MatchState {
    /// The snapped point, usable only in `direction` (`Phantom.only(direction:)`).
    var phantom: Phantom
    var rank: UInt32
    var edgeDirection: UInt32
    /// Share of the edge behind the point in the direction driven.
    var share: Double
    /// Direction of travel there, degrees clockwise from north.
    var heading: Double
    /// log P(fix | state): the Gaussian of the distance with the fix's σ (constant terms left out).
    var emission: Double
}

/// Every fix's states in one flat array (`first[i] ..< first[i + 1]`), made from the snapper's
/// nearest roads within the fix's search radius: memory follows the trace.
struct MatchCandidates {
    var states: [MatchState] = []
    var first: [Int] = [0]
    /// Per fix: its position's standard deviation (metres), and whether it has a usable position.
    var sigma: [Double] = []
    var usable: [Bool] = []

    func range(_ fix: Int) -> Range<Int> { first[fix]..<first[fix + 1] }

    /// `skip[i]`: leave fix i out (tidy). A fix with no finite position in range is not usable.
    init(request: MatchRequest, snapper: Snapper, skip: [Bool]) {
        let p = request.parameters
        states.reserveCapacity(request.fixes.count * 4)
        first.reserveCapacity(request.fixes.count + 1)
        for (i, fix) in request.fixes.enumerated() {
            let givenRadius = request.radiuses.isEmpty ? nil : request.radiuses[i]
            let s = max(1, givenRadius ?? fix.accuracy ?? p.defaultAccuracy)
            sigma.append(s)
            let valid = fix.lon.isFinite && fix.lat.isFinite && abs(fix.lon) <= 180 && abs(fix.lat) <= 90 && s.isFinite
            usable.append(valid && !skip[i])
            if valid && !skip[i] {
                let radius = min(p.maxSearchRadius, max(p.minSearchRadius, p.radiusMultiplier * s))
                for c in snapper.candidates(lon: fix.lon, lat: fix.lat, radiusMeters: radius, limit: p.maxCandidates) {
                    let phantom = Phantom(candidate: c)
                    let z = c.distanceMeters / s
                    phantom.forEachUsableDirection { d, r in
                        states.append(MatchState(phantom: phantom.only(direction: d), rank: r, edgeDirection: UInt32(2 * c.edge + d),
                                                 share: phantom.share(direction: d),
                                                 heading: d == 0 ? c.bearingDegrees : (c.bearingDegrees + 180).truncatingRemainder(dividingBy: 360),
                                                 emission: -0.5 * z * z))
                    }
                }
            }
            first.append(states.count)
        }
    }
}

extension Phantom {
    /// `body(direction, rank)` for the usable directions, along the shape first.
    func forEachUsableDirection(_ body: (Int, UInt32) -> Void) {
        if forwardRank != UInt32.max { body(0, forwardRank) }
        if backwardRank != UInt32.max { body(1, backwardRank) }
    }
}

/// Metres between two fixes along the great circle.
@inline(__always) func greatCircle(_ a: LocationFix, _ b: LocationFix) -> Double {
    haversineMeters(GeoPoint(lon: a.lon, lat: a.lat), GeoPoint(lon: b.lon, lat: b.lat))
}
