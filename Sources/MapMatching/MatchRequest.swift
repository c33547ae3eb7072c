import LocationTraces
import RouteQuery

/// What a match query asks: OSRM's match service parameters over a trace of fixes.
public struct MatchRequest {
    public enum Gaps: String, CaseIterable, Sendable { case split, ignore }

    /// The trace, in time order. A fix whose position is not finite or out of range is reported
    /// unmatched (null tracepoint) in its place.
    public var fixes: [LocationFix]
    /// Whether the fixes' times are real (`timestamps=`, a GPX `time`…): they bound how far the
    /// vehicle can have driven between fixes and where long gaps split the trace.
    public var hasTimestamps = false
    /// Per fix: the search radius and standard deviation of its position, metres (OSRM's
    /// `radiuses=`); nil for the fix's own accuracy, or `MatchParameters.defaultAccuracy`.
    public var radiuses: [Double?] = []
    public var gaps = Gaps.split
    /// Drop fixes bunched closer than `MatchParameters.tidyMeters` to the last kept one first.
    public var tidy = false
    /// Indexes of the fixes that become the route's waypoints (legs run between them); nil for
    /// every matched fix. The first and last fix must be among them.
    public var waypoints: [Int]?
    public var steps = false
    public var geometries = RouteRequest.Geometries.polyline6
    public var overview = RouteRequest.Overview.simplified
    public var annotations: LegAnnotation.Kinds = []
    public var parameters = MatchParameters()

    public init(fixes: [LocationFix]) { self.fixes = fixes }

    /// OSRM's request: coordinates with optional timestamps (seconds) and radiuses.
    public init(coordinates: [(lon: Double, lat: Double)], timestamps: [Double]? = nil) {
        fixes = coordinates.enumerated().map { i, c in
            LocationFix(time: timestamps?[i] ?? Double(i), lon: c.lon, lat: c.lat)
        }
        hasTimestamps = timestamps != nil
    }

    /// Why the request cannot be answered (OSRM's InvalidOptions / InvalidValue), or nil.
    public func validationFailure() -> QueryFailure? {
        func invalid(_ m: String) -> QueryFailure { QueryFailure(code: "InvalidOptions", message: m) }
        guard fixes.count >= 2 else { return invalid("Number of coordinates needs to be at least two.") }
        if !radiuses.isEmpty && radiuses.count != fixes.count {
            return invalid("Number of elements in radiuses size \(radiuses.count) does not match coordinate size \(fixes.count)")
        }
        for r in radiuses.compactMap({ $0 }) where !(r >= 0) { return invalid("radius \(r) is not a non-negative number") }
        if hasTimestamps {
            for i in 1..<fixes.count where !(fixes[i].time >= fixes[i - 1].time) {
                return invalid("Timestamps need to be monotonically increasing (fix \(i))")
            }
        }
        if let waypoints {
            guard waypoints.first == 0, waypoints.last == fixes.count - 1 else {
                return invalid("First and last coordinates must be specified as waypoints.")
            }
            for (a, b) in zip(waypoints, waypoints.dropFirst()) where !(a < b) {
                return invalid("Waypoints must be increasing indexes of coordinates")
            }
        }
        return nil
    }
}

/// The model's knobs (docs/MATCHING.md). The defaults follow OSRM's and Newson & Krumm's.
public struct MatchParameters: Sendable {
    /// Position standard deviation of a fix with no accuracy and no radius (OSRM: 5 m).
    public var defaultAccuracy = 5.0
    /// Candidates are searched within this many standard deviations of a fix (OSRM: 3)…
    public var radiusMultiplier = 3.0
    /// …but never closer than this, nor farther than `maxSearchRadius`.
    public var minSearchRadius = 10.0
    public var maxSearchRadius = 2_000.0
    /// Most candidate roads per fix (each usable direction is a state of its own).
    public var maxCandidates = 16
    /// The transition's scale β (metres): how much a route may differ in length from the
    /// straight line between the fixes before a candidate pair becomes unlikely.
    public var beta = 10.0
    /// …but at least this many times the fixes' σ (the straight line between noisy fixes is off
    /// by about σ√2 itself).
    public var betaPerSigma = 1.0
    /// The fastest a vehicle is assumed to go (m/s; OSRM: 180 km/h), bounding the route between
    /// two timed fixes at the straight line plus speed × time.
    public var maxSpeed = 50.0
    /// Between untimed fixes the route may exceed the straight line by this factor of it plus
    /// `untimedSlack` metres.
    public var untimedDetourFactor = 2.0
    public var untimedSlack = 200.0
    /// With gaps=split, a time gap longer than this (seconds; OSRM: 60) or a jump farther than
    /// `maxGapMeters` starts a new matching.
    public var maxGapSeconds = 60.0
    public var maxGapMeters = 2_000.0
    /// Fixes that cannot follow the matched ones in a row before the matching is split there
    /// (the first of them then starts the next matching); fewer are reported unmatched.
    public var maxSkippedFixes = 4
    /// A fix a little behind the previous one on the same road (noise) counts as standing still
    /// when it is within this many standard deviations behind.
    public var backwardTolerance = 3.0
    /// States of a fix whose score is this far (natural log) below the fix's best are not
    /// searched from: they cannot win against it (e⁻²⁰) unless every better one dead-ends.
    public var beamWidth = 20.0
    /// tidy: fixes closer than this to the last kept one are dropped (reported unmatched).
    public var tidyMeters = 10.0

    public init() {}
}
