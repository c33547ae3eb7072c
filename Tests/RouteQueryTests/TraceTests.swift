import Foundation
import RouteQuery
import TileMath
import XCTest
import TestSupport

/// Location traces (CSV, GPX) and progress / off-route tracking along a route.
final class TraceTests: XCTestCase {
    // MARK: - CSV

    func testCSVWithISOTimesAndAllColumns() throws {
        let csv = """
        time,lon,lat,accuracy,course
        2024-05-01T12:00:00Z,9.52,47.14,5,90
        2024-05-01T12:00:01.5Z,9.5201,47.1401,,
        2024-05-01T14:00:02+02:00,9.5202,47.1402,-1,-1
        """
        let fixes = try LocationTrace.parseCSV(csv, file: "trace.csv")
        XCTAssertEqual(fixes, [
            LocationFix(time: 1_714_564_800, lon: 9.52, lat: 47.14, accuracy: 5, course: 90),
            LocationFix(time: 1_714_564_801.5, lon: 9.5201, lat: 47.1401),
            // Negative accuracy and course mean unknown, as in CoreLocation.
            LocationFix(time: 1_714_564_802, lon: 9.5202, lat: 47.1402),
        ])
    }

    func testCSVColumnsInAnyOrderWithLongNamesSecondsQuotesAndComments() throws {
        let csv = "# recorded on a bike\r\nLatitude;Speed;Longitude;Timestamp;Bearing\r\n\r\n47.14;3.2;9.52;100;359.5\r\n\"47.15\";4;9.53;101.25;360\r\n"
        let fixes = try LocationTrace.parseCSV(csv, file: "t.csv")
        XCTAssertEqual(fixes, [LocationFix(time: 100, lon: 9.52, lat: 47.14, course: 359.5),
                               LocationFix(time: 101.25, lon: 9.53, lat: 47.15, course: 0)])
    }

    func testCSVErrorsNameTheFileAndLine() {
        func message(_ csv: String) -> String {
            do {
                _ = try LocationTrace.parseCSV(csv, file: "trace.csv")
                return "no error"
            } catch { return "\(error)" }
        }
        let header = "time,lon,lat\n"
        let good = (0..<5).map { "\($0),9.5,47.1\n" }.joined()
        XCTAssertEqual(message(header + good + "6,9.5,123\n"), "trace.csv: line 7: latitude 123 out of range")
        XCTAssertEqual(message(header + "0,181,47\n"), "trace.csv: line 2: longitude 181 out of range")
        XCTAssertEqual(message(header + "0,abc,47\n"), "trace.csv: line 2: longitude \"abc\" is not a number")
        XCTAssertEqual(message(header + "0,9.5\n"), "trace.csv: line 2: expected at least 3 fields, found 2")
        XCTAssertEqual(message(header + "yesterday,9.5,47\n"), "trace.csv: line 2: time \"yesterday\" is neither ISO 8601 nor seconds")
        XCTAssertEqual(message(header + "5,9.5,47\n4,9.5,47\n"), "trace.csv: line 3: time 4 is before the previous fix")
        XCTAssertEqual(message("time,x,lat\n0,9.5,47\n"),
                       "trace.csv: line 1: no lon column in the header (expected one of: lon, lng, long, longitude)")
        XCTAssertEqual(message("time,lat,lon,latitude\n"), "trace.csv: line 1: two lat columns (lat and latitude)")
        XCTAssertEqual(message(header + "0,9.5,47,x\n1,9.5,47,course\n"), "no error")
        XCTAssertEqual(message("time,lon,lat,accuracy\n0,9.5,47\n"), "no error")
        XCTAssertEqual(message("lat,lon,accuracy,time\n47,9.5,3\n"), "trace.csv: line 2: expected at least 4 fields, found 3")
        XCTAssertEqual(message("time,lon,lat,course\n0,9.5,47,400\n"), "trace.csv: line 2: course 400 out of range")
        XCTAssertEqual(message(""), "trace.csv: empty trace (no header, no fixes)")
        XCTAssertEqual(message("\n# nothing\n"), "trace.csv: empty trace (no header, no fixes)")
        XCTAssertEqual(message(header), "trace.csv: no location fixes after the header")
    }

