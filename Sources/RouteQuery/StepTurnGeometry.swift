import Foundation

/// A point in metres east (x) and north (y) of a junction: the few tens of metres OSRM looks
/// along a road to see where it goes are a plane.
struct LocalPoint: Equatable {
    var x: Double
    var y: Double

    @inline(__always) static func - (a: LocalPoint, b: LocalPoint) -> LocalPoint { LocalPoint(x: a.x - b.x, y: a.y - b.y) }
    @inline(__always) static func + (a: LocalPoint, b: LocalPoint) -> LocalPoint { LocalPoint(x: a.x + b.x, y: a.y + b.y) }
    @inline(__always) static func * (k: Double, a: LocalPoint) -> LocalPoint { LocalPoint(x: k * a.x, y: k * a.y) }

    @inline(__always) func distance(to b: LocalPoint) -> Double { ((x - b.x) * (x - b.x) + (y - b.y) * (y - b.y)).squareRoot() }

    /// Degrees clockwise from north, 0 ..< 360, from `self` towards `b` (0 when they coincide).
    @inline(__always) func bearing(to b: LocalPoint) -> Double {
        let d = atan2(b.x - x, b.y - y) * (180 / Double.pi)
        return d < 0 ? d + 360 : (d >= 360 ? 0 : d)
    }

    /// `a + t (b − a)`.
    @inline(__always) static func lerp(_ a: LocalPoint, _ b: LocalPoint, _ t: Double) -> LocalPoint {
        LocalPoint(x: a.x + t * (b.x - a.x), y: a.y + t * (b.y - a.y))
    }

    /// The point of segment a–b nearest to `self` (OSRM's `projectPointOnSegment`, clamped).
    @inline(__always) func projected(onto a: LocalPoint, _ b: LocalPoint) -> LocalPoint {
        let dx = b.x - a.x, dy = b.y - a.y
        let squared = dx * dx + dy * dy
        guard squared >= Double.ulpOfOne else { return a }
        let t = max(0, min(1, ((x - a.x) * dx + (y - a.y) * dy) / squared))
        return LocalPoint(x: a.x + t * dx, y: a.y + t * dy)
    }

    /// Distance to segment a–b.
    @inline(__always) func deviation(from a: LocalPoint, _ b: LocalPoint) -> Double { distance(to: projected(onto: a, b)) }
}

/// The plane geometry OSRM's coordinate extractor reads a road's first metres with
/// (`coordinate_extractor.cpp`, `coordinate_calculation.cpp`), on points held by the caller.
enum RoadShapeMath {
    /// The largest distance of `p[range]` from segment a–b (`GetMaxDeviation`).
    static func maxDeviation(_ p: UnsafeMutableBufferPointer<LocalPoint>, _ range: Range<Int>, _ a: LocalPoint, _ b: LocalPoint) -> Double {
        var most = 0.0
        for i in range { most = max(most, p[i].deviation(from: a, b)) }
        return most
    }

    /// The point `distance` metres along `p[0..<n]` (the last point when shorter), OSRM's
    /// `ExtractCoordinateAtLength`; `segments[i]` is the length of segment i − 1 → i.
    static func pointAt(_ distance: Double, _ p: UnsafeMutableBufferPointer<LocalPoint>, _ n: Int,
                        segments: UnsafeMutableBufferPointer<Double>) -> LocalPoint {
        var run = 0.0
        for i in 1..<n {
            let s = segments[i]
            if run + s >= distance {
                let t = s > 0 ? max(0, min(1, (distance - run) / s)) : 0
                return LocalPoint.lerp(p[i - 1], p[i], t)
            }
            run += s
        }
        return p[n - 1]
    }

    /// OSRM's `TrimCoordinatesToLength` given its length cache, which holds each segment's
    /// length but is read as the running length: the count of points kept, the last one moved.
    /// (Ported as OSRM computes it: with a last segment shorter than `length` nothing changes;
    /// otherwise the first segment of at least `length` ends the line.)
    static func trimWithCache(_ length: Double, _ p: UnsafeMutableBufferPointer<LocalPoint>, _ n: Int,
                              segments: UnsafeMutableBufferPointer<Double>) -> Int {
        if segments[n - 1] < length { return n }
        var current = 0.0
        for i in 1..<n {
            let next = segments[i]
            if next >= length {
                let span = next - current
                let t = span > 0 ? max(0, min(1, (length - current) / span)) : 0
                p[i] = LocalPoint.lerp(p[i - 1], p[i], t)
                return i + 1
            }
            current = next
        }
        return n
    }

