import Foundation
import LocationTraces
import MapMatching
import OffgridCore
import RouteQuery
import TestSupport
import TileMath
import XCTest

/// The matcher on seeded synthetic traces of real sample routes: share of the true route's
/// length recovered, at the noise levels and intervals.
final class MatchingAccuracyTests: XCTestCase {
    static var data: RoutingData?
    func data() throws -> RoutingData {
        if let d = Self.data { return d }
        let d = try RoutingData(path: try SampleGraphFixture.graphPath())
        Self.data = d
        return d
    }

    /// Matches every trace; returns the recovered share of all their true lengths together.
    func recovered(_ traces: [SyntheticTrace], matcher: MapMatcher) throws -> Double {
        var recovered = 0.0, total = 0.0
        for trace in traces {
            var request = MatchRequest(fixes: trace.fixes)
            request.hasTimestamps = true
            request.geometries = .geojson
            request.overview = .full
            let lines: [[GeoPoint]]
            switch matcher.match(request) {
            case .matched(let response):
                lines = response.matchings.compactMap { $0.geometry?.points?.map { GeoPoint(lon: $0.lon, lat: $0.lat) } }
            case .failure:
                lines = []
            }
            let share = SyntheticTraces.recoveredShare(truth: trace.truth, matched: lines)
            recovered += share.recovered
            total += share.total
        }
        return recovered / total
    }

    func share(sigma: Double, interval: Double, dropout: Double = 0, outliers: Double = 0, seed: UInt64) throws -> Double {
        let d = try data()
        let matcher = try MapMatcher(data: d)
        let traces = SyntheticTraces.make(service: matcher.service, count: 12, seed: seed, sigma: sigma, interval: interval,
                                          dropout: dropout, outliers: outliers)
        XCTAssertEqual(traces.count, 12, "the sample gives 12 routes of 2 km or more")
        let s = try recovered(traces, matcher: matcher)
        print("recovered share σ=\(sigma) m, every \(interval) s, dropout \(dropout), outliers \(outliers): \(s)")
        return s
    }

    func testOneSecondFixesWithFiveMetreNoiseRecoverTheRoute() throws {
        XCTAssertGreaterThanOrEqual(try share(sigma: 5, interval: 1, seed: 53_001), 0.98)
    }

    func testOneSecondFixesWithFifteenMetreNoiseRecoverTheRoute() throws {
        XCTAssertGreaterThanOrEqual(try share(sigma: 15, interval: 1, seed: 53_002), 0.98)
    }

    func testTenSecondFixesRecoverMostOfTheRoute() throws {
        XCTAssertGreaterThanOrEqual(try share(sigma: 15, interval: 10, seed: 53_003), 0.95)
    }

    func testDropoutsAndOutliersStillRecoverMostOfTheRoute() throws {
        XCTAssertGreaterThanOrEqual(try share(sigma: 15, interval: 1, dropout: 0.2, outliers: 0.02, seed: 53_004), 0.95)
    }

    /// A fix with no position, and one with no road within reach, are null tracepoints in
    /// their places; the rest match.
    func testUnusableFixesAreReportedUnmatchedInOrder() throws {
        let matcher = try MapMatcher(data: try data())
        var trace = SyntheticTraces.make(service: matcher.service, count: 1, seed: 53_005, sigma: 5, interval: 1)[0].fixes
        trace[3].lon = .nan
        trace[3].lat = .nan
        trace[5].lon += 0.05   // ~3.8 km east: no road within its search radius (5 m σ)
        var request = MatchRequest(fixes: trace)
        request.hasTimestamps = true
        guard case .matched(let response) = matcher.match(request) else { return XCTFail("no match") }
        XCTAssertEqual(response.tracepoints.count, trace.count)
        XCTAssertNil(response.tracepoints[3] ?? nil)
        XCTAssertNotNil(response.tracepoints[2] ?? nil)
        XCTAssertNotNil(response.tracepoints[4] ?? nil)
        XCTAssertGreaterThan(response.tracepoints.compactMap { $0 }.count, trace.count - 4)
    }

