import Foundation
import OffgridCore
import TestSupport
import XCTest

/// `route-query match` and free drive on the traces samples/make-match-traces.py makes (GPX with
/// a reduced-accuracy fix, NMEA with a second without a fix), as the pipeline runs them.
final class MatchCLITests: XCTestCase {
    static var made: (dir: String, graph: String)?

    func traces() throws -> (dir: String, graph: String) {
        if let made = Self.made { return made }
        let graph = try SampleGraphFixture.graphPath()
        let dir = SampleGraphFixture.directory.appendingPathComponent("match").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let route = try TestTools.run("route-query", ["route", "--graph", graph, "--from", "9.5215,47.1410", "--to", "9.4990,47.0660",
                                                      "--geometries", "geojson", "--overview", "full"])
        XCTAssertEqual(route.status, 0, route.stderr)
        try Data(route.stdout.utf8).write(to: URL(fileURLWithPath: dir + "/route.json"))
        let script = Process()
        script.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        script.arguments = ["python3", TestTools.path("samples/make-match-traces.py"), dir + "/route.json", dir]
        try script.run()
        script.waitUntilExit()
        XCTAssertEqual(script.terminationStatus, 0)
        Self.made = (dir, graph)
        return (dir, graph)
    }

    func testGPXAndNMEAMatchToTheDrivenRoute() throws {
        let (dir, graph) = try traces()
        for file in ["drive.gpx", "drive.nmea"] {
            let r = try TestTools.run("route-query", ["match", "--graph", graph, "--trace", dir + "/" + file, "--compact"])
            XCTAssertEqual(r.status, 0, r.stderr)
            let body = try JSONReader.parse(r.stdout)
            XCTAssertEqual(body["code"]?.stringValue, "Ok", file)
            let matchings = try XCTUnwrap(body["matchings"]?.arrayValue)
            XCTAssertEqual(matchings.count, 1, file)
            XCTAssertGreaterThan(try XCTUnwrap(matchings[0]["confidence"]?.doubleValue), 0.8, file)
            let tracepoints = try XCTUnwrap(body["tracepoints"]?.arrayValue)
            XCTAssertEqual(tracepoints.count, file == "drive.gpx" ? 100 : 150, file)
            if file == "drive.nmea" { XCTAssertTrue(tracepoints[40].isNull, "the second without a fix is unmatched, in its place") }
            XCTAssertGreaterThan(tracepoints.filter { !$0.isNull }.count, tracepoints.count - 5, file)
        }
    }

    func testFreeDriveWritesOneLinePerFix() throws {
        let (dir, graph) = try traces()
        let r = try TestTools.run("route-query", ["trace", "--graph", graph, "--trace", dir + "/drive.nmea"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let lines = r.stdout.split(separator: "\n").map { try? JSONReader.parse(String($0)) }
        XCTAssertEqual(lines.count, 150)
        XCTAssertEqual(lines[40]?["matched"], .bool(false))
        let matched = lines.compactMap { $0 }.filter { $0["matched"] == .bool(true) }
        XCTAssertGreaterThan(matched.count, 140)
        for line in matched {
            XCTAssertNotNil(line["location"]?.arrayValue)
            XCTAssertNotNil(line["name"]?.stringValue)
            XCTAssertGreaterThan(try XCTUnwrap(line["speed_kmh"]?.doubleValue), 0)
            XCTAssertNotNil(line["heading"]?.doubleValue)
        }
        // Vaduz → Balzers heads south: most headings point into the southern half.
        let south = matched.compactMap { $0["heading"]?.doubleValue }.filter { $0 > 90 && $0 < 270 }.count
        XCTAssertGreaterThan(south, matched.count / 2)
    }

    func testBadTraceFileIsOneLineAndExitOne() throws {
        let (dir, graph) = try traces()
        let bad = dir + "/bad.nmea"
        try Data("$GPRMC,120000,A,4708.46,N,00931.25,E,0,0,030524,,*00\n".utf8).write(to: URL(fileURLWithPath: bad))
        let r = try TestTools.run("route-query", ["match", "--graph", graph, "--trace", bad])
        XCTAssertNotEqual(r.status, 0)
        XCTAssertTrue(r.stderr.contains("bad.nmea: line 1: checksum 00 does not match"), r.stderr)
        XCTAssertEqual(r.stdout, "")
    }
}