    func testTimes() {
        XCTAssertEqual(LocationTrace.parseTime("1970-01-01T00:00:00Z"), 0)
        XCTAssertEqual(LocationTrace.parseTime("1969-12-31T23:59:59Z"), -1)
        XCTAssertEqual(LocationTrace.parseTime("2024-02-29T12:30:15.5+02:00"), 1_709_202_615.5)
        XCTAssertEqual(LocationTrace.parseTime("2024-02-29 10:30:15.5"), 1_709_202_615.5)
        XCTAssertEqual(LocationTrace.parseTime("2000-03-01T05:30-0530"), 951_868_800 + 11 * 3600)
        XCTAssertEqual(LocationTrace.parseTime(" 12.75 "), 12.75)
        XCTAssertNil(LocationTrace.parseTime("2023-02-29T00:00:00Z"))
        XCTAssertNil(LocationTrace.parseTime("2024-13-01T00:00:00Z"))
        XCTAssertNil(LocationTrace.parseTime("2024-01-01T24:00:00Z"))
        XCTAssertNil(LocationTrace.parseTime("2024-01-01T10:00:00Zjunk"))
        XCTAssertNil(LocationTrace.parseTime("inf"))
        XCTAssertNil(LocationTrace.parseTime(""))
    }

    // MARK: - GPX

    let gpx = """
    <?xml version="1.0" encoding="UTF-8"?>
    <gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1"
         xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v2">
      <trk><name>drive</name><trkseg>
        <trkpt lat="47.14" lon="9.52"><ele>450</ele><time>2024-05-01T12:00:00Z</time><hdop>2</hdop></trkpt>
        <trkpt lat="47.1401" lon="9.5201"><time>2024-05-01T12:00:01Z</time>
          <extensions><gpxtpx:TrackPointExtension><gpxtpx:course>45.5</gpxtpx:course></gpxtpx:TrackPointExtension>
          <accuracy>7</accuracy></extensions></trkpt>
      </trkseg><trkseg>
        <trkpt lat="47.1402" lon="9.5202"><time>2024-05-01T12:00:02Z</time></trkpt>
      </trkseg></trk>
    </gpx>
    """

    func testGPXTrackPoints() throws {
        let fixes = try LocationTrace.parseGPX(Data(gpx.utf8), file: "drive.gpx")
        XCTAssertEqual(fixes, [
            LocationFix(time: 1_714_564_800, lon: 9.52, lat: 47.14, accuracy: 10),
            LocationFix(time: 1_714_564_801, lon: 9.5201, lat: 47.1401, accuracy: 7, course: 45.5),
            LocationFix(time: 1_714_564_802, lon: 9.5202, lat: 47.1402),
        ])
    }

    func testGPXErrors() {
        func message(_ text: String) -> String {
            do {
                _ = try LocationTrace.parseGPX(Data(text.utf8), file: "t.gpx")
                return "no error"
            } catch { return "\(error)" }
        }
        let open = "<gpx version=\"1.1\"><trk><trkseg>\n"
        XCTAssertEqual(message(open + "<trkpt lat=\"47\" lon=\"9\"></trkpt></trkseg></trk></gpx>"), "t.gpx: line 2: <trkpt> without <time>")
        XCTAssertEqual(message(open + "\n<trkpt lat=\"99\" lon=\"9\"><time>0</time></trkpt></trkseg></trk></gpx>"),
                       "t.gpx: line 3: latitude 99 out of range")
        XCTAssertEqual(message(open + "<trkpt lon=\"9\"><time>0</time></trkpt></trkseg></trk></gpx>"),
                       "t.gpx: line 2: <trkpt> without lat and lon attributes")
        XCTAssertEqual(message("<gpx version=\"1.1\"><wpt lat=\"47\" lon=\"9\"/></gpx>"), "t.gpx: no track points (<trkpt>) in the GPX file")
        XCTAssertTrue(message(open + "<trkpt lat=\"47\" lon=\"9\">").hasPrefix("t.gpx: line "), message(open + "<trkpt"))
        XCTAssertTrue(message(open + "<trkpt lat=\"47\" lon=\"9\">").contains("not valid XML"))
        XCTAssertEqual(message("  \n"), "t.gpx: empty trace")
    }