    /// A fix with a reduced (kilometre) accuracy widens its candidates and weighs little: the
    /// match still follows the precise fixes around it.
    func testReducedAccuracyFixWeighsLess() throws {
        let matcher = try MapMatcher(data: try data())
        let base = SyntheticTraces.make(service: matcher.service, count: 1, seed: 53_006, sigma: 5, interval: 2)[0]
        var fixes = base.fixes
        let k = fixes.count / 2
        fixes[k].lat += 300 / 111_000   // 300 m off, but says so
        fixes[k].accuracy = 1_000
        var request = MatchRequest(fixes: fixes)
        request.hasTimestamps = true
        request.geometries = .geojson
        request.overview = .full
        guard case .matched(let response) = matcher.match(request) else { return XCTFail("no match") }
        let lines = response.matchings.compactMap { $0.geometry?.points?.map { GeoPoint(lon: $0.lon, lat: $0.lat) } }
        XCTAssertEqual(response.matchings.count, 1, "one matching: the imprecise fix does not break the trace")
        let share = SyntheticTraces.recoveredShare(truth: base.truth, matched: lines)
        XCTAssertGreaterThan(share.recovered / share.total, 0.97)
        let t = try XCTUnwrap(response.tracepoints[k] ?? nil)
        XCTAssertGreaterThan(t.distance, 100, "matched where the road is, not where the fix says")
    }

    /// A gap of more than a minute splits the trace into two matchings (gaps=split); with
    /// gaps=ignore the same trace is one.
    func testLongTimeGapSplitsTheTrace() throws {
        let matcher = try MapMatcher(data: try data())
        var fixes = SyntheticTraces.make(service: matcher.service, count: 1, seed: 53_007, sigma: 5, interval: 1, minMeters: 3_000)[0].fixes
        let k = fixes.count / 2
        for i in k..<fixes.count { fixes[i].time += 600 }
        var request = MatchRequest(fixes: fixes)
        request.hasTimestamps = true
        guard case .matched(let split) = matcher.match(request) else { return XCTFail("no match") }
        XCTAssertEqual(split.matchings.count, 2)
        XCTAssertEqual(split.tracepoints[k - 1]?.matchingsIndex, 0)
        XCTAssertEqual(split.tracepoints[k]?.matchingsIndex, 1)
        XCTAssertEqual(split.tracepoints[k]?.waypointIndex, 0)
        request.gaps = .ignore
        guard case .matched(let joined) = matcher.match(request) else { return XCTFail("no match") }
        XCTAssertEqual(joined.matchings.count, 1)
        XCTAssertEqual(joined.matchings[0].legs.count, joined.tracepoints.compactMap { $0 }.count - 1, "a leg between matched fixes")
        XCTAssertGreaterThan(joined.tracepoints.compactMap { $0 }.count, fixes.count * 95 / 100)
        XCTAssertGreaterThan(joined.matchings[0].confidence, 0.5)
    }

    /// Waypoints make the legs; other fixes are tracepoints without a waypoint index.
    func testWaypointsChooseTheLegs() throws {
        let matcher = try MapMatcher(data: try data())
        let fixes = SyntheticTraces.make(service: matcher.service, count: 1, seed: 53_008, sigma: 5, interval: 1)[0].fixes
        var request = MatchRequest(fixes: fixes)
        request.hasTimestamps = true
        request.waypoints = [0, fixes.count / 2, fixes.count - 1]
        guard case .matched(let response) = matcher.match(request) else { return XCTFail("no match") }
        XCTAssertEqual(response.matchings.count, 1)
        XCTAssertEqual(response.matchings[0].legs.count, 2)
        XCTAssertEqual(response.tracepoints[fixes.count / 2]?.waypointIndex, 1)
        XCTAssertNil(response.tracepoints[1]?.waypointIndex)
        request.waypoints = [1, fixes.count - 1]
        guard case .failure(let f) = matcher.match(request) else { return XCTFail("waypoints without the first fix accepted") }
        XCTAssertEqual(f.code, "InvalidOptions")
    }

    /// Two fixes 9 km apart ten minutes apart (gaps=ignore): the transition search settles
    /// thousands of road pieces, growing its table mid-search, and finds the road between.
    func testFarApartFixesAreMatchedAlongTheRoadBetween() throws {
        let matcher = try MapMatcher(data: try data())
        var request = MatchRequest(coordinates: [(9.5215, 47.1410), (9.4990, 47.0660)], timestamps: [0, 900])
        request.radiuses = [30, 30]
        request.gaps = .ignore
        guard case .matched(let response) = matcher.match(request) else { return XCTFail("no match") }
        XCTAssertEqual(response.matchings.count, 1)
        XCTAssertGreaterThan(response.matchings[0].distance, 8_000)
        XCTAssertGreaterThan(matcher.settledNodes, 1_000)
    }

    /// Far from every road: NoMatch.
    func testTraceFarFromRoadsIsNoMatch() throws {
        let matcher = try MapMatcher(data: try data())
        let request = MatchRequest(coordinates: [(0.0, 0.0), (0.001, 0.001), (0.002, 0.002)])
        guard case .failure(let f) = matcher.match(request) else { return XCTFail("matched the sea") }
        XCTAssertEqual(f.code, "NoMatch")
    }
}
