import Foundation
import TileMath

/// Douglas–Peucker simplification of a line in 1e-7 degrees with a tolerance in metres, for
/// `--overview simplified`: the result keeps both endpoints and every point that lies farther
/// than the tolerance from the simplified line between its kept neighbours.
///
/// Distances are measured in one equirectangular projection centred on the line's bounding
/// box (an overview spans at most a country, where that is accurate to well under 1 %), to the
/// *segment* between the kept points rather than the infinite line through them, so a spike
/// that runs back past an endpoint is not mistaken for a point on the line. The work is an
/// explicit stack (no recursion depth limit) and ties keep the first farthest point, so the
/// result is deterministic.
public enum LineSimplification {
    /// Indexes of the points to keep, ascending; always includes 0 and count − 1.
    public static func keptIndexes<Lat: RandomAccessCollection, Lon: RandomAccessCollection>(
        latE7: Lat, lonE7: Lon, toleranceMeters: Double
    ) -> [Int] where Lat.Element == Int32, Lon.Element == Int32, Lat.Index == Int, Lon.Index == Int {
        precondition(latE7.count == lonE7.count, "latitude and longitude counts differ")
        let n = latE7.count
        guard n > 2 else { return Array(0..<n) }
        let lat0 = latE7.startIndex, lon0 = lonE7.startIndex
        // Projected metres, relative to the first point.
        var minLat = Int32.max, maxLat = Int32.min
        for v in latE7 { minLat = min(minLat, v); maxLat = max(maxLat, v) }
        let metersPerE7Lat = earthMeanRadiusMeters * Double.pi / 180 * 1e-7
        let midLat = (Double(minLat) + Double(maxLat)) / 2 * 1e-7
        let metersPerE7Lon = metersPerE7Lat * cos(midLat * Double.pi / 180)
        let firstLat = Int64(latE7[lat0]), firstLon = Int64(lonE7[lon0])
        var x = [Double](repeating: 0, count: n), y = [Double](repeating: 0, count: n)
        for i in 0..<n {
            x[i] = Double(Int64(lonE7[lon0 + i]) - firstLon) * metersPerE7Lon
            y[i] = Double(Int64(latE7[lat0 + i]) - firstLat) * metersPerE7Lat
        }
        let tolerance = max(0, toleranceMeters)
        var keep = [Bool](repeating: false, count: n)
        keep[0] = true
        keep[n - 1] = true
        var ranges: [(Int, Int)] = [(0, n - 1)]
        // The scan below is the whole cost on a long route: over buffers, without bounds checks.
        x.withUnsafeBufferPointer { x in
            y.withUnsafeBufferPointer { y in
                while let (a, b) = ranges.popLast() {
                    guard b - a > 1 else { continue }
                    var farthest = -1
                    var farthestSquared = tolerance * tolerance
                    let ax = x[a], ay = y[a], bx = x[b], by = y[b]
                    for i in (a + 1)..<b {
                        let d = squaredDistanceToSegment(x[i], y[i], ax, ay, bx, by)
                        if d > farthestSquared { farthest = i; farthestSquared = d }
                    }
                    guard farthest >= 0 else { continue }
                    keep[farthest] = true
                    ranges.append((farthest, b))
                    ranges.append((a, farthest))
                }
            }
        }
        return (0..<n).filter { keep[$0] }
    }

    /// The kept points themselves.
    public static func simplify(latE7: [Int32], lonE7: [Int32], toleranceMeters: Double) -> (latE7: [Int32], lonE7: [Int32]) {
        let kept = keptIndexes(latE7: latE7, lonE7: lonE7, toleranceMeters: toleranceMeters)
        return (kept.map { latE7[$0] }, kept.map { lonE7[$0] })
    }

    @inline(__always) static func squaredDistanceToSegment(_ px: Double, _ py: Double, _ ax: Double, _ ay: Double,
                                                           _ bx: Double, _ by: Double) -> Double {
        let dx = bx - ax, dy = by - ay
        let lengthSquared = dx * dx + dy * dy
        let t = lengthSquared > 0 ? min(1, max(0, ((px - ax) * dx + (py - ay) * dy) / lengthSquared)) : 0
        let ex = px - (ax + t * dx), ey = py - (ay + t * dy)
        return ex * ex + ey * ey
    }
}