    /// OSRM's `GetCorrectedCoordinate`: the direction base → head moved to start at the
    /// junction (the origin), so an offset at the road's start does not turn it.
    @inline(__always) static func corrected(base: LocalPoint, head: LocalPoint) -> LocalPoint {
        if base.distance(to: head) < RoadShapeAhead.desiredCoordinateDifference { return head }
        return head - 0.9 * base
    }

    /// OSRM's `RegressionLine`: least squares through points every metre along `p[from..<n]`
    /// for at most 40 m, then the first and last point projected onto it.
    static func regressionLine(_ p: UnsafeMutableBufferPointer<LocalPoint>, from: Int, _ n: Int) -> (LocalPoint, LocalPoint) {
        // The samples' sums, each sample added as it is found (no list of them).
        var count = 0.0, sx = 0.0, sy = 0.0, sxx = 0.0, syy = 0.0, sxy = 0.0
        var minX = p[from].x, maxX = p[from].x, minY = p[from].y, maxY = p[from].y
        @inline(__always) func add(_ q: LocalPoint) {
            count += 1
            sx += q.x; sy += q.y; sxx += q.x * q.x; syy += q.y * q.y; sxy += q.x * q.y
            minX = min(minX, q.x); maxX = max(maxX, q.x); minY = min(minY, q.y); maxY = max(maxY, q.y)
        }
        add(p[from])
        let rate = 1.0, limit = RoadShapeAhead.farLookahead
        var carry = 0.0, total = 0.0
        let firstSample = p[from]
        var lastSample = p[from]
        for i in (from + 1)..<n where total <= limit {
            let a = p[i - 1], b = p[i], between = a.distance(to: b)
            if carry + between >= rate {
                let base = rate - carry
                let samples = Int(((min(limit - total, between) + carry) / rate).rounded(.down))
                for k in 0..<samples {
                    let t = between > 0 ? max(0, min(1, (base + Double(k) * rate) / between)) : 0
                    let q = LocalPoint.lerp(a, b, t)
                    add(q)
                    lastSample = q
                }
                carry = (between + carry) - Double(samples) * rate
            } else {
                carry += between
            }
            total += between
        }
        let front = p[from], back = p[n - 1]
        guard count >= 2 else { return (front, back) }
        // Regressed the way the points spread most: y on x, or x on y when they run north-south.
        let swap = (maxY - minY) > 2 * (maxX - minX)
        let (su, sv, suu, svv) = swap ? (sy, sx, syy, sxx) : (sx, sy, sxx, syy)
        let meanU = su / count, meanV = sv / count
        let varU = (suu - count * meanU * meanU) / (count - 1), varV = (svv - count * meanV * meanV) / (count - 1)
        guard varU.squareRoot() >= Double.ulpOfOne, varV.squareRoot() >= Double.ulpOfOne else {
            return (front.projected(onto: firstSample, lastSample), back.projected(onto: firstSample, lastSample))
        }
        let slope = (sxy - count * meanU * meanV) / (count - 1) / varU
        // A point on the line and its direction, in x and y.
        let origin = swap ? LocalPoint(x: meanV, y: meanU) : LocalPoint(x: meanU, y: meanV)
        let direction = swap ? LocalPoint(x: slope, y: 1) : LocalPoint(x: 1, y: slope)
        @inline(__always) func onLine(_ q: LocalPoint) -> LocalPoint {
            let d = q - origin
            let t = (d.x * direction.x + d.y * direction.y) / (direction.x * direction.x + direction.y * direction.y)
            return origin + t * direction
        }
        return (onLine(front), onLine(back))
    }

    /// OSRM's `computeAngle` at b of a → b → c: 180 straight on, below it a turn right.
    @inline(__always) static func angle(_ a: LocalPoint, _ b: LocalPoint, _ c: LocalPoint) -> Double {
        if a == b || b == c { return 180 }
        var d = (atan2(c.y - b.y, c.x - b.x) - atan2(a.y - b.y, a.x - b.x)) * (180 / Double.pi)
        while d < 0 { d += 360 }
        return d
    }

    /// OSRM's `angularDeviation`.
    @inline(__always) static func deviation(_ a: Double, _ b: Double) -> Double {
        let d = abs(a - b)
        return min(360 - d, d)
    }
}
