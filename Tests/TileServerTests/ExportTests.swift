import Foundation
import OffgridCore
import TestSupport
import XCTest

/// `tilestore export` read by real readers: the `pmtiles` package and sqlite3 find every tile of
/// the region equal to the source's (ServeTests has MapLibre draw both exports); the same region
/// gives the same bytes; bad input is a one-line error with nothing written.
final class ExportTests: XCTestCase {
    func regionTiles(_ store: String, _ id: String) throws -> Int {
        let r = try SampleStore.expectSuccess("tilestore", ["--store", store, "show", id])
        return try JSONReader.parse(r.stdout)["tiles"]?.intValue ?? -1
    }

    func testExportsReadByPMTilesAndSQLite() throws {
        let store = try SampleStore.store.get()
        let pm = SampleStore.scratch.path("oberland.pmtiles"), mb = SampleStore.scratch.path("oberland.mbtiles")
        let report = try SampleStore.expectSuccess("tilestore", ["--store", store, "export", "liechtenstein-oberland", "--format", "pmtiles", "--output", pm])
        try SampleStore.expectSuccess("tilestore", ["--store", store, "export", "liechtenstein-oberland", "--format", "mbtiles", "--output", mb])
        let tiles = try regionTiles(store, "liechtenstein-oberland")
        XCTAssertGreaterThan(tiles, 100)
        XCTAssertEqual(try JSONReader.parse(report.stdout)["tiles"]?.intValue, tiles)
        let check = try runPython("check_export.py", ["--source", SampleStore.mbtiles, "--tiles", "\(tiles)", "--pmtiles", pm, "--mbtiles", mb])
        XCTAssertEqual(check.status, 0, "check_export.py: \(check.output)\n\(check.stderr)")
    }

    func testSameRegionSameBytes() throws {
        let store = try SampleStore.store.get()
        for format in ["pmtiles", "mbtiles"] {
            let a = SampleStore.scratch.path("a.\(format)"), b = SampleStore.scratch.path("b.\(format)")
            try SampleStore.expectSuccess("tilestore", ["--store", store, "export", "east-edge", "--format", format, "--output", a])
            try SampleStore.expectSuccess("tilestore", ["--store", store, "export", "east-edge", "--format", format, "--output", b])
            XCTAssertEqual(FileManager.default.contents(atPath: a), FileManager.default.contents(atPath: b), "\(format) export is deterministic")
        }
    }

    func testBadInputIsAOneLineErrorAndNothingIsWritten() throws {
        let store = try SampleStore.store.get()
        let out = SampleStore.scratch.path("bad/none.pmtiles")
        let unknown = try TestTools.result("tilestore", ["--store", store, "export", "no-such-region", "--format", "pmtiles", "--output", out])
        XCTAssertEqual(unknown.status, 1)
        XCTAssertTrue(unknown.stderr.contains("no region \"no-such-region\""), unknown.stderr)
        let format = try TestTools.result("tilestore", ["--store", store, "export", "east-edge", "--format", "geojson", "--output", out])
        XCTAssertEqual(format.status, 2)
        XCTAssertTrue(format.stderr.contains("--format"), format.stderr)
        let dir = try TestTools.result("tilestore", ["--store", store, "export", "east-edge", "--format", "pmtiles", "--output", out])
        XCTAssertEqual(dir.status, 1, dir.stderr)
        XCTAssertEqual(dir.stderr.split(separator: "\n").count, 1, dir.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out))
        let tileset = try TestTools.result("tilestore", ["--store", store, "export", "east-edge", "--format", "mbtiles", "--tileset", "other",
                                                          "--output", SampleStore.scratch.path("x.mbtiles")])
        XCTAssertEqual(tileset.status, 1)
        XCTAssertTrue(tileset.stderr.contains("no map packs of tileset \"other\""), tileset.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: SampleStore.scratch.path("x.mbtiles")))
    }
}
