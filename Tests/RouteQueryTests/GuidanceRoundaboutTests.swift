import OSMPBF
import RouteQuery
import TestSupport
import XCTest

/// Roundabouts end to end on hand-made maps, as OSRM's guidance announces them: a small one that
/// is no more than an intersection as one `roundabout turn`, others entered and left in two
/// steps, a ring it cannot follow as plain roads, a turn onto a road off the ring where it is
/// entered as an exit, and no turn across the ring against its flow.
final class GuidanceRoundaboutTests: XCTestCase {
    var scratch: Scratch!
    var map: HandMadeMap!
    override func setUp() { scratch = Scratch(); map = HandMadeMap(scratch: scratch) }
    override func tearDown() { scratch.remove() }

    func node(_ id: Int64, _ east: Double, _ north: Double) -> OSMNode { HandMadeMap.node(id, east, north) }
    func way(_ id: Int64, _ refs: [Int64], _ name: String, _ tags: [(String, String)] = [("highway", "primary")]) -> OSMWay {
        HandMadeMap.way(id, refs, name, tags)
    }
    static let ring = [("highway", "primary"), ("junction", "roundabout")]
    static let oneway = [("highway", "primary"), ("oneway", "yes")]

    /// A ring of radius `r` m (nodes 1 north, 2 west, 3 south, 4 east, driven anticlockwise) with a
    /// road out of each node: North to 11, West to 12, South to 13, East to 14.
    func roundabout(radius r: Double, southEnd: (Double, Double) = (0, -100),
                    westEnd: (Double, Double) = (-100, 0)) throws -> (RouteService, [Int64: OSMNode]) {
        let nodes = [node(1, 0, r), node(2, -r, 0), node(3, 0, -r), node(4, r, 0),
                     node(11, 0, 100), node(12, westEnd.0, westEnd.1), node(13, southEnd.0, southEnd.1), node(14, 100, 0)]
        let ways = [way(10, [1, 2, 3, 4, 1], "", Self.ring),
                    way(21, [11, 1], "North"), way(22, [12, 2], "West"), way(23, [13, 3], "South"), way(24, [14, 4], "East")]
        return try map.service(nodes, ways)
    }

    /// Radius 10 m, roads 90° apart: OSRM's roundabout intersection, one step with the turn it
    /// amounts to and the exit.
    func testASmallRoundaboutIsOneRoundaboutTurn() throws {
        let (s, at) = try roundabout(radius: 10)
        XCTAssertEqual(try HandMadeMap.steps(s, at, 11, 14), ["depart North", "roundabout turn left exit-3 East", "arrive East"])
        XCTAssertEqual(try HandMadeMap.steps(s, at, 11, 13), ["depart North", "roundabout turn straight exit-2 South", "arrive South"])
        XCTAssertEqual(try HandMadeMap.steps(s, at, 11, 12), ["depart North", "roundabout turn right exit-1 West", "arrive West"])
    }

    /// Radius 40 m: past OSRM's 15 m for an intersection, a roundabout entered and left.
    func testALargeRoundaboutIsEnteredAndLeft() throws {
        let (s, at) = try roundabout(radius: 40)
        let got = try HandMadeMap.steps(s, at, 11, 14)
        XCTAssertEqual(got.count, 4, "\(got)")
        XCTAssertTrue(got[1].hasPrefix("roundabout ") && got[1].hasSuffix(" exit-3 East"), "\(got)")
        XCTAssertTrue(got[2].hasPrefix("exit roundabout ") && got[2].hasSuffix(" East"), "\(got)")
    }

    /// Small, but the south and west roads leave 24° apart (OSRM wants more than 40°): they are
    /// not told apart as turns, so it is a plain roundabout.
    func testRoadsCloseTogetherMakeItAPlainRoundabout() throws {
        let (s, at) = try roundabout(radius: 10, southEnd: (-40, -100), westEnd: (-100, -80))
        let got = try HandMadeMap.steps(s, at, 11, 14)
        XCTAssertEqual(got.count, 4, "\(got)")
        XCTAssertTrue(got[1].hasPrefix("roundabout ") && got[1].hasSuffix(" exit-3 East"), "\(got)")
        XCTAssertTrue(got[2].hasPrefix("exit roundabout "), "\(got)")
    }

