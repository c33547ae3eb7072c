import Foundation
import OffgridCore
import RouteQuery
import TestSupport
import XCTest

/// Inputs fuzz-location-trace found (Tests/fuzz-regressions/location-trace/, docs/TESTING.md).
final class GPXFuzzFindingTests: XCTestCase {
    /// An element name holding a byte that is not UTF-8 (`<\u{D8}trkpt>`): Foundation's XMLParser
    /// trapped (SIGILL) in its start-element callback. Now refused before parsing, with one line.
    func testElementNameNotUTF8IsRefused() throws {
        let input = try Data(contentsOf: URL(fileURLWithPath: TestTools.path("Tests/fuzz-regressions/location-trace/gpx-element-name-not-utf8.gpx")))
        let error = assertInputError(try LocationTrace.parseGPX(input, file: "hostile.gpx"), contains: "not UTF-8 text")
        XCTAssertEqual(error?.offset, input.firstIndex(of: 0xD8).map { $0 - input.startIndex })
        XCTAssertFalse(error?.description.contains("\n") ?? true)
    }

    func testSmallestSuchInputAndValidUTF8StillParse() throws {
        let bad = Data("<gpx><trk><trkseg><\u{FF}".utf8) + Data([0xD8]) + Data("a/></trkseg></trk></gpx>".utf8)
        assertInputError(try LocationTrace.parseGPX(bad, file: "x.gpx"), contains: "x.gpx at byte 21: not UTF-8 text")
        let good = Data(#"<gpx><trk><name>Zürich → Vaduz</name><trkseg><trkpt lat="47.14" lon="9.52"><time>2024-03-05T00:00:00Z</time></trkpt></trkseg></trk></gpx>"#.utf8)
        XCTAssertEqual(try LocationTrace.parseGPX(good, file: "x.gpx").count, 1)
    }
}
