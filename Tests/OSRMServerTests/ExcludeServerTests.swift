import Foundation
import OffgridCore
import TestSupport
import XCTest

/// `exclude=` on a real server: the CLI's bytes for the same exclusion, OSRM's error for a class
/// the profile does not know, Mapbox's point form.
final class ExcludeServerTests: SampleServerTestCase {
    func testExcludeEqualsTheCLIsBytes() throws {
        let a = "9.5215,47.1410", b = "9.4990,47.0660", malbun = "9.5900,47.1050"
        let cases: [(String, [String])] = [
            ("/route/v1/driving/\(a);\(malbun)?exclude=tunnel", ["route", "--from", a, "--to", malbun, "--geometries", "polyline", "--exclude", "tunnel"]),
            ("/route/v1/driving/\(a);\(b)?exclude=motorway,unpaved&steps=true",
             ["route", "--from", a, "--to", b, "--geometries", "polyline", "--steps", "--exclude", "motorway,unpaved"]),
            ("/route/v1/driving/\(a);\(b)?exclude=point(9.5100%2047.1000)",
             ["route", "--from", a, "--to", b, "--geometries", "polyline", "--exclude", "point(9.5100 47.1000)"]),
            ("/table/v1/driving/\(a);\(b);\(malbun)?exclude=tunnel", ["table", "--sources", "\(a);\(b);\(malbun)", "--exclude", "tunnel"]),
            ("/nearest/v1/driving/\(a)?number=2&exclude=unpaved", ["nearest", "--at", a, "--number", "2", "--exclude", "unpaved"]),
        ]
        for (target, args) in cases {
            let reply = try XCTUnwrap(try http.get(target), target)
            let cli = try TestTools.run("route-query", args + ["--graph", graph, "--compact"])
            XCTAssertEqual(cli.status, 0, cli.stderr)
            XCTAssertEqual(reply.body + "\n", cli.stdout, target)
        }
        // The exclusion is applied (Malbun lies behind a tunnel), and the plain route still answers.
        XCTAssertEqual(try JSONReader.parse(try XCTUnwrap(try http.get(cases[0].0)).body)["code"], "NoRoute")
        XCTAssertEqual(try JSONReader.parse(try XCTUnwrap(try http.get("/route/v1/driving/\(a);\(malbun)")).body)["code"], "Ok")
    }

    func testExcludeErrors() throws {
        let a = "9.5215,47.1410", b = "9.4990,47.0660"
        let unknown = try XCTUnwrap(try http.get("/route/v1/driving/\(a);\(b)?exclude=motorway,highway"))
        XCTAssertEqual(unknown.status, 400)
        XCTAssertEqual(unknown.body, #"{"code":"InvalidValue","message":"Exclude flag combination is not supported."}"#)
        for target in ["/table/v1/driving/\(a);\(b)?exclude=tolls", "/nearest/v1/driving/\(a)?exclude=Motorway"] {
            let reply = try XCTUnwrap(try http.get(target))
            XCTAssertEqual(reply.status, 400)
            XCTAssertEqual(try JSONReader.parse(reply.body)["code"], "InvalidValue", target)
        }
        for target in ["/route/v1/driving/\(a);\(b)?exclude=point(9.5)", "/route/v1/driving/\(a);\(b)?exclude=",
                       "/route/v1/driving/\(a);\(b)?exclude=point(9.5%20400)"] {
            let reply = try XCTUnwrap(try http.get(target))
            XCTAssertEqual(reply.status, 400)
            XCTAssertEqual(try JSONReader.parse(reply.body)["code"], "InvalidQuery", target)
        }
        // A space is still no byte of OSRM's URL grammar outside point(…).
        let space = try XCTUnwrap(try http.get("/route/v1/driving/\(a);\(b)?steps=true%20"))
        XCTAssertEqual(try JSONReader.parse(space.body)["code"], "InvalidUrl")
    }
}
