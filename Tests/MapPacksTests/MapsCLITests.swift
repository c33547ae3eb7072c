import Foundation
import TestSupport
import XCTest

/// `tilepack-build maps` and `predict` as a user runs them.
final class MapsCLITests: XCTestCase {
    var scratch: Scratch!
    override func setUp() { scratch = Scratch() }
    override func tearDown() { scratch.remove() }

    func testBuildSummaryProgressAndEstimate() throws {
        let out = scratch.path("maps")
        let region = repoPath("samples/regions/vaduz-balzers-corridor.geojson")
        let r = try runTool("tilepack-build", ["maps", "--source", samplePMTiles, "--region", region, "--zoom", "8-15",
                                               "--output", out, "--progress", "json", "--id", "commute", "--metadata", "{\"owner\":\"me\"}"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let s = try jsonObject(r.stdout)
        XCTAssertEqual(s["estimate"] as? Bool, false)
        XCTAssertEqual((s["zoom"] as? [String: Any])?["widened"] as? [Int], [6, 14])
        XCTAssertEqual((s["zoom"] as? [String: Any])?["wasWidened"] as? Bool, true)
        XCTAssertTrue(r.stderr.contains("widened to whole bands 6-14"), r.stderr)
        let events = r.stderr.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        XCTAssertEqual(events.last?["event"] as? String, "done")
        XCTAssertEqual(events.last?["tilesDone"] as? Int, s["tiles"] as? Int)
        let manifest = try jsonObject(try String(contentsOfFile: out + "/region.json", encoding: .utf8))
        XCTAssertEqual(manifest["id"] as? String, "commute")
        XCTAssertEqual((manifest["metadata"] as? [String: Any])?["owner"] as? String, "me")
        XCTAssertEqual((manifest["packs"] as? [Any])?.count, s["packs"] as? Int)

        // The estimate gives the same counts and writes nothing.
        let est = try runTool("tilepack-build", ["maps", "--source", sampleMBTiles, "--region", region, "--zoom", "8-15", "--estimate"])
        XCTAssertEqual(est.status, 0, est.stderr)
        let e = try jsonObject(est.stdout)
        for key in ["packs", "tiles", "tileBytes", "candidatePacks", "emptyPacks"] {
            XCTAssertEqual(e[key] as? Int, s[key] as? Int, key)
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: scratch.url.path), ["maps"])
    }

    func testLimitsAreRefusedBeforeWork() throws {
        let out = scratch.path("big")
        // Refused before the source is even read: it does not exist... but opening comes first,
        // so use the real sample and a region far too large for it.
        let r = try runTool("tilepack-build", ["maps", "--source", sampleMBTiles, "--bbox=-10,35,30,60", "--zoom", "0-14", "--output", out])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.hasPrefix("tilepack-build: error: too many packs: "), r.stderr)
        XCTAssertTrue(r.stderr.contains(" > 750 ("), r.stderr)
        XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out))
        let small = try runTool("tilepack-build", ["maps", "--source", sampleMBTiles, "--around", "9.52,47.14", "--radius", "2000",
                                                   "--max-packs", "2", "--output", out])
        XCTAssertEqual(small.status, 1)
        XCTAssertTrue(small.stderr.contains("too many packs: 3 > 2 (band 0-5: 1, band 6-10: 1, band 11-14: 1)"), small.stderr)
        let tiles = try runTool("tilepack-build", ["maps", "--source", sampleMBTiles, "--around", "9.52,47.14", "--radius", "2000",
                                                   "--max-tiles", "50", "--output", out])
        XCTAssertEqual(tiles.status, 1)
        XCTAssertTrue(tiles.stderr.contains("too many tiles: 89 > 50"), tiles.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out))
    }

    func testBadInputsExitOneWithOneLineAndKeepTheOldOutput() throws {
        let out = scratch.path("keep")
        XCTAssertEqual(try runTool("tilepack-build", ["maps", "--source", sampleMBTiles, "--around", "9.52,47.14", "--radius", "500",
                                                      "--output", out, "--quiet"]).status, 0)
        let before = treeContents(out)
        let pm = try Data(contentsOf: URL(fileURLWithPath: samplePMTiles))
        let cut = try scratch.write("cut.pmtiles", "")
        try pm.prefix(2000).write(to: URL(fileURLWithPath: cut))
        let text = try scratch.write("notes.mbtiles", "hello\n")
        let empty = try scratch.write("empty.pmtiles", "")
        let badRegion = try scratch.write("bad.geojson", "{\"type\":\"Point\",\"coordinates\":[9.5,47.1]}")
        let cases: [([String], String)] = [
            (["--source", cut, "--bbox", "9.4,47,9.7,47.3"], "cut.pmtiles"),
            (["--source", text, "--bbox", "9.4,47,9.7,47.3"], "not an MBTiles or PMTiles tileset"),
            (["--source", empty, "--bbox", "9.4,47,9.7,47.3"], "empty file"),
            (["--source", scratch.path("missing.mbtiles"), "--bbox", "9.4,47,9.7,47.3"], "cannot open"),
            (["--source", sampleMBTiles, "--region", badRegion], "needs a distance in metres"),
            (["--source", sampleMBTiles, "--bbox", "9.4,47,9.7,47.3", "--zoom", "15-16"], "has none of them"),
        ]
        for (args, expected) in cases {
            let r = try runTool("tilepack-build", ["maps"] + args + ["--output", out, "--quiet"])
            XCTAssertEqual(r.status, 1, "\(args): \(r.stderr)")
            XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
            XCTAssertTrue(r.stderr.hasPrefix("tilepack-build: error: "), r.stderr)
            XCTAssertTrue(r.stderr.contains(expected), "\(args): \(r.stderr)")
            XCTAssertEqual(treeContents(out), before, "\(args) touched the output")
        }
        for usage in [["--source", sampleMBTiles, "--output", out],
                      ["--source", sampleMBTiles, "--bbox", "9,47,10,48", "--around", "9.5,47.1", "--radius", "5", "--output", out],
                      ["--source", sampleMBTiles, "--around", "9.5,47.1", "--output", out],
                      ["--source", sampleMBTiles, "--bbox", "9,47,10,48", "--zoom", "9-3", "--output", out]] {
            XCTAssertEqual(try runTool("tilepack-build", ["maps"] + usage).status, 2, "\(usage)")
        }
    }

    func testCoverOutput() throws {
        let r = try runTool("tilepack-build", ["maps", "--bbox", "9.4921875,47.04018214480665,9.84375,47.27922900257082", "--zoom", "10-11", "--cover"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout, "[539,359,10]\n[1078,718,11]\n[1078,719,11]\n[1079,718,11]\n[1079,719,11]\n")
    }

    func testPredictBuildsPacksAndARoutingRegion() throws {
        // An OSRM response with a precision-6 polyline of the sample corridor (as route-query writes).
        let line = try jsonObject(try String(contentsOfFile: repoPath("samples/regions/vaduz-balzers-corridor.geojson"), encoding: .utf8))
        let coords = ((line["geometry"] as? [String: Any])?["coordinates"] as? [[Double]]) ?? []
        let osrmObject: [String: Any] = ["code": "Ok", "routes": [["geometry": encodePolyline6(coords)]]]
        let osrm = String(decoding: try JSONSerialization.data(withJSONObject: osrmObject), as: UTF8.self)
        let route = try scratch.write("route.json", osrm)
        let out = scratch.path("predict")
        let r = try runTool("tilepack-build", ["predict", "--route", route, "--source", sampleMBTiles, "--output", out, "--quiet"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let s = try jsonObject(r.stdout)
        XCTAssertEqual((s["zoom"] as? [String: Any])?["requested"] as? [Int], [5, 12])
        XCTAssertEqual((s["route"] as? [String: Any])?["positions"] as? Int, coords.count)
        XCTAssertEqual((s["region"] as? [String: Any])?["shapes"] as? Int, 3)
        let routing = out + "/routing-region.geojson"
        let geo = try jsonObject(try String(contentsOfFile: routing, encoding: .utf8))
        XCTAssertEqual((geo["geometry"] as? [String: Any])?["type"] as? String, "MultiPolygon")
        // The routing region is usable by `tilepack-build routing --region`.
        let pack = scratch.path("p.routing.pack")
        let rr = try runTool("tilepack-build", ["routing", "--input", repoPath("samples/liechtenstein.osm.pbf"), "--region", routing,
                                                "--output", pack, "--quiet"])
        XCTAssertEqual(rr.status, 0, rr.stderr)
        // Same route as GeoJSON: the same packs.
        let out2 = scratch.path("predict2")
        XCTAssertEqual(try runTool("tilepack-build", ["predict", "--route", repoPath("samples/regions/vaduz-balzers-corridor.geojson"),
                                                      "--source", samplePMTiles, "--output", out2, "--quiet"]).status, 0)
        XCTAssertEqual(treeContents(out).filter { $0.key.hasPrefix("packs/") }, treeContents(out2).filter { $0.key.hasPrefix("packs/") })
    }

    func encodePolyline6(_ coords: [[Double]]) -> String {
        var out = "", lastLat = 0, lastLon = 0
        func enc(_ v: Int) {
            var x = v < 0 ? ~(v << 1) : v << 1
            while x >= 0x20 { out.append(Character(UnicodeScalar(UInt8((0x20 | (x & 0x1f)) + 63)))); x >>= 5 }
            out.append(Character(UnicodeScalar(UInt8(x + 63))))
        }
        for c in coords {
            let lat = Int((c[1] * 1e6).rounded()), lon = Int((c[0] * 1e6).rounded())
            enc(lat - lastLat); enc(lon - lastLon)
            lastLat = lat; lastLon = lon
        }
        return out
    }
}
