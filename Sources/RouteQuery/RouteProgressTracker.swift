import Foundation
import TileMath

/// Where a device is along a route, after one location fix.
public struct RouteProgress: Equatable, Sendable {
    /// Along the route from its start to the fix's projection onto it.
    public var distanceAlongMeters: Double
    public var distanceRemainingMeters: Double
    /// From the fix to the nearest point of the route (the matched point while on route).
    public var distanceFromRouteMeters: Double
    /// distanceAlong / route length, in 0 ... 1 (1 for a route of zero length).
    public var fractionTraveled: Double
    /// Index of the matched route segment (from point i to i + 1).
    public var segmentIndex: Int
    /// The matched point on the route.
    public var matchedLon: Double
    public var matchedLat: Double
    /// Set once `consecutiveFixes` fixes in a row were farther than the threshold; cleared when
    /// a fix is near the route again.
    public var isOffRoute: Bool
    /// True only on the fix that turned `isOffRoute` on, so a caller requests one reroute.
    public var offRouteJustDetected: Bool
}

/// Follows a device along a route geometry: progress (monotone while on route) and off-route
/// detection with hysteresis, as navigation SDKs do before asking for a reroute.
///
/// Matching searches *forward* from the last matched segment, within a window of what the
/// device can have driven since the last fix, and prefers earlier matches slightly, so a route
/// that passes the same place twice (out and back, a loop) is matched to the pass being driven.
/// Only when nothing in the window is within the off-route threshold does it search the whole
/// route (the device rejoined elsewhere); if that finds nothing near either, progress stays put.
public struct RouteProgressTracker {
    /// A fix counts as far when it is farther than max(offRouteMeters, its accuracy capped at
    /// `maximumAccuracyAllowanceMeters`) from the route.
    public var offRouteMeters: Double
    public var consecutiveFixes: Int
    /// A poor fix (accuracy 300 m) widens the threshold, but never beyond this.
    public var maximumAccuracyAllowanceMeters = 200.0
    /// The forward window: this much plus `windowSpeedMetersPerSecond` × seconds since the last fix.
    public var windowBaseMeters = 500.0
    public var windowSpeedMetersPerSecond = 70.0
    /// Score = distance from route + this × metres ahead of the last match: among nearly equally
    /// near candidates (a route doubling back on itself), the earlier one wins.
    public var aheadPenalty = 0.05

    public private(set) var route: [GeoPoint]
    /// Along-route distance of every route point (haversine), cumulative.
    public private(set) var cumulativeMeters: [Double]
    private var lastSegment = 0
    private var lastAlong = 0.0
    private var lastTime: Double?
    private var farCount = 0
    private var offRoute = false

    public init(route: [GeoPoint], offRouteMeters: Double = 50, consecutiveFixes: Int = 3) {
        self.offRouteMeters = offRouteMeters
        self.consecutiveFixes = max(1, consecutiveFixes)
        self.route = []
        cumulativeMeters = []
        reset(route: route)
    }

    /// A new route (after a reroute): progress and off-route state start over.
    public mutating func reset(route newRoute: [GeoPoint]) {
        route = newRoute
        cumulativeMeters = [0]
        cumulativeMeters.reserveCapacity(newRoute.count)
        for (a, b) in zip(newRoute, newRoute.dropFirst()) { cumulativeMeters.append(cumulativeMeters.last! + haversineMeters(a, b)) }
        lastSegment = 0
        lastAlong = 0
        lastTime = nil
        farCount = 0
        offRoute = false
    }

    public var routeLengthMeters: Double { cumulativeMeters.last ?? 0 }

