import Foundation
import LocationTraces
import MapMatching
import OffgridCore
import RouteQuery
import XCTest

/// The direct JSON writer of match answers against the generic `Encodable` path it replaces
/// for batches and `/match`: the same bytes on many matches, in every output shape.
final class MatchJSONWriterTests: XCTestCase {
    func written(_ answer: MatchAnswer) -> String {
        var out = JSONBuffer()
        answer.writeCompactJSON(to: &out)
        return String(decoding: out.bytes, as: UTF8.self)
    }

    func testWriterEqualsTheEncoderOnSeededMatches() throws {
        let data = try RoutingData(path: try SampleGraphFixture.graphPath())
        let matcher = try MapMatcher(data: data)
        let traces = SyntheticTraces.make(service: matcher.service, count: 24, seed: 53, sigma: 15, interval: 4)
        XCTAssertEqual(traces.count, 24)
        var compared = 0, withNulls = 0
        for (i, trace) in traces.enumerated() {
            var request = MatchRequest(fixes: trace.fixes)
            request.hasTimestamps = true
            // Every output shape in turn: geometries, overview, steps, annotations, waypoints,
            // an unusable fix (null tracepoint) and a request that fails.
            request.geometries = [.polyline, .polyline6, .geojson][i % 3]
            request.overview = [.full, .simplified, .false][i % 3 == 0 ? 0 : (i / 3) % 3]
            request.steps = i % 2 == 0
            request.annotations = i % 4 == 1 ? [.duration, .distance, .speed, .weight, .datasources] : []
            if i % 5 == 2 { request.waypoints = [0, request.fixes.count / 2, request.fixes.count - 1] }
            if i % 6 == 3 { request.fixes[1].lon = .nan }
            if i % 7 == 4 { request.fixes = Array(request.fixes.prefix(1)) }
            let answer = matcher.match(request)
            let expected = try JSONEncoding.string(answer, pretty: false)
            XCTAssertEqual(written(answer), expected, "trace \(i)")
            if expected.contains("null") { withNulls += 1 }
            compared += 1
        }
        XCTAssertEqual(compared, 24)
        XCTAssertGreaterThan(withNulls, 2, "null tracepoints and waypoint indexes were written")
    }
}
