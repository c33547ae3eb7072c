import OSMPBF
import RouteQuery
import TestSupport
import XCTest

/// OSRM's collapsing of steps end to end on hand-made maps (`StepCollapse*.swift`): two
/// maneuvers a driver makes as one are one step.
final class GuidanceCollapseTests: XCTestCase {
    var scratch: Scratch!
    var map: HandMadeMap!
    override func setUp() { scratch = Scratch(); map = HandMadeMap(scratch: scratch) }
    override func tearDown() { scratch.remove() }

    func node(_ id: Int64, _ east: Double, _ north: Double) -> OSMNode { HandMadeMap.node(id, east, north) }

    /// OSRM's "Segregated Intersection, Cross Belonging to Single Street" (collapse.feature), a
    /// 20 m grid: two divided roads cross; the short links inside the crossing (cf, gb, and the
    /// 20 m pieces between the crossing roads) are `is_segregated`, so turning left across the
    /// crossing is one `turn left`, and going back along the other carriageway one `continue uturn`.
    ///
    ///         i l
    ///
    ///     d   c b   a
    ///     e   f g   h
    ///
    ///         j k
    func testATurnAcrossADividedRoadIsOneStep() throws {
        let nodes = [node(1, 100, -40), node(2, 60, -40), node(3, 40, -40), node(4, 0, -40),
                     node(5, 0, -60), node(6, 40, -60), node(7, 60, -60), node(8, 100, -60),
                     node(9, 40, 0), node(10, 40, -100), node(11, 60, -100), node(12, 60, 0)]
        let oneway: [(String, String)] = [("highway", "primary"), ("oneway", "yes")]
        let ways = [HandMadeMap.way(20, [1, 2], "first", oneway), HandMadeMap.way(21, [2, 3], "first", oneway),
                    HandMadeMap.way(22, [3, 4], "first", oneway), HandMadeMap.way(23, [5, 6], "first", oneway),
                    HandMadeMap.way(24, [6, 7], "first", oneway), HandMadeMap.way(25, [7, 8], "first", oneway),
                    HandMadeMap.way(26, [9, 3], "second", oneway), HandMadeMap.way(27, [2, 12], "second", oneway),
                    HandMadeMap.way(28, [11, 7], "second", oneway), HandMadeMap.way(29, [6, 10], "second", oneway),
                    HandMadeMap.way(30, [3, 6], "first", oneway), HandMadeMap.way(31, [7, 2], "first", oneway)]
        let (s, at) = try map.service(nodes, ways)
        XCTAssertEqual(try HandMadeMap.steps(s, at, 1, 10), ["depart first", "turn left second", "arrive second"])
        XCTAssertEqual(try HandMadeMap.steps(s, at, 1, 8), ["depart first", "continue uturn first", "arrive first"])
        XCTAssertEqual(try HandMadeMap.steps(s, at, 1, 12), ["depart first", "turn right second", "arrive second"])
    }

    /// OSRM's "Staggered Intersection: Oak St, Cedar Dr" (staggered-intersections.feature), a
    /// 1 m grid: a right turn and a left turn 2 m apart across Cedar Dr is going straight on
    /// along Oak St; 2 m further apart (over 3 m) they are two turns again.
    ///
    ///         j
    ///     a b c
    ///         d
    ///         e f g
    ///         h
    ///         i
    func testAStaggeredCrossingIsNoTurn() throws {
        func crossing(gap: Double) throws -> [String] {
            let nodes = [node(1, 0, -1), node(2, 1, -1), node(3, 2, -1), node(4, 2, 0), node(5, 2, -1 - gap / 2),
                         node(6, 2, -1 - gap), node(7, 3, -1 - gap), node(8, 4, -1 - gap), node(9, 2, -2 - gap), node(10, 2, -3 - gap)]
            let residential: [(String, String)] = [("highway", "residential")]
            let ways = [HandMadeMap.way(20, [1, 2, 3], "Oak St", residential), HandMadeMap.way(21, [6, 7, 8], "Oak St", residential),
                        HandMadeMap.way(22, [4, 3, 5, 6, 9, 10], "Cedar Dr", residential)]
            let (s, at) = try map.service(nodes, ways)
            return try HandMadeMap.steps(s, at, 1, 8)
        }
        XCTAssertEqual(try crossing(gap: 2), ["depart Oak St", "arrive Oak St"])
        XCTAssertEqual(try crossing(gap: 8), ["depart Oak St", "turn right Cedar Dr", "turn left Oak St", "arrive Oak St"])
    }

