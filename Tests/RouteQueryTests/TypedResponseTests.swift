import OffgridCore
@testable import RouteQuery
import TestSupport
import XCTest

/// The typed responses encode to OSRM's field names and shapes, and batch lines decode to the
/// same requests (and the same per-line errors) as before the types existed.
final class TypedResponseTests: XCTestCase {
    func data() throws -> RoutingData { try RoutingData(path: try SampleGraphFixture.graphPath()) }

    func testRouteResponseUsesOSRMFieldNames() throws {
        let service = try RouteService(data: try data())
        var request = RouteRequest(coordinates: [(9.5215, 47.1410), (9.4990, 47.0660)])
        request.steps = true
        request.geometries = .geojson
        let json = try JSONEncoding.value(service.route(request))
        XCTAssertEqual(json["code"], "Ok")
        let route = try XCTUnwrap(json["routes"]?[0])
        XCTAssertEqual(route["weight_name"], "duration")
        XCTAssertEqual(route["geometry"]?["type"], "LineString")
        XCTAssertEqual(route["geometry"]?["coordinates"]?[0]?.arrayValue?.count, 2)
        let step = try XCTUnwrap(route["legs"]?[0]?["steps"]?[0])
        XCTAssertEqual(Set(step.objectValue?.keys.map { $0 } ?? []),
                       ["distance", "duration", "weight", "name", "ref", "mode", "driving_side", "geometry", "maneuver", "intersections"])
        XCTAssertEqual(step["maneuver"]?["type"], "depart")
        XCTAssertNotNil(step["maneuver"]?["bearing_after"]?.intValue)
        XCTAssertNil(step["maneuver"]?["modifier"], "a departure has no modifier: the field is left out, not null")
        XCTAssertEqual(step["intersections"]?[0]?["out"], 0)
        let waypoint = try XCTUnwrap(json["waypoints"]?[0])
        XCTAssertEqual(waypoint["hint"], "")
        XCTAssertEqual(waypoint["location"]?.arrayValue?.count, 2)
    }

    func testNoOverviewAndFeatureCollection() throws {
        let service = try RouteService(data: try data())
        var request = RouteRequest(coordinates: [(9.5215, 47.1410), (9.4990, 47.0660)])
        request.overview = .false
        let plain = try JSONEncoding.value(service.route(request))
        XCTAssertNil(plain["routes"]?[0]?["geometry"], "overview=false leaves the geometry out")
        XCTAssertEqual(plain["routes"]?[0]?["legs"]?[0]?["steps"], [], "no steps asked: an empty list")
        request.format = .geojson
        let collection = try JSONEncoding.value(service.route(request))
        XCTAssertEqual(collection["type"], "FeatureCollection")
        XCTAssertEqual(collection["features"]?[0]?["geometry"], .null, "the route feature keeps a null geometry")
        XCTAssertNil(collection["features"]?[0]?["properties"]?["legs"])
        XCTAssertEqual(collection["features"]?[2]?["properties"]?["waypoint"], 1)
        XCTAssertEqual(collection["features"]?[2]?["geometry"]?["type"], "Point")
    }

