import Foundation
import Glibc
import OffgridCore
import TestSupport
import XCTest

/// `route-query serve` as a client sees it: a real server on a loopback port, real requests.
final class OSRMServerTests: SampleServerTestCase {
    func json(_ r: RawHTTP.Reply?, file: StaticString = #filePath, line: UInt = #line) throws -> JSONValue {
        guard let r else { XCTFail("no answer", file: file, line: line); return .null }
        return try JSONReader.parse(r.body)
    }

    /// The server's body equals the CLI's `--compact` output for the same question.
    func testBodiesEqualTheCLIs() throws {
        let a = "9.5215,47.1410", b = "9.4990,47.0660", c = "9.5270,47.2400"
        let cases: [(String, [String])] = [
            ("/route/v1/driving/\(a);\(b)", ["route", "--from", a, "--to", b, "--geometries", "polyline"]),
            ("/route/v1/car/\(a);\(b)?steps=true&overview=full&geometries=polyline6",
             ["route", "--from", a, "--to", b, "--steps", "--overview", "full", "--geometries", "polyline6"]),
            ("/route/v1/driving/\(c);\(a);\(b).json?geometries=geojson&overview=false&annotations=true&continue_straight=true",
             ["route", "--from", c, "--via", a, "--to", b, "--geometries", "geojson", "--overview", "false",
              "--annotations", "true", "--continue-straight"]),
            ("/route/v1/driving/\(a);\(b)?alternatives=2&annotations=duration,distance,speed&overview=simplified",
             ["route", "--from", a, "--to", b, "--geometries", "polyline", "--alternatives", "2", "--annotations", "duration,distance,speed"]),
            ("/route/v1/driving/\(a);\(b)?bearings=90,45;&radiuses=100;unlimited&steps=true",
             ["route", "--from", a, "--to", b, "--geometries", "polyline", "--bearings", "90,45;", "--radiuses", "100;unlimited", "--steps"]),
            ("/route/v1/driving/8.0,46.0;\(b)", ["route", "--from", "8.0,46.0", "--to", b, "--geometries", "polyline"]),
            ("/route/v1/driving/\(c);\(b)?steps=true&voice_instructions=true&banner_instructions=true",
             ["route", "--from", c, "--to", b, "--geometries", "polyline", "--steps", "--voice-instructions", "--banner-instructions"]),
            ("/table/v1/driving/\(a);\(b);\(c)", ["table", "--sources", "\(a);\(b);\(c)"]),
            ("/table/v1/driving/\(a);\(b);\(c)?sources=0;2&destinations=1&annotations=duration,distance",
             ["table", "--sources", "\(a);\(c)", "--destinations", b, "--annotations", "duration,distance"]),
            ("/nearest/v1/driving/\(a)?number=3", ["nearest", "--at", a, "--number", "3"]),
            ("/nearest/v1/driving/\(a)?radiuses=20&bearings=0,90", ["nearest", "--at", a, "--radius", "20", "--bearing", "0,90"]),
        ]
        for (target, args) in cases {
            let reply = try XCTUnwrap(try http.get(target), target)
            let cli = try TestTools.run("route-query", args + ["--graph", graph, "--compact"])
            XCTAssertEqual(cli.status, 0, cli.stderr)
            XCTAssertEqual(reply.body + "\n", cli.stdout, target)
            let code = try JSONReader.parse(reply.body)["code"]?.stringValue
            XCTAssertEqual(reply.status, code == "Ok" ? 200 : 400, target)
        }
        // polyline(…) coordinates are the same waypoints.
        let encoded = try XCTUnwrap(try http.get("/route/v1/driving/polyline(gfv~Gktby@vsMrkC)?overview=false"))
        XCTAssertEqual(try JSONReader.parse(encoded.body)["code"]?.stringValue, "Ok")
    }

    /// Annotations have one value per segment of the full geometry and add up to the leg; a via
    /// route that may not turn back at the via point is never faster than one that may.
    func testAnnotationsAndContinueStraight() throws {
        let target = "/route/v1/driving/9.5270,47.2400;9.5215,47.1410?overview=full&geometries=geojson&annotations=true"
        let route = try XCTUnwrap(try json(try http.get(target))["routes"]?.arrayValue?.first)
        let points = try XCTUnwrap(route["geometry"]?["coordinates"]?.arrayValue)
        let leg = try XCTUnwrap(route["legs"]?.arrayValue?.first)
        let annotation = try XCTUnwrap(leg["annotation"])
        let distances = try XCTUnwrap(annotation["distance"]?.arrayValue).compactMap(\.doubleValue)
        let durations = try XCTUnwrap(annotation["duration"]?.arrayValue).compactMap(\.doubleValue)
        XCTAssertEqual(distances.count, points.count - 1)
        XCTAssertEqual(durations.count, points.count - 1)
        XCTAssertEqual(annotation["speed"]?.arrayValue?.count, points.count - 1)
        XCTAssertEqual(distances.reduce(0, +), try XCTUnwrap(leg["distance"]?.doubleValue), accuracy: 1)
        XCTAssertEqual(durations.reduce(0, +), try XCTUnwrap(leg["duration"]?.doubleValue), accuracy: 0.05 * Double(durations.count) + 1)

        func duration(_ straight: Bool) throws -> Double {
            let body = try json(try http.get("/route/v1/driving/9.5270,47.2400;9.5190,47.1385;9.4990,47.0660?overview=false&continue_straight=\(straight)"))
            return try XCTUnwrap(body["routes"]?.arrayValue?.first?["duration"]?.doubleValue)
        }
        XCTAssertGreaterThanOrEqual(try duration(true), try duration(false))
    }

