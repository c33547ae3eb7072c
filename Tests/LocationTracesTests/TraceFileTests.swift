import Foundation
import LocationTraces
import OffgridCore
import TestSupport
import XCTest

/// `LocationTrace.load`: every format by name or content, GeoJSON traces, and bad files.
final class TraceFileTests: XCTestCase {
    var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("offgrid-traces-\(getpid())-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: directory) }

    func write(_ name: String, _ text: String) throws -> String {
        let path = directory.appendingPathComponent(name).path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    func testGeoJSONFeatureWithCoordTimes() throws {
        let path = try write("t.geojson", """
        {"type":"Feature","properties":{"coordTimes":["2024-05-03T12:00:00Z","2024-05-03T12:00:05Z"],"accuracies":[8,null]},
         "geometry":{"type":"LineString","coordinates":[[9.52,47.14],[9.521,47.141]]}}
        """)
        let trace = try LocationTrace.load(path: path)
        XCTAssertTrue(trace.timed)
        XCTAssertEqual(trace.fixes.count, 2)
        XCTAssertEqual(trace.fixes[1].time - trace.fixes[0].time, 5)
        XCTAssertEqual(trace.fixes[0].accuracy, 8)
        XCTAssertNil(trace.fixes[1].accuracy)
    }

    func testBareLineStringIsUntimed() throws {
        let path = try write("t.json", #"{"type":"LineString","coordinates":[[9.52,47.14],[9.521,47.141],[9.522,47.142]]}"#)
        let trace = try LocationTrace.load(path: path)
        XCTAssertFalse(trace.timed)
        XCTAssertEqual(trace.fixes.map(\.time), [0, 1, 2])
    }

    func testFormatsAreRecognisedByContent() throws {
        let nmea = try write("drive.txt", NMEATraceTests.sentence("GPRMC,120000,A,4708.4600,N,00931.2540,E,0,0,030524,,"))
        XCTAssertEqual(try LocationTrace.load(path: nmea).fixes.count, 1)
        let gpx = try write("drive.xml", """
        <gpx version="1.1"><trk><trkseg><trkpt lat="47.14" lon="9.52"><time>2024-05-03T12:00:00Z</time><hdop>2</hdop></trkpt></trkseg></trk></gpx>
        """)
        let fixes = try LocationTrace.load(path: gpx).fixes
        XCTAssertEqual(fixes.count, 1)
        XCTAssertEqual(fixes[0].accuracy, 10)
        let csv = try write("drive.csv", "time,lon,lat\n0,9.52,47.14\n1,9.521,47.141\n")
        XCTAssertEqual(try LocationTrace.load(path: csv).fixes.count, 2)
    }

    func testBadGeoJSONFailsWithOneLineNamingTheFile() throws {
        for (text, expected) in [
            (#"{"type":"Point","coordinates":[9.5,47.1]}"#, "expected a LineString, found Point"),
            (#"{"type":"LineString","coordinates":[[9.5,47.1],[200,47.1]]}"#, "coordinate 1 (200.0, 47.1) out of range"),
            (#"{"type":"LineString","coordinates":[[9.5,47.1],"x"]}"#, "coordinate 1 is not [lon, lat]"),
            (#"{"type":"Feature","properties":{"times":[0]},"geometry":{"type":"LineString","coordinates":[[9.5,47.1],[9.6,47.1]]}}"#,
             "1 times for 2 coordinates"),
            (#"{"type":"Feature","properties":{"times":[5,1]},"geometry":{"type":"LineString","coordinates":[[9.5,47.1],[9.6,47.1]]}}"#,
             "time 1 is before the previous one"),
            (#"{"type":"LineString","coordinates":[[9.5,47.1],[9.6"#, "invalid JSON"),
            (#"{"type":"FeatureCollection","features":[]}"#, "exactly one Feature"),
        ] {
            let path = try write("bad.geojson", text)
            XCTAssertThrowsError(try LocationTrace.load(path: path), text) { error in
                let line = "\(error)"
                XCTAssertTrue(line.hasPrefix(path + ": ") || line.hasPrefix(path + " at byte "), line)
                XCTAssertTrue(line.contains(expected) || (expected == "invalid JSON" && line.contains("byte")), line)
                XCTAssertFalse(line.contains("\n"))
            }
        }
    }

    func testEmptyFilesAreRefusedInEveryFormat() throws {
        for name in ["e.geojson", "e.nmea", "e.gpx", "e.csv"] {
            let path = try write(name, "")
            XCTAssertThrowsError(try LocationTrace.load(path: path), name) { error in
                XCTAssertTrue("\(error)".hasPrefix(path + ": "), "\(error)")
                XCTAssertTrue("\(error)".contains("empty"), "\(error)")
            }
        }
        XCTAssertThrowsError(try LocationTrace.load(path: directory.appendingPathComponent("missing.gpx").path))
    }

    func testNDJSONBatchOfTraces() throws {
        let text = """
        {"id":"a","coordinates":[[9.52,47.14],[9.521,47.141]],"timestamps":[0,5],"radiuses":[10,null]}

        {"id":2,"type":"Feature","properties":{},"geometry":{"type":"LineString","coordinates":[[9.52,47.14],[9.53,47.15]]}}
        """
        let batch = try TraceBatch.parse(text, file: "b.ndjson")
        XCTAssertEqual(batch.count, 2)
        XCTAssertEqual(batch[0].id, .string("a"))
        XCTAssertTrue(batch[0].trace.timed)
        XCTAssertEqual(batch[0].radiuses, [10, nil])
        XCTAssertFalse(batch[1].trace.timed)
        XCTAssertThrowsError(try TraceBatch.parse("{\"coordinates\":[[9.5,47.1]],\"timestamps\":[1,2]}\n", file: "b.ndjson")) {
            XCTAssertEqual("\($0)", "b.ndjson: line 1: 2 timestamps for 1 coordinates")
        }
        XCTAssertThrowsError(try TraceBatch.parse("{\"coordinates\":[[9.5,47.1]]}\n[1,2\n", file: "b.ndjson")) {
            XCTAssertTrue("\($0)".hasPrefix("b.ndjson: line 2: "), "\($0)")
        }
    }
}
