import XCTest
@testable import RoutingProfile

final class WayRulesTests: XCTestCase {
    let car = TravelProfile.embeddedDefault

    private func way(_ tags: [String: String]) -> WayAttributes? { car.evaluateWay(tags: tags) }

    func testClassSpeedsAndCodes() {
        let expected: [(String, Double, UInt8)] = [
            ("motorway", 110, 0), ("motorway_link", 55, 1), ("trunk", 90, 2), ("trunk_link", 45, 3),
            ("primary", 70, 4), ("primary_link", 35, 5), ("secondary", 60, 6), ("secondary_link", 30, 7),
            ("tertiary", 50, 8), ("tertiary_link", 25, 9), ("unclassified", 40, 10), ("residential", 30, 11),
            ("living_street", 10, 12), ("service", 15, 13), ("winter_road", 20, 17), ("ice_road", 15, 18),
        ]
        XCTAssertEqual(RoadClass.highwayClasses.count, expected.count + 9)  // and the 9 of cyclists and walkers
        XCTAssertEqual(RoadClass.allCases.map(\.rawValue), Array(0...27), "codes are never renumbered")
        XCTAssertEqual([RoadClass.ferry, .shuttleTrain, .otherHighway].map(\.rawValue), [14, 15, 16])
        for (highway, speed, code) in expected {
            let a = way(["highway": highway, "oneway": "no"])
            XCTAssertEqual(a?.roadClass.rawValue, code, highway)
            XCTAssertEqual(a?.roadClass.osmValue, highway)
            XCTAssertEqual(a?.speedKmh, speed, highway)
            XCTAssertEqual(a?.speedBackwardKmh, speed, highway)
            XCTAssertTrue(car.mightBeDrivable(highwayValue: highway))
        }
    }

    func testNotDrivable() {
        for highway in ["footway", "cycleway", "path", "track", "steps", "pedestrian", "construction", "proposed", "road", "bus_guideway", ""] {
            XCTAssertNil(way(["highway": highway]), highway)
            XCTAssertFalse(car.mightBeDrivable(highwayValue: highway), highway)
        }
        XCTAssertNil(way(["name": "no highway tag"]))
        XCTAssertNil(way(["highway": "residential", "area": "yes"]))
        XCTAssertNotNil(way(["highway": "residential", "area": "no"]))
        XCTAssertNotNil(way(["highway": "service", "service": "parking_aisle"]))
        XCTAssertNotNil(way(["highway": "service", "service": "driveway"]))
    }

    func testNameRefAndRoundabout() {
        let a = way(["highway": "primary", "name": "Landstrasse", "ref": "28"])
        XCTAssertEqual(a?.name, "Landstrasse")
        XCTAssertEqual(a?.ref, "28")
        XCTAssertEqual(a?.isRoundabout, false)
        XCTAssertEqual(way(["highway": "secondary"])?.name, "")
        XCTAssertEqual(way(["highway": "secondary", "junction": "roundabout"])?.isRoundabout, true)
        XCTAssertEqual(way(["highway": "secondary", "junction": "circular"])?.isRoundabout, true)
    }

    func testMaxspeedReplacesClassSpeed() {
        XCTAssertEqual(way(["highway": "primary", "maxspeed": "50"])?.speedKmh, 50)
        XCTAssertEqual(way(["highway": "primary", "maxspeed": "50 km/h"])?.speedKmh, 50)
        XCTAssertEqual(way(["highway": "primary", "maxspeed": "50kmh"])?.speedKmh, 50)
        XCTAssertEqual(way(["highway": "primary", "maxspeed": "30 mph"])!.speedKmh, 48.28032, accuracy: 1e-9)
        XCTAssertEqual(way(["highway": "primary", "maxspeed": "80.5"])?.speedKmh, 80.5)
        XCTAssertEqual(way(["highway": "residential", "maxspeed": "100"])?.speedKmh, 100, "higher than the class speed too")
        for fallback in ["signals", "none", "DE:urban", "walk", "variable", "50;30", "0", "-30", "abc 50", ""] {
            XCTAssertEqual(way(["highway": "primary", "maxspeed": fallback])?.speedKmh, 70, fallback)
        }
    }

    func testDirectionalMaxspeed() {
        let a = way(["highway": "primary", "maxspeed": "80", "maxspeed:forward": "60", "maxspeed:backward": "DE:urban"])
        XCTAssertEqual(a?.speedKmh, 60)
        XCTAssertEqual(a?.speedBackwardKmh, 80, "a non-numeric directional value falls back to maxspeed")
        let b = way(["highway": "primary", "maxspeed:backward": "40"])
        XCTAssertEqual(b?.speedKmh, 70)
        XCTAssertEqual(b?.speedBackwardKmh, 40)
    }

