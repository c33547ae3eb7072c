import OSMPBF
import RouteQuery
import TestSupport
import XCTest

/// OSRM's classification of one junction's maneuver end to end on hand-made maps: angles
/// measured along the roads (perceived bearings), the obvious road, forks, motorway exits, and
/// names that change only by a suffix.
final class GuidanceTurnTests: XCTestCase {
    var scratch: Scratch!
    var map: HandMadeMap!
    override func setUp() { scratch = Scratch(); map = HandMadeMap(scratch: scratch) }
    override func tearDown() { scratch.remove() }

    func node(_ id: Int64, _ east: Double, _ north: Double) -> OSMNode { HandMadeMap.node(id, east, north) }
    func way(_ id: Int64, _ refs: [Int64], _ name: String, _ highway: String = "primary", _ tags: [(String, String)] = []) -> OSMWay {
        HandMadeMap.way(id, refs, name, [("highway", highway)] + tags)
    }
    func steps(_ nodes: [OSMNode], _ ways: [OSMWay], _ from: Int64, _ to: Int64) throws -> [String] {
        let (s, at) = try map.service(nodes, ways)
        return try HandMadeMap.steps(s, at, from, to)
    }

    /// A side road drawn 3 m straight south from the main road before heading south-east:
    /// its first segment turns right, the road itself only slightly (OSRM's representative
    /// coordinate, as "Offset Turn" in its turn-angles feature).
    ///
    ///     1 ------ 2 ------ 3
    ///              4
    ///                 `  5
    func testATurnIsMeasuredAlongTheRoadNotOnItsFirstMetres() throws {
        let nodes = [node(1, -200, 0), node(2, 0, 0), node(3, 200, 0), node(4, 0, -3), node(5, 173, -103)]
        let ways = [way(10, [1, 2, 3], "Main"), way(11, [2, 4, 5], "Side")]
        XCTAssertEqual(try steps(nodes, ways, 1, 5), ["depart Main", "turn slight right Side", "arrive Side"])
    }

    /// Two roads of one class splitting 20° either side of straight on: a fork, each branch
    /// told by its side.
    func testTwoNearlyStraightRoadsOfOneClassAreAFork() throws {
        let nodes = [node(1, -200, 0), node(2, 0, 0), node(3, 188, 68), node(4, 188, -68)]
        let ways = [way(10, [1, 2], "Stem"), way(11, [2, 3], "Left"), way(12, [2, 4], "Right")]
        XCTAssertEqual(try steps(nodes, ways, 1, 3), ["depart Stem", "fork slight left Left", "arrive Left"])
        XCTAssertEqual(try steps(nodes, ways, 1, 4), ["depart Stem", "fork slight right Right", "arrive Right"])
    }

    /// Straight on across a side street the road changes its name: the obvious way, told as a
    /// new name; the side street a turn. With the side street a service way (OSRM's driveway
    /// rule), still the new name straight on.
    func testTheObviousRoadOnIsANewNameAndTheOtherATurn() throws {
        let nodes = [node(1, -200, 0), node(2, 0, 0), node(3, 200, 0), node(4, 0, -200)]
        let ways = [way(10, [1, 2], "Oak"), way(11, [2, 3], "Pine"), way(12, [2, 4], "Side", "residential")]
        XCTAssertEqual(try steps(nodes, ways, 1, 3), ["depart Oak", "new name straight Pine", "arrive Pine"])
        XCTAssertEqual(try steps(nodes, ways, 1, 4), ["depart Oak", "turn right Side", "arrive Side"])
        let driveway = [way(10, [1, 2], "Oak"), way(11, [2, 3], "Pine"), way(12, [2, 4], "Side", "service")]
        XCTAssertEqual(try steps(nodes, driveway, 1, 3), ["depart Oak", "new name straight Pine", "arrive Pine"])
    }

    /// "42 N" going on as "42 S" only changes a suffix of the car profile's table: nothing is
    /// said, and the arrival names the road arrived on.
    func testANameThatChangesOnlyItsSuffixIsNotAnnounced() throws {
        let nodes = [node(1, 0, 0), node(2, 2000, 0), node(3, 4000, 0)]
        let ways = [way(10, [1, 2], "42 N"), way(11, [2, 3], "42 S")]
        XCTAssertEqual(try steps(nodes, ways, 1, 3), ["depart 42 N", "arrive 42 S"])
    }

    /// Leaving a motorway on a link to the right is an off ramp; going on along the motorway
    /// past it says nothing (OSRM's motorway handler).
    func testAMotorwayExitIsAnOffRampAndTheMotorwayGoesOnSilently() throws {
        let nodes = [node(1, -500, 0), node(2, 0, 0), node(3, 500, 0), node(4, 300, -80)]
        let ways = [way(10, [1, 2, 3], "A1", "motorway", [("oneway", "yes")]), way(11, [2, 4], "Exit", "motorway_link", [("oneway", "yes")])]
        XCTAssertEqual(try steps(nodes, ways, 1, 3), ["depart A1", "arrive A1"])
        XCTAssertEqual(try steps(nodes, ways, 1, 4), ["depart A1", "off ramp slight right Exit", "arrive Exit"])
    }
}
