import XCTest
@testable import RoutingProfile

final class MaxspeedTests: XCTestCase {
    func testNumericForms() {
        XCTAssertEqual(Maxspeed.kmh("50"), 50)
        XCTAssertEqual(Maxspeed.kmh(" 50 "), 50)
        XCTAssertEqual(Maxspeed.kmh("50 km/h"), 50)
        XCTAssertEqual(Maxspeed.kmh("50km/h"), 50)
        XCTAssertEqual(Maxspeed.kmh("50 kmh"), 50)
        XCTAssertEqual(Maxspeed.kmh("50kph"), 50)
        XCTAssertEqual(Maxspeed.kmh("50 KM/H"), 50)
        XCTAssertEqual(Maxspeed.kmh("30 mph")!, 48.28032, accuracy: 1e-12)
        XCTAssertEqual(Maxspeed.kmh("30mph")!, 48.28032, accuracy: 1e-12)
        XCTAssertEqual(Maxspeed.kmh("10 knots")!, 18.52, accuracy: 1e-12)
        XCTAssertEqual(Maxspeed.kmh("7.5"), 7.5)
        XCTAssertEqual(Maxspeed.kmh("12.25 mph")!, 12.25 * 1.609344, accuracy: 1e-12)
        XCTAssertEqual(Maxspeed.kmh("300"), 300)
    }

    func testNonNumeric() {
        for v in ["", " ", "none", "signals", "walk", "DE:urban", "RO:rural", "variable", "50;30", "50,5", "50 km", "50 m/s",
                  ".5", "5.5.5", "-50", "0", "0 mph", "301", "99999999999999999999", "50 km/h x", "50 kmhkmhkmh", "½"] {
            XCTAssertNil(Maxspeed.kmh(v), v)
        }
    }
}

final class RestrictionTests: XCTestCase {
    let car = TravelProfile.embeddedDefault

    func testKinds() {
        XCTAssertEqual(RestrictionKind.allCases.map(\.osmValue), [
            "no_left_turn", "no_right_turn", "no_straight_on", "no_u_turn", "no_entry", "no_exit",
            "only_left_turn", "only_right_turn", "only_straight_on", "only_u_turn", "no_*", "only_*",
        ])
        XCTAssertEqual(RestrictionKind.allCases.map(\.code), Array(0...11))
        XCTAssertEqual(RestrictionKind.allCases.filter(\.isOnly).count, 5)
        for kind in RestrictionKind.allCases where kind != .noOther && kind != .onlyOther {
            XCTAssertEqual(car.evaluateRestriction(tags: ["type": "restriction", "restriction": kind.osmValue]), kind)
        }
    }

    func testRequiresTypeRestriction() {
        XCTAssertNil(car.evaluateRestriction(tags: ["restriction": "no_left_turn"]))
        XCTAssertNil(car.evaluateRestriction(tags: ["type": "multipolygon", "restriction": "no_left_turn"]))
        XCTAssertNil(car.evaluateRestriction(tags: ["type": "restriction"]))
        XCTAssertNil(car.evaluateRestriction(tags: ["type": "restriction", "restriction": "parking"]))
    }

    /// As OSRM: any value starting with `no_` forbids, with `only_` commands; turns on red are not restrictions.
    func testAnyNoOrOnlyValue() {
        XCTAssertEqual(car.evaluateRestriction(tags: ["type": "restriction", "restriction": "no_weird_zigzags"]), .noOther)
        XCTAssertEqual(car.evaluateRestriction(tags: ["type": "restriction", "restriction": "only_left_on"]), .onlyOther)
        XCTAssertEqual(car.evaluateRestriction(tags: ["type": "restriction", "restriction": " only_right_on "]), .onlyOther)
        XCTAssertNil(car.evaluateRestriction(tags: ["type": "restriction", "restriction": "no_turn_on_red"]))
        XCTAssertNil(car.evaluateRestriction(tags: ["type": "restriction", "restriction": "no_right_turn_on_red"]))
        XCTAssertNil(car.evaluateRestriction(tags: ["type": "restriction", "restriction": "give_way"]))
        XCTAssertTrue(RestrictionKind.onlyOther.isOnly)
        XCTAssertFalse(RestrictionKind.noOther.isOnly)
    }

    func testVehicleSpecificValuesTakePrecedence() {
        XCTAssertEqual(car.evaluateRestriction(tags: ["type": "restriction", "restriction": "no_left_turn",
                                                      "restriction:motorcar": "only_straight_on"]), .onlyStraightOn)
        XCTAssertEqual(car.evaluateRestriction(tags: ["type": "restriction", "restriction": "no_left_turn",
                                                      "restriction:motor_vehicle": "no_u_turn"]), .noUTurn)
        XCTAssertEqual(car.evaluateRestriction(tags: ["type": "restriction", "restriction:motor_vehicle": "no_u_turn",
                                                      "restriction:motorcar": "no_right_turn"]), .noRightTurn)
        XCTAssertEqual(car.evaluateRestriction(tags: ["type": "restriction", "restriction:motorcar": "no_entry"]), .noEntry)
        XCTAssertNil(car.evaluateRestriction(tags: ["type": "restriction", "restriction:hgv": "no_left_turn"]))
        XCTAssertNil(car.evaluateRestriction(tags: ["type": "restriction", "restriction:bicycle": "no_left_turn"]))
    }

