import Foundation

/// Which side of the road traffic keeps to; decides which turns cross oncoming traffic.
public enum DrivingSide: String, Sendable {
    case right
    case left
}

extension TravelProfile {
    /// Turns at least this sharp count as U-turns when the caller does not say.
    public static let uTurnMinimumAngleDegrees = 175.0

    /// The turn angle (convention of `turnPenaltySeconds`) between the heading on arrival at a
    /// node and the heading on leaving it, both compass bearings in degrees (clockwise from
    /// north): the clockwise change, wrapped into −180…180 (+ right, − left).
    public static func turnAngleDegrees(arrivingBearing: Double, leavingBearing: Double) -> Double {
        remainder(leavingBearing - arrivingBearing, 360)
    }

    /// Seconds a turn costs, as in OSRM's car profile (`process_turn`).
    ///
    /// Angle convention: the signed deviation from going straight on, in degrees —
    /// 0 straight, +90 a right turn, −90 a left turn, ±180 a U-turn. Values outside
    /// −180…180 are wrapped; non-finite values count as straight.
    ///
    /// Penalty: a logistic curve of the angle that is near 0 for small angles and approaches
    /// `turnPenalty` (7.5 s) for the sharpest turns, skewed by `turnBias` (1.075) so that turns
    /// crossing oncoming traffic (left turns when driving on the right) cost more:
    ///
    ///     right turn (a ≥ 0): turnPenalty / (1 + exp(−((13 / bias) · a/180 − 6.5 · bias)))
    ///     left turn  (a < 0): turnPenalty / (1 + exp(−((13 · bias) · |a|/180 − 6.5 / bias)))
    ///
    /// with bias = turnBias when driving on the right and 1 / turnBias on the left. A U-turn
    /// adds `uTurnPenalty` (20 s) on top. `isUTurn` nil means "|angle| ≥ 175°".
    ///
    /// Like OSRM, callers should charge this only at real intersections (more than two roads
    /// meet) or for U-turns, not where one road simply continues around a bend; node delays
    /// (`nodeDelaySeconds`) are separate.
    public func turnPenaltySeconds(turnAngleDegrees: Double, isUTurn: Bool? = nil) -> Double {
        var angle = turnAngleDegrees.isFinite ? remainder(turnAngleDegrees, 360) : 0
        if angle == -180 { angle = 180 }
        let bias = settings.drivingSide == .right ? settings.turnBias : 1 / settings.turnBias
        let penalty = settings.turnPenaltySeconds
        var seconds: Double
        if angle >= 0 {
            seconds = penalty / (1 + exp(-((13 / bias) * angle / 180 - 6.5 * bias)))
        } else {
            seconds = penalty / (1 + exp(-((13 * bias) * -angle / 180 - 6.5 / bias)))
        }
        if isUTurn ?? (abs(angle) >= TravelProfile.uTurnMinimumAngleDegrees) {
            seconds += settings.uTurnPenaltySeconds
        }
        return seconds
    }
}
