import Foundation
import RoutingPacks
import TestSupport
import XCTest

/// `tilepack-build routing` as a user runs it: summary, limits, errors, atomic output.
final class RoutingCommandTests: XCTestCase {
    var scratch: Scratch!
    override func setUp() { scratch = Scratch() }
    override func tearDown() { scratch.remove() }

    func testBuildsAPackWithASummary() throws {
        let out = scratch.path("li.routing.pack")
        let r = try runTool("tilepack-build", ["routing", "--input", samplePBF, "--output", out, "--progress", "json"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let summary = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(summary["tiles"] as? Int, 3)
        XCTAssertEqual(summary["dataVersion"] as? String, "2024-03-04-3988")
        XCTAssertGreaterThan(summary["edges"] as? Int ?? 0, 5000)
        let events = r.stderr.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        XCTAssertEqual(events.last?["event"] as? String, "done")
        let reader = try RoutingPackReader(path: out)
        XCTAssertEqual(reader.header.dataVersion, "2024-03-04-3988")
        XCTAssertEqual(reader.tileCount, 3)
        // Same inputs, same bytes.
        let again = scratch.path("again.routing.pack")
        XCTAssertEqual(try runTool("tilepack-build", ["routing", "--input", samplePBF, "--output", again, "--quiet"]).status, 0)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: out)), try Data(contentsOf: URL(fileURLWithPath: again)))
    }

    func testRegionFileSelectsTiles() throws {
        // A triangle inside the cell west of 9.5°E only.
        let region = try scratch.write("west.geojson", Array("""
        {"type":"Feature","properties":{},"geometry":{"type":"Polygon","coordinates":[[[9.3,47.1],[9.45,47.1],[9.4,47.2],[9.3,47.1]]]}}
        """.utf8))
        let out = scratch.path("west.routing.pack")
        let r = try runTool("tilepack-build", ["routing", "--input", samplePBF, "--region", region, "--output", out])
        XCTAssertEqual(r.status, 0, r.stderr)
        let reader = try RoutingPackReader(path: out)
        XCTAssertEqual(reader.entries.map(\.tileID), [789_877])
        XCTAssertTrue(reader.header.regionGeoJSON.contains("Polygon"))
    }

    func testRegionTooLargeIsRefusedBeforeWork() throws {
        let out = scratch.path("big.routing.pack")
        // Refused before the input is even opened (it does not exist).
        let r = try runTool("tilepack-build", ["routing", "--input", "/nonexistent.osm.pbf", "--bbox", "0,40,30,50", "--output", out])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.hasPrefix("tilepack-build: error: region too large: 4800 tiles > limit 4096; split it, e.g. into"), r.stderr)
        let small = try runTool("tilepack-build", ["routing", "--input", samplePBF, "--bbox", "9,47,10,48", "--max-tiles", "3", "--output", out])
        XCTAssertEqual(small.status, 1)
        XCTAssertTrue(small.stderr.contains("region too large: 16 tiles > limit 3; split it, e.g. into"), small.stderr)
        XCTAssertEqual(small.stderr.split(separator: "\n").count, 1)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out))
    }

    func testBadInputsExitOneWithOneLineAndKeepTheOldOutput() throws {
        let out = scratch.path("keep.routing.pack")
        XCTAssertEqual(try runTool("tilepack-build", ["routing", "--input", samplePBF, "--output", out, "--quiet"]).status, 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: out))
        let sample = try Data(contentsOf: URL(fileURLWithPath: samplePBF))
        let truncated = try scratch.write("cut.osm.pbf", Array(sample.prefix(sample.count / 2)))
        let text = try scratch.write("notes.txt", Array("hello\n".utf8))
        let empty = try scratch.write("empty.osm.pbf", [])
        let badRegion = try scratch.write("bad.geojson", Array("{\"type\":\"Polygon\",\"coordinates\":[[[0,0],[1,0],[1,1]]]}".utf8))
        let cases: [([String], String)] = [
            (["--input", truncated], "truncated"),
            (["--input", text], "not an OSM PBF file"),
            (["--input", empty], "empty file"),
            (["--input", scratch.path("missing.osm.pbf")], "cannot open"),
            (["--input", samplePBF, "--region", badRegion], "bad.geojson"),
            (["--input", samplePBF, "--bbox", "20,50,21,51"], "no routable way"),
        ]
        for (args, expected) in cases {
            let r = try runTool("tilepack-build", ["routing"] + args + ["--output", out, "--quiet"])
            XCTAssertEqual(r.status, 1, "\(args): \(r.stderr)")
            XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
            XCTAssertTrue(r.stderr.hasPrefix("tilepack-build: error: "), r.stderr)
            XCTAssertTrue(r.stderr.contains(expected), "\(args): \(r.stderr)")
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: out)), before, "\(args) touched the output")
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).filter { $0.contains("tmp") }, [])
    }

    func testUsageErrorsExitTwo() throws {
        XCTAssertEqual(try runTool("tilepack-build", ["routing", "--output", "x"]).status, 2)
        XCTAssertEqual(try runTool("tilepack-build", ["routing", "--input", samplePBF, "--output", "x", "--bbox", "1,2,3"]).status, 2)
        XCTAssertEqual(try runTool("tilepack-build", ["routing", "--input", samplePBF, "--output", "x", "--bbox", "1,2,3,4", "--region", "r"]).status, 2)
        // The profile is route-graph's business now: the option is gone, not ignored.
        XCTAssertEqual(try runTool("tilepack-build", ["routing", "--input", samplePBF, "--output", "x", "--profile", "p.json"]).status, 2)
        let help = try runTool("tilepack-build", ["routing", "--help"])
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(help.stdout.contains("Example"), help.stdout)
    }
}
