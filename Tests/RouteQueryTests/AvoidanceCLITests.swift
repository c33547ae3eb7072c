import Foundation
import OffgridCore
import TestSupport
import XCTest

/// `route-query … --exclude/--avoid` as users run it: answers that change, answers that cannot,
/// and one clear line for bad values and bad closure files.
final class AvoidanceCLITests: XCTestCase {
    let vaduz = "9.5215,47.1410", schaan = "9.4990,47.0660", malbun = "9.5900,47.1050"

    func run(_ args: [String], stdin: String? = nil) throws -> (status: Int32, stdout: String, stderr: String) {
        try TestTools.run("route-query", args, stdin: stdin)
    }

    func json(_ args: [String]) throws -> JSONValue {
        let r = try run(args + ["--graph", try SampleGraphFixture.graphPath(), "--compact"])
        XCTAssertEqual(r.status, 0, r.stderr)
        return try JSONReader.parse(r.stdout)
    }

    func temporary(_ name: String, _ text: String) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("avoid-\(getpid())-\(name)")
        try Data(text.utf8).write(to: url)
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url.path
    }

    /// Malbun is reached only through the Gnalp–Steg tunnel: without tunnels there is no route.
    func testExcludeChangesOrForbidsRoutes() throws {
        let plain = try json(["route", "--from", vaduz, "--to", malbun])
        XCTAssertEqual(plain["code"], "Ok")
        let noTunnel = try json(["route", "--from", vaduz, "--to", malbun, "--exclude", "tunnel"])
        XCTAssertEqual(noTunnel["code"], "NoRoute")
        let all = try json(["route", "--from", vaduz, "--to", schaan, "--exclude", "motorway,toll,ferry,unpaved,tunnel"])
        XCTAssertEqual(all["code"], "Ok")
        XCTAssertGreaterThanOrEqual(all["routes"]?[0]?["duration"]?.doubleValue ?? 0,
                                    try json(["route", "--from", vaduz, "--to", schaan])["routes"]?[0]?["duration"]?.doubleValue ?? .infinity)
        // Table and reroute answer under the same metric as route.
        let table = try json(["table", "--sources", vaduz, "--destinations", "\(malbun);\(schaan)", "--exclude", "tunnel"])
        XCTAssertEqual(table["durations"]?[0]?[0], .null)
        XCTAssertEqual(table["durations"]?[0]?[1]?.doubleValue, all["routes"]?[0]?["duration"]?.doubleValue.map { ($0 * 10).rounded() / 10 } ?? nil,
                       "the table's duration equals the route's when nothing the set names lies on it")
        let reroute = try json(["reroute", "--at", vaduz, "--to", malbun, "--exclude", "tunnel"])
        XCTAssertEqual(reroute["code"], "NoRoute")
    }

    /// A closed polygon around a point of the route, and a closed point: the route changes and
    /// is slower; nearest never answers a closed road.
    func testClosureFilesChangeRoutes() throws {
        let plain = try json(["route", "--from", vaduz, "--to", schaan, "--overview", "full", "--geometries", "geojson"])
        let line = try XCTUnwrap(plain["routes"]?[0]?["geometry"]?["coordinates"]?.arrayValue)
        let mid = try XCTUnwrap(line[line.count / 2].arrayValue?.compactMap(\.doubleValue))
        let d = 0.002
        let polygon = """
        {"type":"FeatureCollection","features":[
          {"type":"Feature","properties":{},"geometry":{"type":"Polygon","coordinates":[[[\(mid[0] - d),\(mid[1] - d)],[\(mid[0] + d),\(mid[1] - d)],[\(mid[0] + d),\(mid[1] + d)],[\(mid[0] - d),\(mid[1] + d)],[\(mid[0] - d),\(mid[1] - d)]]]}},
          {"type":"Feature","properties":{"radius":25},"geometry":{"type":"Point","coordinates":[\(mid[0]),\(mid[1])]}}
        ]}
        """
        let file = try temporary("closures.geojson", polygon)
        let avoided = try json(["route", "--from", vaduz, "--to", schaan, "--overview", "full", "--geometries", "geojson", "--avoid", file])
        XCTAssertEqual(avoided["code"], "Ok")
        XCTAssertGreaterThan(avoided["routes"]?[0]?["duration"]?.doubleValue ?? 0, plain["routes"]?[0]?["duration"]?.doubleValue ?? .infinity)
        for p in try XCTUnwrap(avoided["routes"]?[0]?["geometry"]?["coordinates"]?.arrayValue) {
            let c = try XCTUnwrap(p.arrayValue?.compactMap(\.doubleValue))
            XCTAssertFalse(abs(c[0] - mid[0]) < d * 0.99 && abs(c[1] - mid[1]) < d * 0.99, "the route enters the closed square at \(c)")
        }
        let nearestPlain = try json(["nearest", "--at", "\(mid[0]),\(mid[1])"])
        XCTAssertLessThan(nearestPlain["waypoints"]?[0]?["distance"]?.doubleValue ?? .infinity, 30)
        let nearestClosed = try json(["nearest", "--at", "\(mid[0]),\(mid[1])", "--avoid", file])
        XCTAssertGreaterThan(nearestClosed["waypoints"]?[0]?["distance"]?.doubleValue ?? 0, 100, "snapped onto a closed road")
        // Mapbox's point form closes the road at the point too.
        let point = try json(["route", "--from", vaduz, "--to", schaan, "--exclude", "point(\(mid[0]) \(mid[1]))"])
        XCTAssertGreaterThan(point["routes"]?[0]?["duration"]?.doubleValue ?? 0, plain["routes"]?[0]?["duration"]?.doubleValue ?? .infinity)
    }

    func testBadValuesAndFilesGetOneLine() throws {
        let graph = try SampleGraphFixture.graphPath()
        let base = ["route", "--graph", graph, "--from", vaduz, "--to", schaan]
        func expectOneLine(_ args: [String], mentioning: String, file: StaticString = #filePath, line: UInt = #line) throws {
            let r = try run(args)
            XCTAssertEqual(r.status, 1, r.stderr, file: file, line: line)
            XCTAssertEqual(r.stdout, "", file: file, line: line)
            XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr, file: file, line: line)
            XCTAssertTrue(r.stderr.contains(mentioning), r.stderr, file: file, line: line)
        }
        try expectOneLine(base + ["--exclude", "motorway,highway"], mentioning: "unknown exclude class 'highway'")
        try expectOneLine(base + ["--exclude", "point(9.5)"], mentioning: "point(LON LAT)")
        try expectOneLine(["table", "--graph", graph, "--sources", vaduz, "--exclude", "tolls"], mentioning: "'tolls'")
        try expectOneLine(["nearest", "--graph", graph, "--at", vaduz, "--exclude", ""], mentioning: "exclude")
        let point = #"{"type":"Feature","properties":{"radius":50},"geometry":{"type":"Point","coordinates":[9.5,47.1]}}"#
        let cases: [(String, String, String)] = [
            ("empty", "", "invalid JSON"),
            ("truncated", String(point.prefix(40)), "invalid JSON"),
            ("not-geojson", #"{"hello":"world"}"#, "not GeoJSON"),
            ("empty-collection", #"{"type":"FeatureCollection","features":[]}"#, "no closures"),
            ("no-radius", #"{"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[9.5,47.1]}}"#, "radius"),
            ("open-ring", #"{"type":"Polygon","coordinates":[[[9.5,47.1],[9.6,47.1],[9.6,47.2],[9.5,47.2]]]}"#, "not closed"),
            ("bad-position", #"{"type":"Polygon","coordinates":[[[9.5,47.1],[9.6,147.1],[9.6,47.2],[9.5,47.1]]]}"#, "[lon, lat]"),
            ("line", #"{"type":"LineString","coordinates":[[9.5,47.1],[9.6,47.1]]}"#, "not GeoJSON"),
        ]
        for (name, text, mention) in cases {
            let path = try temporary(name, text)
            try expectOneLine(base + ["--avoid", path], mentioning: mention)
            try expectOneLine(base + ["--avoid", path], mentioning: path)
        }
        try expectOneLine(base + ["--avoid", "/nonexistent/closures.geojson"], mentioning: "/nonexistent/closures.geojson")
    }

    /// Batch lines with their own `exclude`, answered as `route --exclude` answers them, and
    /// lines without it as before; an unknown class is that line's InvalidValue.
    func testBatchPerLineExclude() throws {
        let graph = try SampleGraphFixture.graphPath()
        let input = """
        {"id":1,"from":[9.5215,47.1410],"to":[9.5900,47.1050]}
        {"id":2,"from":[9.5215,47.1410],"to":[9.5900,47.1050],"exclude":"tunnel"}
        {"id":3,"from":[9.5215,47.1410],"to":[9.4990,47.0660],"exclude":"motorway,unpaved"}
        {"id":4,"from":[9.5215,47.1410],"to":[9.4990,47.0660],"exclude":"highway"}
        {"id":5,"from":[9.5215,47.1410],"to":[9.5900,47.1050],"exclude":"tunnel"}
        """
        let r = try run(["batch", "--graph", graph, "--threads", "2"], stdin: input)
        XCTAssertEqual(r.status, 0, r.stderr)
        let lines = try r.stdout.split(separator: "\n").map { try JSONReader.parse(String($0)) }
        XCTAssertEqual(lines.map { $0["code"]?.stringValue }, ["Ok", "NoRoute", "Ok", "InvalidValue", "NoRoute"])
        let route = try json(["route", "--from", vaduz, "--to", schaan, "--exclude", "motorway,unpaved"])
        XCTAssertEqual(lines[2]["duration_s"]?.doubleValue, route["routes"]?[0]?["duration"]?.doubleValue)
        // The options' exclusion applies to every line.
        let all = try run(["batch", "--graph", graph, "--exclude", "tunnel"], stdin: "{\"id\":1,\"from\":[9.5215,47.1410],\"to\":[9.5900,47.1050]}\n")
        XCTAssertEqual(try JSONReader.parse(all.stdout)["code"], "NoRoute")
    }

    /// A trace replay reroutes under the exclusion (route and reroutes from the same metric);
    /// free drive refuses it with one line.
    func testTraceRerouteUnderAnExclusion() throws {
        let graph = try SampleGraphFixture.graphPath()
        let route = try run(["route", "--graph", graph, "--from", "9.5215,47.1410", "--to", "9.4990,47.0660", "--overview", "full",
                             "--exclude", "unpaved"])
        XCTAssertEqual(route.status, 0, route.stderr)
        let routeFile = try temporary("route.json", route.stdout)
        let trace = SampleGraphFixture.repositoryRoot.appendingPathComponent("samples/detour-trace.csv").path
        let r = try run(["trace", "--graph", graph, "--route", routeFile, "--trace", trace, "--exclude", "unpaved"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let events = try r.stdout.split(separator: "\n").map { try JSONReader.parse(String($0)) }
        let reroute = try XCTUnwrap(events.first { $0["event"] == "reroute" })
        XCTAssertEqual(reroute["route"]?["code"], "Ok")
        let free = try run(["trace", "--graph", graph, "--trace", trace, "--exclude", "unpaved"])
        XCTAssertEqual(free.status, 1)
        XCTAssertEqual(free.stderr.split(separator: "\n").count, 1, free.stderr)
    }
}
