import Foundation
import OffgridCore
import RoutingProfile
import XCTest

/// Inputs fuzz-profile found (Tests/fuzz-regressions/profile/, docs/TESTING.md).
final class ProfileFuzzFindingTests: XCTestCase {
    /// A field name holding a carriage return (`"oth\rHighwaySpeedKmh"`, JSON-escaped): the
    /// "unknown field" error quoted it raw, so route-graph's one-line error became two.
    func testUnknownFieldWithCarriageReturnIsOneLine() throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("fuzz-regressions/profile/unknown-field-with-carriage-return.json").path
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        XCTAssertThrowsError(try TravelProfile.parse(json: bytes, source: "profile.json")) { error in
            let text = "\(error)"
            XCTAssertTrue(text.hasPrefix(#"profile.json: unknown field "oth\rHighwaySpeedKmh""#), text)
            XCTAssertFalse(text.contains("\r") || text.contains("\n"), text)
        }
    }

    func testFileNameWithNewlineIsOneLine() {
        XCTAssertEqual(ProfileError(file: "a\nb.json", "bad \"x\ty\"").description, #"a\nb.json: bad "x\ty""#)
    }
}
