import OffgridCore
@testable import RouteQuery
import XCTest

/// The batch fast path must read a line exactly as the exact reader + BatchQuery do, and leave
/// every other line to them.
final class BatchLineScannerTests: XCTestCase {
    func testScannedLinesEqualTheExactReader() throws {
        let lines = [
            #"{"id":1,"from":[9.5215,47.141],"to":[9.499,47.066]}"#,
            #"{"to":[9.499,47.066],"from":[9.5215,47.141]}"#,
            #" { "id" : "a-7" , "from" : [ -0.0 , 1e-3 ] , "to" : [ 180 , -90 ] } "#,
            #"{"id":null,"from":[9,47],"to":[9.1,47.1]}"#,
            #"{"id":-12,"from":[9.123456789012345678,4.75E+1],"to":[0.1,0.2]}"#,
            #"{"id":99999999999999999999,"from":[9,47],"to":[9,47]}"#,   // too big for Int: a double, as JSONReader
        ]
        for line in lines {
            let fast = try XCTUnwrap(BatchLineScanner.scan(Substring(line)), line)
            let exact = try JSONReader.parse(line)
            XCTAssertEqual(fast.id, exact["id"] ?? .null, line)
            let request = try BatchQuery.request(exact, defaults: RouteRequest(coordinates: []))
            XCTAssertEqual(request.coordinates.count, 2, line)
            XCTAssertEqual(fast.from.lon.bitPattern, request.coordinates[0].lon.bitPattern, line)
            XCTAssertEqual(fast.from.lat.bitPattern, request.coordinates[0].lat.bitPattern, line)
            XCTAssertEqual(fast.to.lon.bitPattern, request.coordinates[1].lon.bitPattern, line)
            XCTAssertEqual(fast.to.lat.bitPattern, request.coordinates[1].lat.bitPattern, line)
        }
    }

    func testOtherLinesAreLeftToTheExactReader() {
        let lines = [
            "", "not json", "{}", "[1,2]",
            #"{"from":[9,47]}"#,                                         // no "to"
            #"{"from":[9,47],"to":[9,47],"steps":true}"#,                // another key
            #"{"from":[9,47],"to":[9,47],"id":1,"id":2}"#,               // a repeated key
            #"{"from":[9,47,1],"to":[9,47]}"#, #"{"from":[9],"to":[9,47]}"#,
            #"{"from":[09,47],"to":[9,47]}"#, #"{"from":[9.,47],"to":[9,47]}"#, #"{"from":[1e999,47],"to":[9,47]}"#,
            #"{"id":"\u0041","from":[9,47],"to":[9,47]}"#, #"{"id":"é","from":[9,47],"to":[9,47]}"#,
            #"{"id":{},"from":[9,47],"to":[9,47]}"#, #"{"id":true,"from":[9,47],"to":[9,47]}"#,
            #"{"from":[9,47],"to":[9,47]} x"#, #"{"from":[9,47],"to":[9,47],}"#,
        ]
        for line in lines { XCTAssertNil(BatchLineScanner.scan(Substring(line)), line) }
    }
}
