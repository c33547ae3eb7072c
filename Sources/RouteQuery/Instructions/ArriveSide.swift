import Foundation
import TileMath

/// Which side of the road a destination lies on: the requested point against the direction of
/// the route's last metres at the snapped point. Nil when the point is on the road (within
/// `onRoadMeters` of the line) or the route has no length to take a direction from.
enum ArriveSide {
    static let onRoadMeters = 1.0

    /// `points`: the leg's, of which the last step's are a run.
    static func side(lastStep: RouteStep, points: LegPoints, snapped: (lon: Double, lat: Double),
                     requested: (lon: Double, lat: Double)) -> String? {
        let lat = points.lat[lastStep.points], lon = points.lon[lastStep.points]
        guard lat.count >= 2 else { return nil }
        // The last segment with a length (cut pieces can end in duplicate points).
        var k = lat.endIndex - 1
        while k > lat.startIndex && lat[k - 1] == lat[k] && lon[k - 1] == lon[k] { k -= 1 }
        guard k > lat.startIndex else { return nil }
        let scale = cos(snapped.lat * Double.pi / 180)
        let dx = (lon[k] - lon[k - 1]) * scale, dy = lat[k] - lat[k - 1]
        let px = (requested.lon - snapped.lon) * scale, py = requested.lat - snapped.lat
        let length = (dx * dx + dy * dy).squareRoot()
        guard length > 0 else { return nil }
        // Signed distance of the point from the line (degrees of latitude → metres).
        let cross = (dx * py - dy * px) / length * earthMeanRadiusMeters * Double.pi / 180
        if abs(cross) < onRoadMeters { return nil }
        return cross > 0 ? "left" : "right"
    }
}