    func testExceptions() {
        XCTAssertNil(car.evaluateRestriction(tags: ["type": "restriction", "restriction": "no_left_turn", "except": "motorcar"]))
        XCTAssertNil(car.evaluateRestriction(tags: ["type": "restriction", "restriction": "no_left_turn", "except": "bicycle;motorcar"]))
        XCTAssertNil(car.evaluateRestriction(tags: ["type": "restriction", "restriction": "no_left_turn", "except": "psv; motor_vehicle"]))
        XCTAssertEqual(car.evaluateRestriction(tags: ["type": "restriction", "restriction": "no_left_turn", "except": "psv;bicycle"]), .noLeftTurn)
        XCTAssertEqual(car.evaluateRestriction(tags: ["type": "restriction", "restriction": "no_exit", "except": "motorcars"]), .noExit)
    }

    /// Conditional restrictions are parsed and kept with their condition (the graph skips them).
    func testConditionalRestrictionsAreParsed() {
        XCTAssertEqual(car.evaluateRestrictionRelation(tags: ["type": "restriction", "restriction:conditional": "no_right_turn @ (Mo-Fr 07:00-10:30)"]),
                       RestrictionVerdict(kind: .noRightTurn, condition: "Mo-Fr 07:00-10:30"))
        XCTAssertEqual(car.evaluateRestrictionRelation(tags: ["type": "restriction", "restriction:conditional": "none @ wet; only_left_turn @ (Sa-Su)"]),
                       RestrictionVerdict(kind: .onlyLeftTurn, condition: "Sa-Su"))
        XCTAssertNil(car.evaluateRestrictionRelation(tags: ["type": "restriction", "restriction:conditional": "only_right_turn @ (has_pygmies > 10 p"]))
        XCTAssertNil(car.evaluateRestrictionRelation(tags: ["type": "restriction", "restriction:hgv:conditional": "no_left_turn @ (22:00-06:00)"]))
        XCTAssertNil(car.evaluateRestrictionRelation(tags: ["type": "restriction", "except": "motorcar",
                                                            "restriction:conditional": "no_left_turn @ (22:00-06:00)"]))
        XCTAssertEqual(car.evaluateRestrictionRelation(tags: ["type": "restriction", "restriction": "no_u_turn",
                                                              "restriction:conditional": "no_left_turn @ (22:00-06:00)"]),
                       RestrictionVerdict(kind: .noUTurn))
    }

    func testConditionalRestrictionsAreIgnored() {
        XCTAssertNil(car.evaluateRestriction(tags: ["type": "restriction", "restriction:conditional": "no_left_turn @ (Mo-Fr 07:00-09:00)"]))
        XCTAssertEqual(car.evaluateRestriction(tags: ["type": "restriction", "restriction": "no_right_turn",
                                                      "restriction:conditional": "none @ (22:00-06:00)"]), .noRightTurn)
    }
}

final class NodeControlTests: XCTestCase {
    let car = TravelProfile.embeddedDefault

    func testControls() {
        XCTAssertEqual(car.nodeControl(tags: ["highway": "traffic_signals"]), .trafficSignals)
        XCTAssertEqual(car.nodeControl(tags: ["highway": "stop"]), .stop)
        XCTAssertEqual(car.nodeControl(tags: ["highway": "give_way"]), .giveWay)
        XCTAssertEqual(car.nodeControl(tags: ["highway": "crossing", "crossing": "traffic_signals"]), .trafficSignals)
        XCTAssertEqual(car.nodeControl(tags: ["highway": "crossing", "crossing:signals": "yes"]), .trafficSignals)
        XCTAssertEqual(car.nodeControl(tags: ["highway": "crossing", "crossing": "uncontrolled"]), .none)
        XCTAssertEqual(car.nodeControl(tags: ["crossing": "traffic_signals"]), .none)
        XCTAssertEqual(car.nodeControl(tags: ["highway": "turning_circle"]), .turningPlace)
        XCTAssertEqual(car.nodeControl(tags: ["highway": "turning_loop"]), .turningPlace)
        XCTAssertEqual(car.nodeControl(tags: ["highway": "mini_roundabout"]), .turningPlace)
        XCTAssertEqual(car.nodeControl(tags: ["highway": "bus_stop"]), .none)
        XCTAssertEqual(car.nodeControl(tags: [:]), .none)
        XCTAssertEqual(NodeControl.trafficSignals.flags, 1)
        XCTAssertEqual(NodeControl.stop.flags, 2)
        XCTAssertEqual(NodeControl.giveWay.flags, 4)
        XCTAssertEqual(NodeControl.none.flags, 0)
    }

    func testDelays() {
        XCTAssertEqual(car.nodeDelaySeconds(.trafficSignals), 2)
        XCTAssertEqual(car.nodeDelaySeconds(.stop), 2)
        XCTAssertEqual(car.nodeDelaySeconds(.giveWay), 1)
        XCTAssertEqual(car.nodeDelaySeconds(.none), 0)
        XCTAssertEqual(car.nodeDelaySeconds([.stop, .giveWay]), 3)
    }
}