    public mutating func update(_ fix: LocationFix) -> RouteProgress {
        let here = GeoPoint(lon: fix.lon, lat: fix.lat)
        let threshold = max(offRouteMeters, min(fix.accuracy ?? 0, maximumAccuracyAllowanceMeters))
        let elapsed = lastTime.map { max(0, fix.time - $0) } ?? 0
        let window = windowBaseMeters + windowSpeedMetersPerSecond * elapsed
        lastTime = fix.time

        var match = nearest(to: here, segments: lastSegment..<segmentCount, aheadLimit: lastAlong + window, penalized: true)
        if match.map({ $0.distance > threshold }) ?? true {
            let anywhere = nearest(to: here, segments: 0..<segmentCount, aheadLimit: .infinity, penalized: false)
            if let anywhere, anywhere.distance <= threshold || match == nil { match = anywhere }
            if let m = match, m.distance > threshold {
                // Far from everything: report how far, but do not move along the route.
                match = Match(segment: lastSegment, along: lastAlong, distance: min(m.distance, anywhere?.distance ?? .infinity),
                              point: pointAt(along: lastAlong, segment: lastSegment))
            }
        }
        guard let m = match else {
            // An empty route: every fix is off it.
            return progress(along: 0, segment: 0, distance: .infinity, point: here, far: true)
        }
        let along: Double
        if m.segment >= lastSegment && m.distance <= threshold {
            // Noise may put a projection a little behind the last one: progress never goes back
            // while driving forward along the route.
            along = max(lastAlong, m.along)
        } else {
            along = m.along
        }
        lastSegment = m.segment
        lastAlong = along
        return progress(along: along, segment: m.segment, distance: m.distance,
                        point: along == m.along ? m.point : pointAt(along: along, segment: m.segment), far: m.distance > threshold)
    }

    private var segmentCount: Int { max(0, route.count - 1) + (route.count == 1 ? 1 : 0) }

    private struct Match {
        var segment: Int
        var along: Double
        var distance: Double
        var point: GeoPoint
    }

    /// The best projection onto `segments`, stopping at the first segment starting beyond
    /// `aheadLimit` metres along the route.
    private func nearest(to p: GeoPoint, segments: Range<Int>, aheadLimit: Double, penalized: Bool) -> Match? {
        let projection = LocalProjection(lon: p.lon, lat: p.lat)
        var best: Match?
        var bestScore = Double.infinity
        for i in segments {
            if cumulativeMeters[i] > aheadLimit && best != nil { break }
            let a = route[i], b = route[min(i + 1, route.count - 1)]
            let (t, _) = projection.closest(aLon: a.lon, aLat: a.lat, bLon: b.lon, bLat: b.lat)
            let q = GeoPoint(lon: a.lon + t * (b.lon - a.lon), lat: a.lat + t * (b.lat - a.lat))
            let distance = haversineMeters(p, q)
            let along = cumulativeMeters[i] + t * (cumulativeMeters[min(i + 1, route.count - 1)] - cumulativeMeters[i])
            let score = distance + (penalized ? aheadPenalty * max(0, along - lastAlong) : 0)
            if score < bestScore {
                bestScore = score
                best = Match(segment: i, along: along, distance: distance, point: q)
            }
        }
        return best
    }

    private func pointAt(along: Double, segment i: Int) -> GeoPoint {
        guard !route.isEmpty else { return GeoPoint(lon: 0, lat: 0) }
        let j = min(i + 1, route.count - 1)
        let length = cumulativeMeters[j] - cumulativeMeters[i]
        let t = length > 0 ? min(1, max(0, (along - cumulativeMeters[i]) / length)) : 0
        return GeoPoint(lon: route[i].lon + t * (route[j].lon - route[i].lon), lat: route[i].lat + t * (route[j].lat - route[i].lat))
    }

    /// Applies the off-route hysteresis and packages the answer.
    private mutating func progress(along: Double, segment: Int, distance: Double, point: GeoPoint, far: Bool) -> RouteProgress {
        var justDetected = false
        if far {
            farCount += 1
            if farCount >= consecutiveFixes && !offRoute {
                offRoute = true
                justDetected = true
            }
        } else {
            farCount = 0
            offRoute = false
        }
        let total = routeLengthMeters
        return RouteProgress(distanceAlongMeters: along, distanceRemainingMeters: max(0, total - along), distanceFromRouteMeters: distance,
                             fractionTraveled: total > 0 ? min(1, along / total) : 1, segmentIndex: segment,
                             matchedLon: point.lon, matchedLat: point.lat, isOffRoute: offRoute, offRouteJustDetected: justDetected)
    }
}
