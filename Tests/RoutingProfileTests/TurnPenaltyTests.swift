import Foundation
import XCTest
@testable import RoutingProfile

final class TurnPenaltyTests: XCTestCase {
    let car = TravelProfile.embeddedDefault

    func testValuesMatchOSRMFormula() {
        // OSRM car.lua process_turn with turn_penalty 7.5, turn_bias 1.075.
        func osrm(_ angle: Double) -> Double {
            let bias = 1.075
            if angle >= 0 { return 7.5 / (1 + exp(-((13 / bias) * angle / 180 - 6.5 * bias))) }
            return 7.5 / (1 + exp(-((13 * bias) * -angle / 180 - 6.5 / bias)))
        }
        for angle in stride(from: -170.0, through: 170, by: 5) {
            XCTAssertEqual(car.turnPenaltySeconds(turnAngleDegrees: angle), osrm(angle), accuracy: 1e-12, "\(angle)")
        }
        XCTAssertLessThan(car.turnPenaltySeconds(turnAngleDegrees: 0), 0.01, "straight on is almost free")
        XCTAssertEqual(car.turnPenaltySeconds(turnAngleDegrees: 180), osrm(180) + 20, accuracy: 1e-12)
    }

    func testMonotoneInSharpnessOnBothSides() {
        var previousRight = -1.0, previousLeft = -1.0
        for step in 0...1790 {
            let angle = Double(step) / 10
            let right = car.turnPenaltySeconds(turnAngleDegrees: angle)
            let left = car.turnPenaltySeconds(turnAngleDegrees: -angle)
            XCTAssertGreaterThanOrEqual(right, previousRight, "right \(angle)")
            XCTAssertGreaterThanOrEqual(left, previousLeft, "left \(angle)")
            if angle > 0 && angle < 175 { XCTAssertGreaterThan(left, right, "driving on the right, left turns cost more (\(angle))") }
            previousRight = right
            previousLeft = left
        }
        let uTurn = car.turnPenaltySeconds(turnAngleDegrees: 180)
        for angle in stride(from: -179.0, through: 179, by: 1) where abs(angle) < TravelProfile.uTurnMinimumAngleDegrees {
            XCTAssertLessThan(car.turnPenaltySeconds(turnAngleDegrees: angle), uTurn)
        }
        XCTAssertGreaterThan(uTurn, 27)
    }

    func testAngleWrappingAndUTurnFlag() {
        XCTAssertEqual(car.turnPenaltySeconds(turnAngleDegrees: 270), car.turnPenaltySeconds(turnAngleDegrees: -90), accuracy: 1e-12)
        XCTAssertEqual(car.turnPenaltySeconds(turnAngleDegrees: -180), car.turnPenaltySeconds(turnAngleDegrees: 180))
        XCTAssertEqual(car.turnPenaltySeconds(turnAngleDegrees: 540), car.turnPenaltySeconds(turnAngleDegrees: 180), accuracy: 1e-12)
        XCTAssertEqual(car.turnPenaltySeconds(turnAngleDegrees: .nan), car.turnPenaltySeconds(turnAngleDegrees: 0))
        XCTAssertEqual(car.turnPenaltySeconds(turnAngleDegrees: 90, isUTurn: true),
                       car.turnPenaltySeconds(turnAngleDegrees: 90) + 20, accuracy: 1e-12)
        XCTAssertEqual(car.turnPenaltySeconds(turnAngleDegrees: 180, isUTurn: false),
                       car.turnPenaltySeconds(turnAngleDegrees: 180) - 20, accuracy: 1e-12)
    }

    func testTurnAngleFromBearings() {
        XCTAssertEqual(TravelProfile.turnAngleDegrees(arrivingBearing: 0, leavingBearing: 90), 90, "north then east: right")
        XCTAssertEqual(TravelProfile.turnAngleDegrees(arrivingBearing: 0, leavingBearing: 270), -90, "north then west: left")
        XCTAssertEqual(TravelProfile.turnAngleDegrees(arrivingBearing: 350, leavingBearing: 10), 20)
        XCTAssertEqual(TravelProfile.turnAngleDegrees(arrivingBearing: 10, leavingBearing: 350), -20)
        XCTAssertEqual(abs(TravelProfile.turnAngleDegrees(arrivingBearing: 45, leavingBearing: 225)), 180)
        XCTAssertEqual(TravelProfile.turnAngleDegrees(arrivingBearing: 123, leavingBearing: 123), 0)
    }

    func testLeftHandTrafficMirrorsTheBias() {
        var settings = car.settings
        settings.drivingSide = .left
        let uk = TravelProfile(settings: settings)
        for angle in stride(from: 10.0, through: 170, by: 10) {
            XCTAssertEqual(uk.turnPenaltySeconds(turnAngleDegrees: angle), car.turnPenaltySeconds(turnAngleDegrees: -angle), accuracy: 1e-12)
            XCTAssertGreaterThan(uk.turnPenaltySeconds(turnAngleDegrees: angle), uk.turnPenaltySeconds(turnAngleDegrees: -angle))
        }
    }

    func testEditableValues() {
        var settings = car.settings
        settings.turnPenaltySeconds = 0
        settings.uTurnPenaltySeconds = 60
        let p = TravelProfile(settings: settings)
        XCTAssertEqual(p.turnPenaltySeconds(turnAngleDegrees: 120), 0)
        XCTAssertEqual(p.turnPenaltySeconds(turnAngleDegrees: 180), 60)
    }
}
