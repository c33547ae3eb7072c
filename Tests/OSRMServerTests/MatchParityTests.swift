import Foundation
import OffgridCore
import TestSupport
import XCTest

extension OSRMRoutedParityTests {
    /// `/match` beside osrm-routed's: bad requests get the same codes and statuses, and a noisy
    /// trace along a real route is matched by both to routes of about the same length.
    func testMatchAgreesWithOSRMRouted() throws {
        let routedClient = try startOSRMRouted()
        let graph = try SampleGraph.path()
        let server = try ServerProcess(graph: graph)
        ours = server
        let oursClient = RawHTTP(port: server.port)

        let r = try TestTools.run("route-query", ["route", "--graph", graph, "--from", "9.5215,47.1410", "--to", "9.4990,47.0660",
                                                  "--overview", "full", "--geometries", "geojson", "--compact"])
        let route = try XCTUnwrap(try JSONReader.parse(r.stdout)["routes"]?.arrayValue?.first)
        let points = try XCTUnwrap(route["geometry"]?["coordinates"]?.arrayValue).compactMap { p -> (Double, Double)? in
            guard let a = p.arrayValue, let lon = a[0].doubleValue, let lat = a[1].doubleValue else { return nil }
            return (lon, lat)
        }
        var random = SplitMix64(seed: 5302)
        var coordinates: [String] = [], stamps: [String] = []
        for (k, i) in stride(from: 0, to: points.count, by: max(1, points.count / 90)).enumerated().prefix(90) {
            let jitter = { (Double(random.below(2001)) - 1000) / 1000 * 6e-5 }
            coordinates.append(String(format: "%.6f,%.6f", points[i].0 + jitter(), points[i].1 + jitter() * 0.7))
            stamps.append(String(1_700_000_000 + 8 * k))
        }
        let target = "/match/v1/driving/\(coordinates.joined(separator: ";"))?timestamps=\(stamps.joined(separator: ";"))"
            + "&radiuses=\(Array(repeating: "10", count: coordinates.count).joined(separator: ";"))&overview=false"
        let a = try JSONReader.parse(try XCTUnwrap(try oursClient.get(target)).body)
        let b = try JSONReader.parse(try XCTUnwrap(try routedClient.get(target)).body)
        XCTAssertEqual(a["code"]?.stringValue, "Ok")
        XCTAssertEqual(b["code"]?.stringValue, "Ok")
        func length(_ v: JSONValue) -> Double { (v["matchings"]?.arrayValue ?? []).compactMap { $0["distance"]?.doubleValue }.reduce(0, +) }
        XCTAssertEqual(length(a), length(b), accuracy: 0.1 * length(b), "matched lengths: ours \(length(a)) m, osrm-routed \(length(b)) m")
        XCTAssertEqual(a["tracepoints"]?.arrayValue?.count, b["tracepoints"]?.arrayValue?.count)

        let p = "9.5215,47.1410", q = "9.5220,47.1415"
        let bad = ["/match/v1/driving/\(p)", "/match/v1/driving/200,47.1;\(q)", "/match/v1/driving/\(p);\(q)?gaps=sometimes",
                   "/match/v1/driving/\(p);\(q)?timestamps=1;x", "/match/v1/driving/\(p);\(q)?timestamps=1",
                   "/match/v1/driving/\(p);\(q)?radiuses=5", "/match/v1/driving/\(p);\(q)?tidy=perhaps",
                   "/match/v1/driving/" + Array(repeating: p, count: 101).joined(separator: ";"), "/match/v2/driving/\(p);\(q)"]
        for target in bad {
            let ra = try XCTUnwrap(try oursClient.get(target)), rb = try XCTUnwrap(try routedClient.get(target))
            XCTAssertEqual(ra.status, rb.status, target)
            XCTAssertEqual(try JSONReader.parse(ra.body)["code"]?.stringValue, try JSONReader.parse(rb.body)["code"]?.stringValue,
                           "\(String(target.prefix(100))): \(ra.body) vs osrm-routed \(rb.body)")
        }
    }
}
