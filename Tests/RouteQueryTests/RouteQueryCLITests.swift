import Foundation
import OffgridCore
import TestSupport
import XCTest

/// `route-query` as users run it: exit codes, batch, trace replay with one detour.
final class RouteQueryCLITests: XCTestCase {
    func run(_ args: [String], stdin: String? = nil) throws -> (status: Int32, stdout: String, stderr: String) {
        try TestTools.run("route-query", args, stdin: stdin)
    }

    func testMissingOrCorruptGraphExitsOne() throws {
        let missing = try run(["route", "--graph", "/nonexistent.chg", "--from", "9.52,47.14", "--to", "9.50,47.07"])
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(missing.stderr.contains("/nonexistent.chg"), missing.stderr)
        let bad = FileManager.default.temporaryDirectory.appendingPathComponent("bad-\(getpid()).chg")
        defer { try? FileManager.default.removeItem(at: bad) }
        try Data(repeating: 7, count: 5000).write(to: bad)
        let corrupt = try run(["route", "--graph", bad.path, "--from", "9.52,47.14", "--to", "9.50,47.07"])
        XCTAssertEqual(corrupt.status, 1)
        XCTAssertEqual(corrupt.stderr.split(separator: "\n").count, 1)
        let usage = try run(["route", "--graph", bad.path, "--from", "9.52", "--to", "9.50,47.07"])
        XCTAssertEqual(usage.status, 2)
    }

    func testBatchAnswersEveryLineInOrder() throws {
        let graph = try SampleGraphFixture.graphPath()
        let input = """
        {"id":1,"from":[9.5215,47.1410],"to":[9.4990,47.0660]}
        not json
        {"id":"far","from":[8.0,46.0],"to":[9.5215,47.1410]}
        {"id":3,"from":[9.5215,47.1410],"to":[9.5220,47.2110],"full":true}
        {"id":4}
        """
        let r = try run(["batch", "--graph", graph, "--stats", "--threads", "2"], stdin: input)
        XCTAssertEqual(r.status, 0, r.stderr)
        let lines = try r.stdout.split(separator: "\n").map { try JSONReader.parse(String($0)) }
        XCTAssertEqual(lines.count, 5)
        XCTAssertEqual(lines.map { $0["code"]?.stringValue }, ["Ok", "InvalidInput", "NoSegment", "Ok", "InvalidInput"])
        XCTAssertEqual(lines[0]["id"]?.intValue, 1)
        XCTAssertEqual(lines[1]["id"], .null)
        XCTAssertEqual(lines[2]["id"]?.stringValue, "far")
        XCTAssertNotNil(lines[3]["route"]?["routes"]?.arrayValue?.first)
        XCTAssertNil(lines[3]["route"]?["code"], "the answer carries the code, not the embedded route")
        XCTAssertEqual(lines[3]["distance_m"], lines[3]["route"]?["routes"]?[0]?["distance"])
        XCTAssertTrue(r.stderr.contains("p50"), r.stderr)
    }

    func testTraceWithOneDetourReroutesOnce() throws {
        let graph = try SampleGraphFixture.graphPath()
        let route = try run(["route", "--graph", graph, "--from", "9.5215,47.1410", "--to", "9.4990,47.0660", "--overview", "full"])
        XCTAssertEqual(route.status, 0)
        let routeFile = FileManager.default.temporaryDirectory.appendingPathComponent("route-\(getpid()).json")
        defer { try? FileManager.default.removeItem(at: routeFile) }
        try Data(route.stdout.utf8).write(to: routeFile)
        let trace = SampleGraphFixture.repositoryRoot.appendingPathComponent("samples/detour-trace.csv").path
        let r = try run(["trace", "--graph", graph, "--route", routeFile.path, "--trace", trace])
        XCTAssertEqual(r.status, 0, r.stderr)
        let events = try r.stdout.split(separator: "\n").map { try JSONReader.parse(String($0)) }
        XCTAssertEqual(events.filter { $0["event"] == "reroute" }.count, 1)
        XCTAssertEqual(events.filter { $0["event"] == "off-route" }.count, 1)
        let reroute = try XCTUnwrap(events.first { $0["event"] == "reroute" })
        XCTAssertEqual(reroute["route"]?["code"], "Ok")
        XCTAssertEqual(events.last?["reroutes"]?.intValue, 1)
        // Progress before the detour only grows.
        let along = events.prefix { $0["event"] == "progress" }.compactMap { $0["distanceAlong"]?.doubleValue }
        XCTAssertEqual(along, along.sorted())
    }
}