    /// osrm-routed's codes and statuses for the bad requests it distinguishes (checked against
    /// osrm-routed 26.10 by OSRMRoutedParityTests).
    func testErrorCodes() throws {
        let a = "9.5215,47.1410", b = "9.4990,47.0660"
        let cases: [(String, Int, String)] = [
            ("/route/v1/driving/\(a)", 400, "InvalidOptions"),
            ("/route/v1/driving/\(a);abc", 400, "InvalidQuery"),
            ("/route/v1/driving/200,47.1;\(b)", 400, "InvalidValue"),
            ("/route/v1/driving/\(a);\(b)?geometries=foo", 400, "InvalidQuery"),
            ("/route/v1/driving/\(a);\(b)?foo=bar", 400, "InvalidQuery"),
            ("/route/v1/driving/\(a);\(b)?bearings=10,10", 400, "InvalidOptions"),
            ("/route/v1/driving/\(a);\(b)?bearings=400,10;", 400, "InvalidOptions"),
            ("/route/v1/driving/\(a);\(b)?radiuses=-5;", 400, "NoSegment"),
            ("/route/v1/driving/\(a);\(b)?alternatives=7", 400, "TooBig"),
            ("/route/v1/driving/\(a);\(b)?alternatives=99999999999999999999", 400, "InvalidQuery"),
            ("/route/v1/driving/\(a);\(b)?continue_straight=maybe", 400, "InvalidQuery"),
            ("/route/v1/driving/\(a);\(b)?annotations=foo", 400, "InvalidQuery"),
            ("/route/v1/driving/\(a);\(b)?voice_instructions=true", 400, "InvalidOptions"),
            ("/route/v2/driving/\(a);\(b)", 400, "InvalidVersion"),
            ("/foo/v1/driving/\(a);\(b)", 400, "InvalidService"),
            ("/route/v1/driving", 400, "InvalidUrl"),
            ("/", 400, "InvalidUrl"),
            ("/route/v1/driving/1e400,47;9,47", 400, "InvalidQuery"),
            ("/route/v1/driving/\(a);\(b).xml", 400, "InvalidQuery"),
            ("/route/v1/driving/\(a);\(b)?", 400, "InvalidQuery"),
            ("/route/v1/driving/\(a);;\(b)", 400, "InvalidQuery"),
            ("/route/v1/driving/8.0,46.0;\(b)", 400, "NoSegment"),
            ("/route/v1/driving/" + Array(repeating: a, count: 600).joined(separator: ";"), 400, "TooBig"),
            ("/table/v1/driving/" + Array(repeating: a, count: 120).joined(separator: ";"), 400, "TooBig"),
            ("/table/v1/driving/\(a);\(b)?sources=0&destinations=5", 400, "InvalidOptions"),
            ("/table/v1/driving/\(a);\(b)?annotations=speed", 400, "InvalidQuery"),
            ("/table/v1/driving/\(a)", 400, "InvalidOptions"),
            ("/nearest/v1/driving/\(a)?number=1000", 400, "TooBig"),
            ("/nearest/v1/driving/\(a)?number=0", 400, "InvalidOptions"),
            ("/nearest/v1/driving/8.0,46.0", 400, "NoSegment"),
            ("/route/v1/driving/" + String(repeating: "9", count: 70_000), 414, "InvalidUrl"),
        ]
        for (target, status, code) in cases {
            let reply = try XCTUnwrap(try http.get(target), target)
            XCTAssertEqual(reply.status, status, String(target.prefix(120)))
            XCTAssertEqual(try JSONReader.parse(reply.body)["code"]?.stringValue, code, String(target.prefix(120)))
        }
        let health = try XCTUnwrap(try http.get("/health"))
        XCTAssertEqual(health.status, 200)
    }

