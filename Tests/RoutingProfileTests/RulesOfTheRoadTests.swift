import XCTest
@testable import RoutingProfile

/// The car profile's rules of the road, each against OSRM's car profile behaviour
/// (../shared/osrm-features/car/*.feature name the same cases).
final class RulesOfTheRoadTests: XCTestCase {
    let car = TravelProfile.embeddedDefault

    private func way(_ tags: [String: String]) -> WayAttributes? { car.evaluateWay(tags: tags) }
    private func directions(_ tags: [String: String]) -> String {
        way(tags).map { "\($0.forward ? "F" : "-")\($0.backward ? "B" : "-")" } ?? "--"
    }

    func testBarriers() {
        XCTAssertFalse(car.isBarrier(tags: [:]))
        for passable in ["gate", "lift_gate", "cattle_grid", "border_control", "toll_booth", "sally_port", "entrance", "no"] {
            XCTAssertFalse(car.isBarrier(tags: ["barrier": passable]), passable)
        }
        for blocking in ["bollard", "wall", "fence", "block", "some_tag", "kerb"] {
            XCTAssertTrue(car.isBarrier(tags: ["barrier": blocking]), blocking)
        }
        XCTAssertFalse(car.isBarrier(tags: ["barrier": "bollard", "bollard": "rising"]))
        XCTAssertFalse(car.isBarrier(tags: ["barrier": "kerb", "kerb": "lowered"]))
        XCTAssertFalse(car.isBarrier(tags: ["barrier": "kerb", "highway": "crossing"]))
        XCTAssertFalse(car.isBarrier(tags: ["barrier": "fence", "sensory": "audible"]))
        XCTAssertTrue(car.isBarrier(tags: ["barrier": "height_restrictor", "maxheight": "1"]))
        XCTAssertFalse(car.isBarrier(tags: ["barrier": "height_restrictor", "maxheight": "3"]))
        // An access tag decides over the barrier: denied closes, restricted and unknown values pass.
        XCTAssertTrue(car.isBarrier(tags: ["barrier": "gate", "access": "no"]))
        XCTAssertFalse(car.isBarrier(tags: ["barrier": "gate", "access": "private"]))
        XCTAssertFalse(car.isBarrier(tags: ["barrier": "wall", "access": "yes"]))
        XCTAssertFalse(car.isBarrier(tags: ["barrier": "gate", "access": "garbagetag"]))
        XCTAssertTrue(car.isBarrier(tags: ["access": "agricultural;forestry"]))
        XCTAssertFalse(car.isBarrier(tags: ["access": "no", "motorcar": "yes"]), "the most specific key wins")
        XCTAssertEqual(car.nodeControl(tags: ["barrier": "bollard", "highway": "traffic_signals"]), [.barrier, .trafficSignals])
    }

    func testAccessByDirectionAndHierarchy() {
        XCTAssertEqual(directions(["highway": "primary", "access": "yes", "access:forward": "no"]), "-B")
        XCTAssertEqual(directions(["highway": "primary", "access": "no", "access:backward": "yes"]), "-B")
        XCTAssertEqual(directions(["highway": "primary", "access": "no", "access:forward": "no", "motorcar": "no",
                                   "motorcar:forward": "yes"]), "F-")
        XCTAssertEqual(directions(["highway": "primary", "access:forward": "no", "motorcar:forward": "yes"]), "FB")
        XCTAssertEqual(directions(["highway": "primary", "access:forward": "no", "motorcar:backward": "no"]), "--")
    }

    func testAccessValuesAndLists() {
        for open in ["yes", "permissive", "designated", "private", "delivery", "destination", "permit", "residents", "unknown",
                     "customers", "destination;agricultural", "yes;no", "forestry;permissive"] {
            XCTAssertNotNil(way(["highway": "primary", "access": open]), open)
        }
        for closed in ["no", "agricultural", "forestry", "psv", "taxi", "bus", "foot", "restricted", "military", "official",
                       "emergency", "agricultural;forestry"] {
            XCTAssertNil(way(["highway": "primary", "access": closed]), closed)
        }
        XCTAssertEqual(way(["highway": "residential", "access": "destination"])?.restrictedForward, true)
        XCTAssertEqual(way(["highway": "residential", "access": "yes"])?.restrictedForward, false)
        XCTAssertNil(way(["highway": "footway", "access": "private"]), "restricted values open highway classes only")
    }