    func testReadingFilesPicksTheFormat() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("offgrid-trace-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let gpxFile = dir.appendingPathComponent("drive.xml"), csvFile = dir.appendingPathComponent("drive.txt")
        try gpx.write(to: gpxFile, atomically: true, encoding: .utf8)
        try "time,lat,lon\n0,47,9\n".write(to: csvFile, atomically: true, encoding: .utf8)
        XCTAssertEqual(try LocationTrace.read(path: gpxFile.path).count, 3)
        XCTAssertEqual(try LocationTrace.read(path: csvFile.path), [LocationFix(time: 0, lon: 9, lat: 47)])
        XCTAssertThrowsError(try LocationTrace.read(path: dir.appendingPathComponent("missing.csv").path)) {
            XCTAssertTrue("\($0)".hasSuffix("missing.csv: cannot read the trace file"), "\($0)")
        }
    }

    // MARK: - Progress along a route

    let local = TestLocalMetres(origin: GeoPoint(lon: 9.52, lat: 47.14))

    func route(_ metres: [(Double, Double)]) -> [GeoPoint] { metres.map { local.point(east: $0.0, north: $0.1) } }

    /// Fixes every `step` metres along the route, moved by up to `noise` metres each way.
    func drive(_ route: [GeoPoint], step: Double, noise: Double, seed: UInt64, start: Double = 0) -> [LocationFix] {
        var random = FixtureRandom(seed: seed)
        var fixes: [LocationFix] = []
        var time = start
        for (a, b) in zip(route, route.dropFirst()) {
            let length = haversineMeters(a, b)
            var s = 0.0
            while s < length {
                let t = s / length
                let p = local.offset(of: GeoPoint(lon: a.lon + t * (b.lon - a.lon), lat: a.lat + t * (b.lat - a.lat)))
                let q = local.point(east: p.east + random.uniform(-noise, noise), north: p.north + random.uniform(-noise, noise))
                fixes.append(LocationFix(time: time, lon: q.lon, lat: q.lat, accuracy: 5))
                time += 1.5
                s += step
            }
        }
        let end = route.last!
        fixes.append(LocationFix(time: time, lon: end.lon, lat: end.lat, accuracy: 5))
        return fixes
    }

    /// Runs the fixes; checks progress never goes back and nothing is off route.
    func checkOnRoute(_ route: [GeoPoint], _ fixes: [LocationFix], file: StaticString = #filePath, line: UInt = #line) {
        var tracker = RouteProgressTracker(route: route)
        var previous = -1.0
        for (i, fix) in fixes.enumerated() {
            let p = tracker.update(fix)
            XCTAssertGreaterThanOrEqual(p.distanceAlongMeters, previous, "fix \(i)", file: file, line: line)
            XCTAssertFalse(p.isOffRoute, "fix \(i)", file: file, line: line)
            XCTAssertLessThan(p.distanceFromRouteMeters, 10, "fix \(i)", file: file, line: line)
            XCTAssertEqual(p.distanceAlongMeters + p.distanceRemainingMeters, tracker.routeLengthMeters, accuracy: 1e-6, file: file, line: line)
            previous = p.distanceAlongMeters
        }
        XCTAssertEqual(previous, tracker.routeLengthMeters, accuracy: 1, file: file, line: line)
    }

    func testATraceAlongTheRouteStaysOnItWithMonotoneProgress() {
        let r = route([(0, 0), (800, 0), (900, 50), (900, 700), (1500, 900), (2500, 900)])
        checkOnRoute(r, drive(r, step: 15, noise: 4, seed: 1))
        checkOnRoute(r, drive(r, step: 40, noise: 8, seed: 2))
    }