    /// Thousands of malformed requests from a seeded generator: each is answered with a JSON error
    /// (or the connection closed), and a good request is still answered after them.
    func testFuzzedURLsNeverHurtTheServer() throws {
        var random = SplitMix64(seed: 12)
        let pieces = ["/route/v1/driving/", "/table/v1/x/", "/nearest/v1/car/", "9.52,47.14", ";", ",", "?", "&", "=", "steps=true",
                      "bearings=", "radiuses=", "alternatives=", "sources=", "number=", "polyline(", ")", "%", "%C3%28", "%00",
                      "-", "1e308", "1e400", "99999999999999999999", "-0", "nan", "inf", "..", "/", "//", "%7F", "%C3%A9", "%FF%FE"]
        var answered = 0, closed = 0, parserRejected = 0
        for n in 0..<2_000 {
            // An origin-form target starts with "/" (anything else is HTTP's parser's to reject).
            var target: [UInt8] = Array((random.chance(0.8) ? pieces[random.below(3)] : "/").utf8)
            for _ in 0..<random.int(0, 12) {
                if random.chance(0.03) {
                    // Raw bytes, invalid UTF-8 and control characters included (not space, CR or LF:
                    // those end the request line); HTTP's parser rejects most of them itself.
                    target += random.bytes(random.int(1, 8)).map { $0 == 32 || $0 == 10 || $0 == 13 ? 0x41 : $0 }
                } else if random.chance(0.15) {
                    // The same bytes percent-encoded reach the OSRM parser (bad UTF-8 once decoded).
                    target += random.bytes(random.int(1, 8)).flatMap { Array(String(format: "%%%02X", $0).utf8) }
                } else {
                    target += Array(pieces[random.below(pieces.count)].utf8)
                }
            }
            if n % 200 == 0 { target += Array(repeating: UInt8(ascii: "9"), count: random.int(10_000, 100_000)) }
            if n % 50 == 0 { target = Array("/route/v1/driving/".utf8) + Array(Array(repeating: "9.52,47.14", count: random.int(500, 3000)).joined(separator: ";").utf8) }
            guard let reply = try http.get(target: target) else { closed += 1; continue }
            answered += 1
            XCTAssertTrue([400, 414, 200, 404, 405].contains(reply.status), "status \(reply.status) for \(target.prefix(80))")
            if reply.body.isEmpty {
                // Bytes HTTP does not allow in a request target: NIO's parser answers 400 and closes.
                XCTAssertEqual(reply.status, 400)
                parserRejected += 1
            } else {
                XCTAssertNotNil(try? JSONReader.parse(reply.body)["code"], "body \(reply.body.prefix(200))")
            }
        }
        XCTAssertGreaterThan(answered, 1_500, "closed: \(closed)")
        XCTAssertGreaterThan(answered - parserRejected, 1_000, "most requests reach the OSRM parser")
        let good = try XCTUnwrap(try http.get("/route/v1/driving/9.5215,47.1410;9.4990,47.0660?overview=false"))
        XCTAssertEqual(good.status, 200)
        XCTAssertTrue(server.process.isRunning)
    }

    /// A stalled half-request is closed after the idle timeout; a half-closed connection is
    /// answered or closed; the server keeps serving.
    func testSlowAndHalfClosedConnections() throws {
        let stalled = try http.connect(timeoutSeconds: 10)
        defer { close(stalled) }
        http.send(stalled, Array("GET /route/v1/driving/9.52,47.14;9.49,47.06 HTTP/1.1\r\nHost: x\r\n".utf8))
        let t0 = Date()
        let rest = http.readAll(stalled)
        XCTAssertLessThan(Date().timeIntervalSince(t0), 9, "the stalled connection was not closed")
        XCTAssertTrue(rest.isEmpty || RawHTTP.parse(rest) != nil)

        let half = try http.connect()
        defer { close(half) }
        http.send(half, Array("GET /nearest/v1/driving/9.5215,47.1410 HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
        shutdown(half, Int32(SHUT_WR))
        let reply = RawHTTP.parse(http.readAll(half))
        if let reply { XCTAssertEqual(reply.status, 200) }

        // Many idle connections at once do not block others.
        let idle = try (0..<50).map { _ in try http.connect() }
        defer { idle.forEach { close($0) } }
        XCTAssertEqual(try http.get("/nearest/v1/driving/9.5215,47.1410")?.status, 200)
    }

    /// SIGTERM while requests are in flight: they are answered, then the server exits 0.
    func testSIGTERMDrainsInFlightRequests() throws {
        let points = (0..<30).map { i in String(format: "%.4f,%.4f", 9.48 + Double(i % 10) * 0.01, 47.06 + Double(i / 10) * 0.05) }
        let big = "/table/v1/driving/" + points.joined(separator: ";") + "?annotations=duration,distance"
        let fds = try (0..<4).map { _ in try http.connect(timeoutSeconds: 30) }
        for fd in fds { http.send(fd, Array("GET \(big) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8)) }
        usleep(50_000)
        let status = server.stop()
        for fd in fds {
            let reply = RawHTTP.parse(http.readAll(fd))
            close(fd)
            XCTAssertEqual(reply?.status, 200, "an in-flight request was dropped")
        }
        XCTAssertEqual(status, 0)
        XCTAssertThrowsError(try http.connect(), "still accepting after SIGTERM")
    }

    /// An independent client: Python's requests and polyline decode routes, tables and nearest.
    func testPythonClientDecodesAnswers() throws {
        let python = try TestPython.executable()
        let p = Process()
        p.executableURL = URL(fileURLWithPath: python)
        p.arguments = [TestTools.path("Tests/python/osrm_client_check.py"), server.base, "--instructions"]
        let out = Pipe()
        p.standardOutput = out
        p.standardError = out
        try p.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0, text)
        XCTAssertTrue(text.contains("ok"), text)
    }
}
