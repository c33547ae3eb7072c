import Foundation
import OffgridCore
import TestSupport
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// The viewer page of `tilestore serve` in a real browser: headless Chromium (Debian's package)
/// opens it from the server on loopback, waits for the map to be idle, and takes screenshots;
/// Tests/interop/browser_check.py checks the map drew, matches MapLibre Native's drawing of the
/// same view, that every request went to the server (script, style, glyphs, tiles), and that two
/// clicks drew a route from `route-query serve` with its steps listed.
final class ViewerTests: XCTestCase {
    /// The PyPI `maplibre` wheel's directory of MapLibre GL JS files, from the project venv.
    static func maplibreDirectory() throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: try TestPython.executable())
        p.arguments = ["-c", "import maplibre, os; print(os.path.join(os.path.dirname(maplibre.__file__), 'srcjs'))"]
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        let dir = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard p.terminationStatus == 0, FileManager.default.fileExists(atPath: dir + "/maplibre-gl.js") else {
            throw SampleStore.ToolFailed(description: "the venv has no maplibre package with maplibre-gl.js: run `make pydeps`")
        }
        return dir
    }

    /// The sample's car graph, built once with the real tools.
    static let graph: Result<String, Error> = Result {
        let pack = SampleStore.scratch.path("viewer.routing.pack"), tiles = SampleStore.scratch.path("viewer-routing")
        let graph = SampleStore.scratch.path("viewer.chg")
        try SampleStore.expectSuccess("tilepack-build", ["routing", "--input", TestTools.path("samples/liechtenstein.osm.pbf"), "--output", pack])
        try SampleStore.expectSuccess("tilepack-unpack", [pack, "--output", tiles])
        try SampleStore.expectSuccess("route-graph", [tiles, "--output", graph])
        return graph
    }

    func testViewerPageIsServedLocallyAndNegotiated() throws {
        let store = try SampleStore.store.get()
        let bare = try ServerProcess(store: store, extra: ["--viewer-assets", try Self.maplibreDirectory()])
        defer { bare.stop() }
        let page = try runPython("http_status.py", [bare.base + "/", "--accept", "text/html", "--body"])
        XCTAssertTrue(page.output.contains("/viewer/maplibre-gl.js"), page.output)
        XCTAssertFalse(page.output.contains("https://"), "no CDN: \(page.output)")
        let json = try runPython("http_status.py", [bare.base + "/", "--body"])
        XCTAssertTrue(json.output.contains("\"tilesets\""), "non-browsers get the index: \(json.output)")
        XCTAssertEqual(try runPython("http_status.py", [bare.base + "/viewer/maplibre-gl.js"]).output.trimmingCharacters(in: .whitespacesAndNewlines), "200")
        XCTAssertEqual(try runPython("http_status.py", [bare.base + "/viewer/other.js"]).output.trimmingCharacters(in: .whitespacesAndNewlines), "404")
        XCTAssertEqual(try runPython("http_status.py", [bare.base + "/route/v1/driving/9.52,47.14;9.50,47.07"]).output
            .trimmingCharacters(in: .whitespacesAndNewlines), "404", "no --routing: no route proxy")
        XCTAssertEqual(bare.stop(), 0)
        let missing = try TestTools.result("tilestore", ["--store", store, "serve", "--listen", "127.0.0.1:0", "--viewer-assets", "/nonexistent"])
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(missing.stderr.contains("maplibre-gl.js"), missing.stderr)
    }

    func testChromiumDrawsTheMapLikeMapLibreNativeAndARouteFromTwoClicks() throws {
        let store = try SampleStore.store.get()
        let graph = try Self.graph.get()
        let routing = Process()
        routing.executableURL = try TestTools.binary("route-query")
        routing.arguments = ["serve", "--graph", graph, "--listen", "127.0.0.1:0"]
        let out = Pipe()
        routing.standardOutput = out
        routing.standardError = FileHandle.nullDevice
        try routing.run()
        defer { if routing.isRunning { kill(routing.processIdentifier, SIGTERM); routing.waitUntilExit() } }
        var line = Data()
        while !line.contains(10) {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line += chunk
        }
        let address = try XCTUnwrap(try? JSONReader.parse(String(decoding: line, as: UTF8.self))["listening"]?.stringValue,
                                    String(decoding: line, as: UTF8.self))
        let server = try ServerProcess(store: store, extra: ["--viewer-assets", try Self.maplibreDirectory(), "--routing", address.hasPrefix("http") ? address : "http://\(address)"])
        defer { server.stop() }
        let dir = SampleStore.scratch.path("browser")
        let r = try runPython("browser_check.py", ["--server", server.base, "--out-dir", dir, "--view", "9.515,47.105,11.5",
                                                   "--route", "9.5215,47.1410;9.4990,47.0660", "--native"],
                              environment: ["EGL_PLATFORM": "surfaceless"])
        XCTAssertEqual(r.status, 0, "browser_check.py: \(r.output)\n\(r.stderr)")
        let result = try JSONReader.parse(r.output.split(separator: "\n").last.map(String.init) ?? "")
        XCTAssertEqual(result["ok"]?.boolValue, true)
        XCTAssertGreaterThanOrEqual(result["nativeAgreement"]?.doubleValue ?? 0, 0.85)
        XCTAssertGreaterThan(result["routePixels"]?.intValue ?? 0, 200)
        XCTAssertGreaterThan(result["route"]?["steps"]?.intValue ?? 0, 1)
        for f in ["viewer.png", "viewer-route.png", "viewer-native.png"] {
            XCTAssertTrue(FileManager.default.fileExists(atPath: dir + "/" + f), f)
        }
        XCTAssertEqual(server.stop(), 0)
    }
}
