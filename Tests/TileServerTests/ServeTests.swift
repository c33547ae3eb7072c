import Foundation
import OffgridCore
import TestSupport
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// `tilestore serve` read by real clients: Python's http.client (endpoints, status codes, ETags,
/// hostile paths) and MapLibre Native (pymgl), which draws the sample style from the server and
/// from the region's PMTiles and MBTiles exports; each drawing must equal the one straight from
/// the source MBTiles (render_check.py: at most 0.5 % of pixels off by more than 8 in a channel;
/// on this machine they are identical).
final class ServeTests: XCTestCase {
    func testEndpointsStatusCodesAndHostilePaths() throws {
        let store = try SampleStore.store.get()
        let server = try ServerProcess(store: store)
        defer { server.stop() }
        let r = try runPython("check_serve.py", ["--server", server.base, "--source", SampleStore.mbtiles,
                                                 "--style-dir", TestTools.path("samples/style"), "--region-bbox", "9.48,47.06,9.60,47.19",
                                                 "--absent", SampleStore.absentTile, "--fuzz", "1500"])
        XCTAssertEqual(r.status, 0, "check_serve.py: \(r.output)\n\(r.stderr)")
        XCTAssertTrue(r.output.contains("\"tilesCompared\""), r.output)
        XCTAssertEqual(server.stop(), 0, "SIGTERM: exit 0")
    }

    func testMapLibreDrawsTheServedAndExportedMapLikeTheSource() throws {
        let store = try SampleStore.store.get()
        let server = try ServerProcess(store: store)
        defer { server.stop() }
        // The region exported both ways is drawn in the same run (one reference drawing for all).
        let pm = SampleStore.scratch.path("render.pmtiles"), mb = SampleStore.scratch.path("render.mbtiles")
        for (format, file) in [("pmtiles", pm), ("mbtiles", mb)] {
            try SampleStore.expectSuccess("tilestore", ["--store", store, "export", "liechtenstein-oberland", "--format", format, "--output", file])
        }
        let out = SampleStore.scratch.path("render-serve")
        let r = try runPython("render_check.py", ["--out-dir", out, "--server", server.base, "--reference", SampleStore.mbtiles,
                                                  "--pmtiles", pm, "--mbtiles", mb], environment: ["EGL_PLATFORM": "surfaceless"])
        XCTAssertEqual(r.status, 0, "render_check.py: \(r.output)\n\(r.stderr)")
        for image in ["server", "pmtiles", "mbtiles"] {
            XCTAssertTrue(r.output.contains("\"image\": \"\(image)\""), r.output)
        }
        XCTAssertTrue(FileManager.default.fileExists(atPath: out + "/server.png"))
    }

    func testSIGTERMWhileServingExitsZeroAndStoreChangesAppear() throws {
        let store = try SampleStore.store.get()
        // A copy, so installing into it does not change the shared store.
        let copy = SampleStore.scratch.path("store-copy-\(UUID().uuidString)")
        try FileManager.default.copyItem(atPath: store, toPath: copy)
        let server = try ServerProcess(store: copy, extra: ["--reload", "0.2"])
        defer { server.stop() }
        func status(_ path: String) throws -> Int {
            let r = try runPython("http_status.py", [server.base + path])
            return Int(r.output.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
        }
        XCTAssertEqual(try status("/styles/basic/style.json"), 200)
        try SampleStore.expectSuccess("tilestore", ["--store", copy, "remove-style", "offgrid://styles/basic"])
        var gone = false
        for _ in 0..<50 where !gone {
            Thread.sleep(forTimeInterval: 0.2)
            gone = try status("/styles/basic/style.json") == 404
        }
        XCTAssertTrue(gone, "a style removed while serving is gone within seconds")
        XCTAssertEqual(server.stop(), 0)
    }

    func testBadListenAndMissingStoreAreOneLineErrors() throws {
        let missing = try TestTools.result("tilestore", ["--store", SampleStore.scratch.path("nope"), "serve", "--listen", "127.0.0.1:0"])
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(missing.stderr.contains("no tile store here"), missing.stderr)
        let bad = try TestTools.result("tilestore", ["--store", try SampleStore.store.get(), "serve", "--listen", "localhost"])
        XCTAssertEqual(bad.status, 2)
        XCTAssertTrue(bad.stderr.contains("--listen"), bad.stderr)
    }
}