    func testARouteThatComesBackNearItselfKeepsProgressMonotone() {
        // Out 1 km and back 30 m beside the way out (a divided road, a hairpin).
        let hairpin = route([(0, 0), (1000, 0), (1000, 30), (0, 30)])
        checkOnRoute(hairpin, drive(hairpin, step: 20, noise: 5, seed: 3))
        // A lollipop: out along a stem, round a block, and back along the very same stem.
        let lollipop = route([(0, 0), (500, 0), (500, 300), (800, 300), (800, 0), (500, 0), (0, 0)])
        checkOnRoute(lollipop, drive(lollipop, step: 20, noise: 4, seed: 4))
    }

    func testADetourTriggersExactlyOneDetectionOnTheThirdFarFix() {
        let r = route([(0, 0), (3000, 0)])
        var fixes = (0..<10).map { i in fix(east: Double(i) * 50, north: 0, time: Double(i)) }
        fixes += (10..<15).map { i in fix(east: Double(i) * 50, north: 200, time: Double(i)) }
        fixes += (15..<20).map { i in fix(east: Double(i) * 50, north: 2, time: Double(i)) }
        var tracker = RouteProgressTracker(route: r)
        let progress = fixes.map { tracker.update($0) }
        XCTAssertEqual(progress.indices.filter { progress[$0].offRouteJustDetected }, [12])
        XCTAssertEqual(progress.indices.filter { progress[$0].isOffRoute }, [12, 13, 14])
        XCTAssertEqual(progress[13].distanceFromRouteMeters, 200, accuracy: 0.5)
        // While away, progress waits where the device left the route.
        XCTAssertEqual(progress[14].distanceAlongMeters, progress[9].distanceAlongMeters, accuracy: 1e-9)
        XCTAssertEqual(progress[19].distanceAlongMeters, 950, accuracy: 1)
        // After a reroute the new route starts from nothing.
        tracker.reset(route: route([(950, 200), (950, 1000)]))
        let p = tracker.update(fix(east: 950, north: 260, time: 30))
        XCTAssertFalse(p.isOffRoute)
        XCTAssertEqual(p.distanceAlongMeters, 60, accuracy: 0.5)
        XCTAssertEqual(p.fractionTraveled, 60.0 / 800, accuracy: 0.001)
    }

    func testPoorAccuracyWidensTheThresholdUpToACap() {
        let r = route([(0, 0), (3000, 0)])
        var tracker = RouteProgressTracker(route: r, offRouteMeters: 50, consecutiveFixes: 3)
        for i in 0..<5 {
            let p = tracker.update(fix(east: Double(i) * 50, north: 100, time: Double(i), accuracy: 300))
            XCTAssertFalse(p.isOffRoute, "fix \(i) at 100 m with accuracy 300 m")
            XCTAssertEqual(p.distanceFromRouteMeters, 100, accuracy: 0.5)
        }
        // The allowance stops at 200 m: 250 m off counts even with accuracy 300 m.
        let far = (5..<8).map { i in tracker.update(fix(east: Double(i) * 50, north: 250, time: Double(i), accuracy: 300)) }
        XCTAssertEqual(far.map(\.offRouteJustDetected), [false, false, true])
        // Back near the route clears the state, so a later departure is reported again.
        XCTAssertFalse(tracker.update(fix(east: 400, north: 0, time: 8)).isOffRoute)
    }

    func testDegenerateRoutes() {
        var point = RouteProgressTracker(route: [local.point(east: 0, north: 0)])
        let p = point.update(fix(east: 30, north: 0, time: 0))
        XCTAssertEqual(p.distanceFromRouteMeters, 30, accuracy: 0.1)
        XCTAssertEqual(p.fractionTraveled, 1)
        var empty = RouteProgressTracker(route: [], consecutiveFixes: 1)
        XCTAssertTrue(empty.update(fix(east: 0, north: 0, time: 0)).offRouteJustDetected)
    }

    func fix(east: Double, north: Double, time: Double, accuracy: Double? = 5) -> LocationFix {
        let p = local.point(east: east, north: north)
        return LocationFix(time: time, lon: p.lon, lat: p.lat, accuracy: accuracy)
    }
}