    func testUnknownHighwayOpenedByAccess() {
        XCTAssertNil(way(["highway": "runway"]))
        XCTAssertEqual(way(["highway": "runway", "access": "yes"])?.roadClass, .otherHighway)
        XCTAssertEqual(way(["highway": "runway", "access": "yes"])?.speedKmh, 10)
        XCTAssertNotNil(way(["highway": "cycleway", "motor_vehicle": "designated"]))
        XCTAssertNotNil(way(["highway": "footway", "access": "yes"]))
        XCTAssertNil(way(["highway": "steps", "access": "yes"]), "steps never")
        XCTAssertNil(way(["highway": "pedestrian"]))
    }

    func testBlockedWays() {
        XCTAssertNil(way(["highway": "primary", "impassable": "yes"]))
        XCTAssertNil(way(["highway": "primary", "status": "impassable"]))
        XCTAssertNil(way(["highway": "primary", "construction": "yes"]))
        XCTAssertNotNil(way(["highway": "primary", "construction": "minor"]))
        XCTAssertNil(way(["highway": "service", "service": "emergency_access"]))
        XCTAssertNil(way(["highway": "primary", "smoothness": "impassable"]))
    }

    func testPhysicalLimits() {
        XCTAssertNil(way(["highway": "primary", "maxheight": "1"]))
        XCTAssertNotNil(way(["highway": "primary", "maxheight": "3"]))
        XCTAssertNotNil(way(["highway": "primary", "maxheight": "default"]))
        XCTAssertNil(way(["highway": "primary", "width": "1.9"]))
        XCTAssertNotNil(way(["highway": "primary", "width": "2.0"]))
        XCTAssertNil(way(["highway": "primary", "width": "6'2\""]))
        XCTAssertNotNil(way(["highway": "primary", "width": "6'3\""]))
        XCTAssertNil(way(["highway": "primary", "maxlength": "1"]))
        XCTAssertNil(way(["highway": "primary", "maxweight": "1"]))
        XCTAssertNotNil(way(["highway": "primary", "maxweight": "35000 kg"]))
        XCTAssertNil(way(["highway": "primary", "maxweight": "0.1 lbs"]))
        XCTAssertEqual(directions(["highway": "primary", "maxheight:backward": "1"]), "F-")
        XCTAssertEqual(PhysicalLimit.metres("8'")!, 2.4384, accuracy: 1e-9)
        XCTAssertEqual(PhysicalLimit.metres("2,5 m"), 2.5)
        XCTAssertNil(PhysicalLimit.metres("none"))
        XCTAssertEqual(PhysicalLimit.kilograms("8.9t"), 8900)
    }

    func testFerriesAndShuttleTrains() {
        let ferry = way(["route": "ferry", "duration": "PT1H30M"])
        XCTAssertEqual(ferry?.roadClass, .ferry)
        XCTAssertEqual(ferry?.durationSeconds, 5400)
        XCTAssertEqual(ferry?.isStartpoint, false)
        XCTAssertEqual(directions(["route": "ferry"]), "FB")
        XCTAssertEqual(way(["route": "ferry"])?.speedKmh, 5)
        XCTAssertEqual(way(["route": "shuttle_train"])?.roadClass, .shuttleTrain)
        XCTAssertEqual(directions(["route": "ferry", "oneway": "yes"]), "F-")
        XCTAssertNil(way(["route": "bus"]))
        XCTAssertEqual(Duration.seconds("00:05"), 300)
        XCTAssertEqual(Duration.seconds("1:00:00"), 3600)
        XCTAssertEqual(Duration.seconds("45"), 2700)
        XCTAssertNil(Duration.seconds("soon"))
        XCTAssertNil(Duration.seconds("P"))
    }

    func testSpeedsBySurfaceAndAdvisory() {
        XCTAssertEqual(way(["highway": "primary", "surface": "gravel"])?.speedKmh, 40)
        XCTAssertEqual(way(["highway": "primary", "tracktype": "grade5"])?.speedKmh, 20)
        XCTAssertEqual(way(["highway": "residential", "surface": "asphalt"])?.speedKmh, 30)
        XCTAssertEqual(way(["highway": "primary", "maxspeed": "80", "maxspeed:advisory": "50"])?.speedKmh, 50)
    }

    func testStartpoints() {
        XCTAssertEqual(way(["highway": "service", "access": "private"])?.isStartpoint, false)
        XCTAssertEqual(way(["highway": "residential", "access": "private"])?.isStartpoint, true)
    }
}