    /// OSRM's "Sliproad and acute angle (50°) at the main intersection" (dedicated-turn-roads
    /// .feature), a 5 m grid: the link ae cuts the corner from sabc to dbef, so turning right
    /// through it is one `turn right` onto dbef.
    ///
    ///                   d
    ///                  /
    ///     s . a . .  b  . c
    ///          `    /
    ///           ' /
    ///           e
    ///          /
    ///         f
    func testATurnThroughASliproadIsOneStep() throws {
        let nodes = [node(1, 0, -10), node(2, 10, -10), node(3, 27.5, -10), node(4, 40, -10),
                     node(5, 35, 0), node(6, 15, -25), node(7, 10, -35)]
        let ways = [HandMadeMap.way(20, [1, 2, 3, 4], "sabc"), HandMadeMap.way(21, [5, 3, 6, 7], "dbef"),
                    HandMadeMap.way(22, [2, 6], "ae", [("highway", "primary_link"), ("oneway", "yes")])]
        let (s, at) = try map.service(nodes, ways)
        XCTAssertEqual(try HandMadeMap.steps(s, at, 1, 7), ["depart sabc", "turn right dbef", "arrive dbef"])
    }

    /// OSRM's "Partly Segregated Intersection, Two Segregated Roads" (collapse.feature), a 20 m
    /// grid: the one-way halves of `second` meet at b, 53° apart, and OSRM's intersection takes
    /// them for one road, so going down one and up the other is a `continue uturn`, not a
    /// sharp left.
    ///
    ///        n m
    ///        | |
    ///        g h
    ///     c - b - a
    func testTurningBackOntoTheOtherHalfOfADividedRoadIsAUTurn() throws {
        let nodes = [node(1, 30, 0), node(2, 30, -120), node(3, 40, -140), node(4, 50, -120), node(5, 50, 0),
                     node(6, 0, -140), node(7, 80, -140)]
        let ways = [HandMadeMap.way(20, [1, 2, 3, 4, 5], "second", [("highway", "primary"), ("oneway", "yes")]),
                    HandMadeMap.way(21, [7, 3, 6], "first")]
        let (s, at) = try map.service(nodes, ways)
        XCTAssertEqual(try HandMadeMap.steps(s, at, 1, 5), ["depart second", "continue uturn second", "arrive second"])
    }

    /// OSRM's "Join on a divided road named after the main road" (divided-highways.feature), a
    /// 5 m grid: from the side street across the near carriageway and left onto the far one is
    /// one `end of road left`, though no junction lies between e and b (the end of road is
    /// judged after the two are one step, from the side street's junction at g on).
    ///
    ///     a-------b-----c
    ///             |
    ///     d-------e-----f
    ///             |
    ///         i---g---j
    ///             |
    ///             h
    func testCrossingOntoADividedRoadKeepsItsEndOfRoad() throws {
        let nodes = [node(1, 0, 0), node(2, 20, 0), node(3, 35, 0), node(4, 0, -10), node(5, 20, -10), node(6, 35, -10),
                     node(7, 10, -25), node(8, 20, -25), node(9, 30, -25), node(10, 20, -40)]
        let residential: [(String, String)] = [("highway", "residential")]
        let ways = [HandMadeMap.way(20, [1, 2, 3], "main st", residential + [("oneway", "-1")]),
                    HandMadeMap.way(21, [4, 5, 6], "main st", residential + [("oneway", "yes")]),
                    HandMadeMap.way(22, [2, 5], "main st", residential), HandMadeMap.way(23, [5, 8, 10], "side st", residential),
                    HandMadeMap.way(24, [7, 8, 9], "maple st", residential)]
        let (s, at) = try map.service(nodes, ways)
        XCTAssertEqual(try HandMadeMap.steps(s, at, 10, 1), ["depart side st", "end of road left main st", "arrive main st"])
    }

    /// A start half a metre before a T junction: the zero-length departure is trimmed and the
    /// turn at the end of the road becomes the departure, which stays a departure.
    ///
    ///                     n
    ///                     |
    ///     a ----- t ----- b        Main; Side from s (0.5 m south of t) up to t; North from b
    ///             s
    ///             |
    ///             c
    func testADepartureRightBeforeAnEndOfRoadStaysADeparture() throws {
        let nodes = [node(1, -300, 0), node(2, 0, 0), node(3, 300, 0), node(4, 0, -300), node(5, 300, 300),
                     node(6, 600, 0), node(9, 0, -0.5)]
        let ways = [HandMadeMap.way(20, [1, 2, 3, 6], "Main"), HandMadeMap.way(21, [4, 2], "Side"),
                    HandMadeMap.way(22, [3, 5], "North")]
        let (s, at) = try map.service(nodes, ways)
        XCTAssertEqual(try HandMadeMap.steps(s, at, 9, 5), ["depart Main", "turn left North", "arrive North"])
    }
}