    func testFailuresAndTableNulls() throws {
        let d = try data()
        let failure = try JSONEncoding.value(RouteService(data: d).route(RouteRequest(coordinates: [(8.0, 46.0), (9.52, 47.14)])))
        XCTAssertEqual(failure, ["code": "NoSegment", "message": "Could not find a matching segment for coordinate 0"])
        let table = try TableService(data: d)
        XCTAssertThrowsError(try table.table(sources: [(9.52, 47.14), (300, 0)], destinations: [(9.52, 47.14)])) { error in
            XCTAssertEqual((error as? QueryFailure)?.message, "source 1 (300.0,0.0) is not a valid lon,lat")
        }
        let t = try JSONEncoding.value(table.table(sources: [(9.5215, 47.1410)], destinations: [(9.4990, 47.0660)]))
        XCTAssertNotNil(t["durations"]?[0]?[0]?.doubleValue)
        XCTAssertNil(t["distances"], "distances only when asked for")
        let nulls = try JSONEncoding.value(TableResponse(durations: [[nil, 1.5]], sources: [], destinations: []))
        XCTAssertEqual(nulls["durations"], [[nil, 1.5]])
        // The matrices go to the encoder ready-made: the same text as the synthesized encoding.
        XCTAssertEqual(try JSONEncoding.string(TableResponse(durations: [[nil, 1.5], [2, 0.25]], distances: [[3]], sources: [], destinations: []), pretty: false),
                       #"{"code":"Ok","destinations":[],"distances":[[3]],"durations":[[null,1.5],[2,0.25]],"sources":[]}"#)
        XCTAssertThrowsError(try JSONEncoding.string(TableResponse(durations: [[.infinity]], sources: [], destinations: [])))
    }

    func testBatchLinesDecodeWithTheSameErrors() throws {
        var defaults = RouteRequest(coordinates: [])
        defaults.overview = .full
        func request(_ line: String) throws -> RouteRequest { try BatchQuery.request(try JSONReader.parse(line), defaults: defaults) }
        func problem(_ line: String) -> String? {
            do { _ = try request(line); return nil } catch { return "\(error)" }
        }
        let r = try request(#"{"from":[9,47],"via":[[9.1,47.1]],"to":[9.2,47.2],"steps":1,"geometries":"geojson","bearings":[[90,45],null,null],"radiuses":[null,"x",5]}"#)
        XCTAssertEqual(r.coordinates.map(\.lon), [9, 9.1, 9.2])
        XCTAssertTrue(r.steps, "1 reads as true, as it did")
        XCTAssertEqual(r.geometries, .geojson)
        XCTAssertEqual(r.overview, .full, "the defaults stay where the line says nothing")
        XCTAssertEqual(r.bearings.map { $0?.degrees }, [90, nil, nil])
        XCTAssertEqual(r.radiuses, [nil, nil, 5])
        XCTAssertEqual(problem(#"{"to":[9,47]}"#), #""from" must be [lon, lat]"#)
        XCTAssertEqual(problem(#"{"from":[9,47],"via":[[1]],"to":[9,47]}"#), #""via" must be [lon, lat]"#)
        XCTAssertEqual(problem(#"{"from":[9,47],"to":[9,47],"geometries":"wkt"}"#), "unknown geometries wkt")
        XCTAssertEqual(problem(#"{"from":[9,47],"to":[9,47],"overview":"some"}"#), "unknown overview some")
        XCTAssertEqual(problem(#"{"from":[9,47],"to":[9,47],"bearings":[[1],null]}"#), "bearings must be [deg, range] or null")
        XCTAssertEqual(problem(#"{"from":[200,47],"to":[9,47]}"#), "coordinate 0 (200.0,47.0) is not a valid lon,lat")
    }

    func testBatchRunnerAnswersInOrderWithTypedAnswers() throws {
        let runner = BatchRunner(data: try data(), defaults: RouteRequest(coordinates: []), full: false, threads: 2)
        let service = try RouteService(data: try data())
        let ok = runner.answer(service, #"{"id":7,"from":[9.5215,47.1410],"to":[9.4990,47.0660]}"#)
        XCTAssertEqual(ok.id, 7)
        XCTAssertEqual(ok.code, "Ok")
        XCTAssertNotNil(ok.distanceMeters)
        XCTAssertNil(ok.route)
        let bad = runner.answer(service, "[1, 2]")
        XCTAssertEqual(try JSONEncoding.value(bad), ["id": nil, "code": "InvalidInput", "message": "not a JSON object"])
    }

    /// The hand-written writer of batch answers gives exactly the bytes of the generic encoder:
    /// random routes, with and without steps, in every geometry, with alternatives, and failures.
    func testHandWrittenBatchJSONEqualsTheEncoder() throws {
        let d = try data()
        let service = try RouteService(data: d)
        var rng = FixtureRandom(seed: 33)
        func point() -> (lon: Double, lat: Double) {
            (9.48 + Double(rng.next() % 10_000) / 10_000 * 0.14, 47.06 + Double(rng.next() % 10_000) / 10_000 * 0.18)
        }
        let ids: [JSONValue] = [.null, 7, 1.5, "a\"b\\c", ["nested": [1, true, nil]]]
        var compared = 0, failures = 0
        for i in 0..<150 {
            var request = RouteRequest(coordinates: i % 7 == 0 ? [point(), point(), point()] : [point(), point()])
            request.steps = i % 2 == 0
            request.geometries = RouteRequest.Geometries.allCases[i % 3]
            request.overview = RouteRequest.Overview.allCases[(i / 3) % 3]
            request.alternatives = i % 5 == 0 ? 2 : 0
            var answer: BatchAnswer
            do {
                var response = try service.routes(request)
                if i % 4 != 0 { response.code = nil }
                answer = BatchAnswer(id: ids[i % ids.count], code: "Ok", distanceMeters: response.routes[0].distance,
                                     durationSeconds: response.routes[0].duration, route: response)
            } catch {
                failures += 1
                answer = BatchAnswer(id: ids[i % ids.count], code: error.code, message: error.message)
            }
            var text = ""
            answer.writeJSON(to: &text)
            XCTAssertEqual(text, try JSONEncoding.string(answer, pretty: false), "request \(i)")
            // The byte buffer batch and the server write into, from a size that makes it grow often.
            var buffer = JSONBuffer(capacity: 1)
            answer.writeJSON(to: &buffer)
            XCTAssertEqual(String(decoding: buffer.bytes, as: UTF8.self), text, "request \(i)")
            compared += 1
        }
        XCTAssertGreaterThan(compared - failures, 100, "most random pairs route")
    }
}

extension JSONValue {
    /// Array element, or nil when this is not an array or the index is out of range.
    subscript(index: Int) -> JSONValue? {
        guard let items = arrayValue, items.indices.contains(index) else { return nil }
        return items[index]
    }
}
