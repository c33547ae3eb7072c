import Foundation
import OffgridCore
import TestSupport
import XCTest

/// `/match/v1/…` on a real `route-query serve`: the CLI's bytes, OSRM's error codes, fuzzed URLs.
final class MatchServiceTests: SampleServerTestCase {
    /// A 1 Hz drive along a real route (the CLI's route, full geometry), every 4th second, 60 fixes
    /// with a seeded 8 m jitter: "lon,lat" texts, times and radiuses.
    func trace(on routeGraph: String? = nil) throws -> (coordinates: [String], times: [Int]) {
        let r = try TestTools.run("route-query", ["route", "--graph", routeGraph ?? graph, "--from", "9.5215,47.1410", "--to", "9.4990,47.0660",
                                                  "--overview", "full", "--geometries", "geojson", "--compact"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let route = try XCTUnwrap(try JSONReader.parse(r.stdout)["routes"]?.arrayValue?.first)
        let points = try XCTUnwrap(route["geometry"]?["coordinates"]?.arrayValue).compactMap { p -> (Double, Double)? in
            guard let a = p.arrayValue, let lon = a[0].doubleValue, let lat = a[1].doubleValue else { return nil }
            return (lon, lat)
        }
        var random = SplitMix64(seed: 5301)
        var out: [String] = [], times: [Int] = []
        for (k, i) in stride(from: 0, to: points.count, by: max(1, points.count / 60)).enumerated().prefix(60) {
            let jitter = { (Double(random.below(2001)) - 1000) / 1000 * 8e-5 }
            out.append(String(format: "%.6f,%.6f", points[i].0 + jitter(), points[i].1 + jitter() * 0.7))
            times.append(1_700_000_000 + 6 * k)
        }
        return (out, times)
    }

    func testMatchBodiesEqualTheCLIs() throws {
        let (points, times) = try trace()
        let coordinates = points.joined(separator: ";")
        let stamps = times.map(String.init).joined(separator: ";")
        let radiuses = Array(repeating: "10", count: points.count).joined(separator: ";")
        let cases: [(String, [String])] = [
            ("/match/v1/driving/\(coordinates)", ["--geometries", "polyline"]),
            ("/match/v1/driving/\(coordinates)?timestamps=\(stamps)&radiuses=\(radiuses)&overview=full&geometries=polyline6",
             ["--timestamps", stamps, "--radiuses", radiuses, "--overview", "full", "--geometries", "polyline6"]),
            ("/match/v1/car/\(coordinates)?timestamps=\(stamps)&steps=true&annotations=duration,distance&tidy=true&gaps=ignore",
             ["--timestamps", stamps, "--geometries", "polyline", "--steps", "--annotations", "duration,distance", "--tidy", "--gaps", "ignore"]),
            ("/match/v1/driving/\(coordinates)?timestamps=\(stamps)&waypoints=0;30;\(points.count - 1)&geometries=geojson",
             ["--timestamps", stamps, "--waypoints", "0;30;\(points.count - 1)", "--geometries", "geojson"]),
        ]
        for (target, args) in cases {
            let reply = try XCTUnwrap(try http.get(target), String(target.prefix(100)))
            XCTAssertEqual(reply.status, 200, reply.body)
            let cli = try TestTools.run("route-query", ["match", "--graph", graph, "--coordinates", coordinates, "--compact"] + args)
            XCTAssertEqual(cli.status, 0, cli.stderr)
            XCTAssertEqual(reply.body + "\n", cli.stdout, String(target.prefix(100)))
            let body = try JSONReader.parse(reply.body)
            XCTAssertEqual(body["code"]?.stringValue, "Ok")
            XCTAssertEqual(body["tracepoints"]?.arrayValue?.count, points.count)
            XCTAssertGreaterThan(try XCTUnwrap(body["matchings"]?.arrayValue?.first?["confidence"]?.doubleValue), 0.5)
        }
    }

    /// Every mode the server has a graph for matches on that graph: a ride along a bicycle route
    /// on `/match/v1/cycling` is the CLI's answer on the bicycle graph, its steps say cycling; a
    /// mode with no graph is osrm-routed's InvalidUrl.
    func testCyclingMatchUsesTheBicycleGraph() throws {
        let bike = try SampleGraph.path(profile: "bicycle")
        server.stop()
        server = try ServerProcess(graph: graph, extra: ["--graph", bike, "--idle-timeout", "2"])
        let (points, times) = try trace(on: bike)
        let coordinates = points.joined(separator: ";")
        let stamps = times.map(String.init).joined(separator: ";")
        let reply = try XCTUnwrap(try http.get("/match/v1/cycling/\(coordinates)?timestamps=\(stamps)&steps=true&geometries=geojson"))
        XCTAssertEqual(reply.status, 200, reply.body)
        let cli = try TestTools.run("route-query", ["match", "--graph", bike, "--coordinates", coordinates, "--timestamps", stamps,
                                                    "--steps", "--geometries", "geojson", "--compact"])
        XCTAssertEqual(cli.status, 0, cli.stderr)
        XCTAssertEqual(reply.body + "\n", cli.stdout)
        let body = try JSONReader.parse(reply.body)
        let matching = try XCTUnwrap(body["matchings"]?.arrayValue?.first)
        XCTAssertGreaterThan(try XCTUnwrap(matching["confidence"]?.doubleValue), 0.8)
        let modes = Set((matching["legs"]?.arrayValue ?? []).flatMap { $0["steps"]?.arrayValue ?? [] }.compactMap { $0["mode"]?.stringValue })
        XCTAssertTrue(modes.contains("cycling"), "\(modes)")
        XCTAssertFalse(modes.contains("driving"), "\(modes)")
        let walking = try XCTUnwrap(try http.get("/match/v1/walking/\(coordinates)"))
        XCTAssertEqual(walking.status, 400)
        XCTAssertEqual(try JSONReader.parse(walking.body)["code"]?.stringValue, "InvalidUrl")
    }

    func testMatchErrorCodes() throws {
        let a = "9.5215,47.1410", b = "9.5220,47.1415"
        let many = Array(repeating: a, count: 101).joined(separator: ";")
        let cases: [(String, String)] = [
            ("/match/v1/driving/\(a)", "InvalidOptions"),
            ("/match/v1/driving/\(many)", "TooBig"),
            ("/match/v1/driving/200,47.1;\(b)", "InvalidValue"),
            ("/match/v1/driving/\(a);\(b)?gaps=sometimes", "InvalidQuery"),
            ("/match/v1/driving/\(a);\(b)?timestamps=1;x", "InvalidQuery"),
            ("/match/v1/driving/\(a);\(b)?timestamps=1", "InvalidOptions"),
            ("/match/v1/driving/\(a);\(b)?timestamps=5;1", "InvalidOptions"),
            ("/match/v1/driving/\(a);\(b)?radiuses=5", "InvalidOptions"),
            ("/match/v1/driving/\(a);\(b)?waypoints=1", "InvalidOptions"),
            ("/match/v1/driving/\(a);\(b)?tidy=perhaps", "InvalidQuery"),
            ("/match/v1/driving/8.0,46.0;8.001,46.001", "NoMatch"),
            ("/match/v2/driving/\(a);\(b)", "InvalidVersion"),
            ("/trip/v1/driving/\(a);\(b)", "InvalidService"),
        ]
        for (target, code) in cases {
            let reply = try XCTUnwrap(try http.get(target), target)
            XCTAssertEqual(reply.status, 400, String(target.prefix(120)))
            XCTAssertEqual(try JSONReader.parse(reply.body)["code"]?.stringValue, code, String(target.prefix(120)))
        }
    }

    /// Thousands of malformed match requests, then a good one answered.
    func testFuzzedMatchURLsNeverHurtTheServer() throws {
        var random = SplitMix64(seed: 53)
        let pieces = ["9.5215,47.1410", "9.5220,47.1415", ";", ",", "?", "&", "=", "timestamps=", "radiuses=", "gaps=", "split",
                      "ignore", "tidy=", "true", "waypoints=", "0", "1", "steps=", "annotations=", "overview=", "geometries=",
                      "polyline(", ")", "%", "%00", "-1", "1e400", "99999999999999999999", "nan", "unlimited", "..", "/"]
        var answered = 0
        for n in 0..<2_000 {
            var target = "/match/v1/driving/"
            for _ in 0..<random.int(0, 14) { target += pieces[random.below(pieces.count)] }
            if n % 100 == 0 { target += Array(repeating: "9.52,47.14", count: random.int(90, 300)).joined(separator: ";") }
            guard let reply = try http.get(target) else { continue }
            answered += 1
            XCTAssertTrue([200, 400, 414].contains(reply.status), "status \(reply.status) for \(target.prefix(80))")
            XCTAssertNotNil(try? JSONReader.parse(reply.body)["code"], "body \(reply.body.prefix(200)) for \(target.prefix(80))")
        }
        XCTAssertGreaterThan(answered, 1_900)
        let (points, _) = try trace()
        let good = try XCTUnwrap(try http.get("/match/v1/driving/" + points.joined(separator: ";")))
        XCTAssertEqual(good.status, 200, good.body)
        XCTAssertTrue(server.process.isRunning)
    }
}