    /// A ring road across the ring (tagged as part of it) leaves three ring roads at nodes 1 and
    /// 3: not a ring OSRM's guidance follows, so its roads are driven and announced as plain roads.
    func testARingWithAForkIsPlainRoads() throws {
        let nodes = [node(1, 0, 40), node(2, -40, 0), node(3, 0, -40), node(4, 40, 0),
                     node(11, 0, 140), node(12, -140, 0), node(13, 0, -140), node(14, 140, 0)]
        let ways = [way(10, [1, 2, 3, 4, 1], "Ring", Self.ring), way(15, [1, 3], "Ring", Self.ring),
                    way(21, [11, 1], "North"), way(22, [12, 2], "West"), way(23, [13, 3], "South"), way(24, [14, 4], "East")]
        let (s, at) = try map.service(nodes, ways)
        let got = try HandMadeMap.steps(s, at, 11, 14)
        XCTAssertFalse(got.contains { $0.hasPrefix("roundabout") || $0.hasPrefix("exit roundabout") }, "\(got)")
        XCTAssertEqual(got.first, "depart North")
        XCTAssertEqual(got.last, "arrive East")
        XCTAssertTrue(got.contains { $0.hasSuffix(" Ring") }, "the ring is a road of its own: \(got)")
    }

    /// OSRM's "Mixed Entry and Exit" (grid 10 m): one-way roads touching the ring at one node each;
    /// from a onto bc, right where the ring is entered, is its first exit, entered and left at once.
    ///
    ///       c   a
    ///     j   b   f
    ///       k   e
    ///     l   h   d
    ///       g   i
    func testARightTurnWhereTheRingIsEnteredIsAnExit() throws {
        let nodes = [node(1, 30, 0), node(2, 20, -10), node(3, 10, 0), node(4, 40, -30), node(5, 30, -20), node(6, 40, -10),
                     node(7, 10, -40), node(8, 20, -30), node(9, 30, -40), node(10, 0, -10), node(11, 10, -20), node(12, 0, -30)]
        let ways = [way(20, [1, 2, 3], "abc", Self.oneway), way(21, [4, 5, 6], "def", Self.oneway), way(22, [7, 8, 9], "ghi", Self.oneway),
                    way(23, [10, 11, 12], "jkl", Self.oneway), way(24, [2, 11, 8, 5, 2], "ring", Self.ring)]
        let (s, at) = try map.service(nodes, ways)
        XCTAssertEqual(try HandMadeMap.steps(s, at, 1, 3), ["depart abc", "exit roundabout right exit-1 abc", "arrive abc"])
    }

    /// OSRM's "Mixed Entry and Exit - segregated roads" (grid 10 m): from a, c lies left across
    /// the ring's flow at b, so the route goes round it and leaves at its fourth exit.
    ///
    ///         a   c
    ///     l     b     d
    ///         k   e
    ///     j     h     f
    ///         i   g
    func testNoTurnAcrossTheRingAgainstItsFlow() throws {
        let nodes = [node(1, 20, 0), node(2, 30, -20), node(3, 40, 0), node(4, 60, -20), node(5, 40, -30), node(6, 60, -40),
                     node(7, 40, -60), node(8, 30, -40), node(9, 20, -60), node(10, 0, -40), node(11, 20, -30), node(12, 0, -20)]
        let ways = [way(20, [1, 2, 3], "abc", Self.oneway), way(21, [4, 5, 6], "def", Self.oneway), way(22, [7, 8, 9], "ghi", Self.oneway),
                    way(23, [10, 11, 12], "jkl", Self.oneway), way(24, [2, 11, 8, 5, 2], "ring", Self.ring)]
        let (s, at) = try map.service(nodes, ways)
        let got = try HandMadeMap.steps(s, at, 1, 3)
        XCTAssertEqual(got.count, 4, "\(got)")
        XCTAssertTrue(got[1].hasPrefix("roundabout ") && got[1].hasSuffix(" exit-4 abc"), "\(got)")
        XCTAssertEqual(got[2], "exit roundabout right abc")
    }
}
