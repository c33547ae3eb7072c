import Foundation
import XCTest
@testable import RoutingProfile

/// The bicycle and foot profiles of `profiles/`: which tags speak to each traveller (OSRM's
/// bicycle.lua and foot.lua rules), on ways, barriers and restrictions.
final class TravelModeTests: XCTestCase {
    static let profiles = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("profiles")
    let car = TravelProfile.embeddedDefault
    lazy var foot = try! TravelProfile.load(path: Self.profiles.appendingPathComponent("foot.json").path)
    lazy var bicycle = try! TravelProfile.load(path: Self.profiles.appendingPathComponent("bicycle.json").path)

    /// "forward/backward" km/h, or "-" when the way is not used.
    private func speeds(_ p: TravelProfile, _ tags: [String: String]) -> String {
        guard let a = p.evaluateWay(tags: tags) else { return "-" }
        return "\(a.forward ? a.speedKmh : 0)/\(a.backward ? a.speedBackwardKmh : 0)"
    }

    func testModesAreRead() {
        XCTAssertEqual([car.settings.mode, foot.settings.mode, bicycle.settings.mode], [.car, .foot, .bicycle])
        XCTAssertEqual(Set([car.hash, foot.hash, bicycle.hash]).count, 3)
    }

    func testWhoUsesWhichWay() {
        let cases: [([String: String], car: String, bicycle: String, foot: String)] = [
            (["highway": "footway"], "-", "4.0/4.0", "5.0/5.0"),
            (["highway": "cycleway"], "-", "15.0/15.0", "-"),
            (["highway": "cycleway", "foot": "yes"], "-", "15.0/15.0", "5.0/5.0"),
            (["highway": "steps"], "-", "2.0/2.0", "5.0/5.0"),
            (["highway": "track"], "-", "12.0/12.0", "5.0/5.0"),
            (["highway": "motorway"], "110.0/0.0", "-", "-"),
            (["highway": "trunk", "foot": "yes"], "90.0/90.0", "-", "5.0/5.0"),
            (["highway": "residential", "maxspeed": "30"], "30.0/30.0", "15.0/15.0", "5.0/5.0"),
            (["highway": "residential", "oneway": "yes"], "30.0/0.0", "15.0/0.0", "5.0/5.0"),
            (["highway": "residential", "oneway": "yes", "cycleway": "opposite_lane"], "30.0/0.0", "15.0/15.0", "5.0/5.0"),
            (["highway": "residential", "oneway": "yes", "oneway:bicycle": "no"], "30.0/0.0", "15.0/15.0", "5.0/5.0"),
            (["highway": "footway", "oneway:foot": "yes"], "-", "4.0/4.0", "5.0/0.0"),
            (["highway": "residential", "junction": "roundabout"], "30.0/0.0", "15.0/0.0", "5.0/5.0"),
            (["highway": "residential", "bicycle": "no"], "30.0/30.0", "-", "5.0/5.0"),
            (["highway": "residential", "foot": "no"], "30.0/30.0", "15.0/15.0", "-"),
            (["highway": "residential", "access": "private"], "30.0/30.0", "-", "-"),
            (["highway": "residential", "surface": "gravel"], "30.0/30.0", "6.0/6.0", "3.75/3.75"),
            (["railway": "platform"], "-", "4.0/4.0", "5.0/5.0"),
            (["man_made": "pier"], "-", "4.0/4.0", "5.0/5.0"),
            (["highway": "construction"], "-", "-", "-"),
        ]
        for c in cases {
            XCTAssertEqual(speeds(car, c.0), c.car, "car \(c.0)")
            XCTAssertEqual(speeds(bicycle, c.0), c.bicycle, "bicycle \(c.0)")
            XCTAssertEqual(speeds(foot, c.0), c.foot, "foot \(c.0)")
        }
        XCTAssertEqual(foot.evaluateWay(tags: ["highway": "path"])?.roadClass, .path)
        XCTAssertEqual(bicycle.evaluateWay(tags: ["man_made": "pier"])?.roadClass, .pier)
    }

    func testBarriers() {
        func blocks(_ p: TravelProfile, _ tags: [String: String]) -> Bool { p.nodeControl(tags: tags).contains(.barrier) }
        XCTAssertTrue(blocks(car, ["barrier": "bollard"]))
        XCTAssertFalse(blocks(bicycle, ["barrier": "bollard"]))
        XCTAssertFalse(blocks(foot, ["barrier": "cycle_barrier"]))
        XCTAssertTrue(blocks(foot, ["barrier": "wall"]))
        XCTAssertFalse(blocks(foot, ["barrier": "fence", "sensory": "audible"]))
        XCTAssertTrue(blocks(bicycle, ["barrier": "gate", "bicycle": "no"]))
        XCTAssertFalse(blocks(foot, ["barrier": "gate", "bicycle": "no"]))
        XCTAssertTrue(blocks(foot, ["barrier": "gate", "foot": "private"]))
    }

    func testRestrictionsSpeakToTheirMode() {
        let left = ["type": "restriction", "restriction": "no_left_turn"]
        XCTAssertEqual(bicycle.evaluateRestrictionRelation(tags: left)?.kind, .noLeftTurn)
        XCTAssertNil(foot.evaluateRestrictionRelation(tags: left), "walkers obey no turn restriction")
        XCTAssertNil(bicycle.evaluateRestrictionRelation(tags: left.merging(["except": "bicycle"]) { $1 }))
        XCTAssertNotNil(car.evaluateRestrictionRelation(tags: left.merging(["except": "bicycle"]) { $1 }))
        let carsOnly = ["type": "restriction", "restriction:motorcar": "no_right_turn"]
        XCTAssertNil(bicycle.evaluateRestrictionRelation(tags: carsOnly))
        XCTAssertEqual(car.evaluateRestrictionRelation(tags: carsOnly)?.kind, .noRightTurn)
        let bikesOnly = ["type": "restriction", "restriction:bicycle": "only_straight_on"]
        XCTAssertEqual(bicycle.evaluateRestrictionRelation(tags: bikesOnly)?.kind, .onlyStraightOn)
        XCTAssertNil(car.evaluateRestrictionRelation(tags: bikesOnly))
    }

    func testABadModeIsOneClearError() throws {
        let text = try String(contentsOf: Self.profiles.appendingPathComponent("foot.json"), encoding: .utf8)
            .replacingOccurrences(of: "\"mode\": \"foot\"", with: "\"mode\": \"horse\"")
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("horse-\(UUID().uuidString).json").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        XCTAssertThrowsError(try TravelProfile.load(path: path)) { error in
            XCTAssertTrue("\(error)".contains("mode must be \"car\", \"bicycle\" or \"foot\", got \"horse\""), "\(error)")
            XCTAssertTrue("\(error)".contains(path), "\(error)")
        }
    }
}
