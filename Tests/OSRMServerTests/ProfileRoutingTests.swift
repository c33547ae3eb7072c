import Foundation
import OffgridCore
import TestSupport
import XCTest

/// `route-query serve` with a car and a foot graph of the same pack: the URL's profile picks the
/// graph (OSRM's and Mapbox's names), a profile not served is OSRM's InvalidUrl.
final class ProfileRoutingTests: XCTestCase {
    func testTheProfileInTheURLChoosesTheGraph() throws {
        let car = try SampleGraph.path(), foot = try SampleGraph.path(profile: "foot")
        let server = try ServerProcess(graph: car, extra: ["--graph", foot])
        defer { _ = server.stop() }
        let http = RawHTTP(port: server.port)
        let trip = "9.5215,47.1410;9.4990,47.0660?steps=true&overview=false"
        func route(_ profile: String) throws -> (status: Int, body: JSONValue) {
            let reply = try XCTUnwrap(try http.get("/route/v1/\(profile)/\(trip)"))
            return (reply.status, try JSONReader.parse(reply.body))
        }
        func duration(_ body: JSONValue) -> Double? { body["routes"]?.arrayValue?.first?["duration"]?.doubleValue }
        func firstMode(_ body: JSONValue) -> String? {
            body["routes"]?.arrayValue?.first?["legs"]?.arrayValue?.first?["steps"]?.arrayValue?.first?["mode"]?.stringValue
        }
        let driving = try route("driving"), walking = try route("walking")
        XCTAssertEqual(driving.status, 200)
        XCTAssertEqual(walking.status, 200)
        XCTAssertEqual(firstMode(driving.body), "driving")
        XCTAssertEqual(firstMode(walking.body), "walking")
        let d = try XCTUnwrap(duration(driving.body)), w = try XCTUnwrap(duration(walking.body))
        XCTAssertGreaterThan(w, 5 * d, "a walk takes far longer than the drive")
        // Every name of a served mode reaches its graph.
        for alias in ["car", "driving-traffic"] { XCTAssertEqual(duration(try route(alias).body), d, alias) }
        for alias in ["foot"] { XCTAssertEqual(duration(try route(alias).body), w, alias) }
        // A mode without a graph here, and a name that is no mode.
        for missing in ["cycling", "bike", "horse"] {
            let r = try route(missing)
            XCTAssertEqual(r.status, 400, missing)
            XCTAssertEqual(r.body["code"]?.stringValue, "InvalidUrl", missing)
            XCTAssertEqual(r.body["message"]?.stringValue, "Profile \(missing) is not served here (served: driving, walking)")
        }
    }

    func testTwoGraphsOfOneModeAreRefused() throws {
        let car = try SampleGraph.path()
        let r = try TestTools.run("route-query", ["serve", "--graph", car, "--graph", car, "--listen", "127.0.0.1:0"])
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
        XCTAssertTrue(r.stderr.contains("a second graph for car"), r.stderr)
        XCTAssertTrue(r.stderr.contains(car), r.stderr)
    }
}