    func testMaxspeedFactor() {
        var settings = car.settings
        settings.maxspeedFactor = 0.8
        let scaled = TravelProfile(settings: settings)
        XCTAssertEqual(scaled.evaluateWay(tags: ["highway": "primary", "maxspeed": "100"])?.speedKmh, 80)
        XCTAssertEqual(scaled.evaluateWay(tags: ["highway": "primary"])?.speedKmh, 70, "class speeds are not scaled")
    }

    func testOneway() {
        func directions(_ tags: [String: String]) -> String? {
            way(tags).map { "\($0.forward ? "F" : "-")\($0.backward ? "B" : "-")" }
        }
        for v in ["yes", "1", "true"] { XCTAssertEqual(directions(["highway": "residential", "oneway": v]), "F-", v) }
        for v in ["-1", "reverse"] { XCTAssertEqual(directions(["highway": "residential", "oneway": v]), "-B", v) }
        for v in ["no", "false", "0"] { XCTAssertEqual(directions(["highway": "motorway", "oneway": v]), "FB", v) }
        XCTAssertNil(directions(["highway": "primary", "oneway": "reversible"]), "changes direction twice a day: not routed")
        XCTAssertEqual(directions(["highway": "primary", "oneway": "alternating"]), "FB", "both ways, at 40 % of the speed")
        XCTAssertEqual(way(["highway": "primary", "oneway": "alternating"])?.speedKmh, 28)
        XCTAssertEqual(directions(["highway": "residential"]), "FB")
        XCTAssertEqual(directions(["highway": "residential", "oneway": "unknown"]), "FB")
        // Implied one-ways.
        XCTAssertEqual(directions(["highway": "motorway"]), "F-")
        XCTAssertEqual(directions(["highway": "motorway_link"]), "FB", "links are one-way only when tagged (as OSRM)")
        XCTAssertEqual(directions(["highway": "trunk"]), "FB")
        XCTAssertEqual(directions(["highway": "tertiary", "junction": "roundabout"]), "F-")
        XCTAssertEqual(directions(["highway": "tertiary", "junction": "circular"]), "F-")
        XCTAssertEqual(directions(["highway": "tertiary", "junction": "roundabout", "oneway": "no"]), "FB")
        XCTAssertEqual(directions(["highway": "motorway", "oneway": "-1"]), "-B")
        // Vehicle-specific one-way tags are more specific than oneway.
        XCTAssertEqual(directions(["highway": "residential", "oneway": "yes", "oneway:motor_vehicle": "no"]), "FB")
        XCTAssertEqual(directions(["highway": "residential", "oneway:motorcar": "yes"]), "F-")
    }

    func testSpeedIsZeroInAClosedDirection() {
        let forwardOnly = way(["highway": "residential", "oneway": "yes"])
        XCTAssertEqual(forwardOnly?.speedKmh, 30)
        XCTAssertEqual(forwardOnly?.speedBackwardKmh, 0)
        let backwardOnly = way(["highway": "residential", "oneway": "-1", "maxspeed": "20"])
        XCTAssertEqual(backwardOnly?.speedKmh, 0)
        XCTAssertEqual(backwardOnly?.speedBackwardKmh, 20)
    }

    func testAccessMostSpecificTagWins() {
        XCTAssertNil(way(["highway": "residential", "access": "no"]))
        XCTAssertEqual(way(["highway": "residential", "access": "private"])?.restrictedForward, true, "private: at a penalty")
        XCTAssertNil(way(["highway": "residential", "motor_vehicle": "no"]))
        XCTAssertNil(way(["highway": "footway", "motorcar": "private"]), "restricted values open highway classes only")
        XCTAssertNil(way(["highway": "residential", "vehicle": "no"]))
        XCTAssertNotNil(way(["highway": "residential", "access": "no", "motorcar": "yes"]))
        XCTAssertNotNil(way(["highway": "residential", "access": "no", "motor_vehicle": "yes"]))
        XCTAssertNotNil(way(["highway": "residential", "access": "private", "motor_vehicle": "destination"]))
        XCTAssertNil(way(["highway": "residential", "access": "yes", "motor_vehicle": "no"]))
        XCTAssertNil(way(["highway": "residential", "motor_vehicle": "yes", "motorcar": "no"]))
        XCTAssertNotNil(way(["highway": "residential", "motor_vehicle": "no", "motorcar": "yes"]))
        XCTAssertNotNil(way(["highway": "residential", "access": "destination"]))
        XCTAssertNotNil(way(["highway": "residential", "access": "permissive"]))
        XCTAssertNil(way(["highway": "service", "access": "agricultural"]))
    }

    func testClassesLeftOutOfTheProfileAreNotDrivable() {
        var settings = car.settings
        settings.highwaySpeedsKmh[.service] = nil
        let noService = TravelProfile(settings: settings)
        XCTAssertNil(noService.evaluateWay(tags: ["highway": "service"]))
        XCTAssertFalse(noService.mightBeDrivable(highwayValue: "service"))
        XCTAssertNotNil(noService.evaluateWay(tags: ["highway": "residential"]))
    }
}
