import Foundation
import OffgridCore
import TestSupport
import XCTest

/// `route-query trace --route` follows the route by the matcher's road positions: noisy fixes
/// along the route raise fewer false off-route alarms than the raw fixes do, and a real detour
/// is still caught once, where it happens.
final class RouteReplayMatchingTests: XCTestCase {
    /// Seeded fixes every second along `route` (GeoJSON points) at 12 m/s with Gaussian noise
    /// sigma (metres), the accuracy column saying sigma: CSV text.
    func noisyDrive(_ route: [(Double, Double)], sigma: Double, seed: UInt64) -> String {
        var random = SplitMix64(seed: seed)
        func uniform() -> Double { Double(random.next() >> 11) / Double(1 << 53) }
        func gaussian() -> Double { (-2 * log(max(1e-300, uniform()))).squareRoot() * cos(2 * .pi * uniform()) }
        let metresPerDegree = 6_371_008.8 * .pi / 180
        func metres(_ a: (Double, Double), _ b: (Double, Double)) -> Double {
            hypot((b.0 - a.0) * cos(a.1 * .pi / 180), b.1 - a.1) * metresPerDegree
        }
        var along = [0.0]
        for (a, b) in zip(route, route.dropFirst()) { along.append(along.last! + metres(a, b)) }
        var csv = "time,lon,lat,accuracy\n"
        var t = 0.0, i = 0
        while t * 12 <= along.last! {
            let s = t * 12
            while along[i + 1] < s { i += 1 }
            let f = (s - along[i]) / max(1e-9, along[i + 1] - along[i])
            let lat = route[i].1 + f * (route[i + 1].1 - route[i].1)
            let lon = route[i].0 + f * (route[i + 1].0 - route[i].0)
            let east = sigma * gaussian(), north = sigma * gaussian()
            csv += String(format: "%.0f,%.7f,%.7f,%g\n", 1_700_000_000 + t, lon + east / (metresPerDegree * cos(lat * .pi / 180)),
                          lat + north / metresPerDegree, sigma)
            t += 1
        }
        return csv
    }

    func offRouteCount(_ args: [String]) throws -> (offRoute: Int, matched: Int, progress: Int) {
        let r = try TestTools.run("route-query", ["trace"] + args)
        XCTAssertEqual(r.status, 0, r.stderr)
        let events = r.stdout.split(separator: "\n").compactMap { try? JSONReader.parse(String($0)) }
        let progress = events.filter { $0["event"] == "progress" }
        return (events.filter { $0["event"] == "off-route" }.count, progress.filter { $0["matchedLocation"] != nil }.count, progress.count)
    }

    func testMatchedPositionsRaiseFewerFalseAlarmsThanRawFixes() throws {
        let graph = try SampleGraphFixture.graphPath()
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("replay-matching-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let route = try TestTools.run("route-query", ["route", "--graph", graph, "--from", "9.5215,47.1410", "--to", "9.4990,47.0660",
                                                      "--geometries", "geojson", "--overview", "full"])
        XCTAssertEqual(route.status, 0, route.stderr)
        let routeFile = dir.appendingPathComponent("route.json").path
        try Data(route.stdout.utf8).write(to: URL(fileURLWithPath: routeFile))
        let points = try XCTUnwrap(JSONReader.parse(route.stdout)["routes"]?.arrayValue?.first?["geometry"]?["coordinates"]?.arrayValue)
            .compactMap { p -> (Double, Double)? in
                guard let pair = p.arrayValue, pair.count == 2, let lon = pair[0].doubleValue, let lat = pair[1].doubleValue else { return nil }
                return (lon, lat)
            }
        XCTAssertGreaterThan(points.count, 50)
        var raw = 0, matched = 0
        for seed in UInt64(1)...6 {
            let trace = dir.appendingPathComponent("drive-\(seed).csv").path
            try Data(noisyDrive(points, sigma: 20, seed: seed).utf8).write(to: URL(fileURLWithPath: trace))
            let common = ["--graph", graph, "--route", routeFile, "--trace", trace, "--off-route-m", "30"]
            let m = try offRouteCount(common)
            XCTAssertGreaterThan(m.matched, m.progress * 95 / 100, "nearly every fix followed by its matched position")
            matched += m.offRoute
            let r = try offRouteCount(common + ["--no-matching"])
            XCTAssertEqual(r.matched, 0)
            raw += r.offRoute
        }
        XCTAssertGreaterThan(raw, 2, "the raw fixes leave the route now and then (the case the matcher is for)")
        XCTAssertLessThan(matched * 2, raw, "matched positions: \(matched) false alarms, raw fixes: \(raw)")
        // The detour of samples/detour-trace.csv is still caught once, at the same fix as raw fixes.
        let detour = TestTools.path("samples/detour-trace.csv")
        let withMatcher = try TestTools.run("route-query", ["trace", "--graph", graph, "--route", routeFile, "--trace", detour])
        let withoutMatcher = try TestTools.run("route-query", ["trace", "--graph", graph, "--route", routeFile, "--trace", detour, "--no-matching"])
        func offRouteFixes(_ out: String) -> [Int] {
            out.split(separator: "\n").compactMap { try? JSONReader.parse(String($0)) }.filter { $0["event"] == "off-route" }
                .compactMap { $0["fix"]?.intValue }
        }
        XCTAssertEqual(offRouteFixes(withMatcher.stdout).count, 1)
        XCTAssertEqual(offRouteFixes(withMatcher.stdout), offRouteFixes(withoutMatcher.stdout))
        let bad = try TestTools.run("route-query", ["trace", "--graph", graph, "--route", routeFile, "--trace", detour, "--matching-lag", "-1"])
        XCTAssertNotEqual(bad.status, 0)
    }
}
