import RoutingGraph
import RoutingTiles
import TileMath

/// OSRM's perceived bearing of a road at a junction (`CoordinateExtractor::
/// ExtractRepresentativeCoordinate`): not the first segment's, which a mapper's few metres of
/// offset at a junction turn, but the direction of the road's first tens of metres (a point
/// far enough along it, a regression line through it, or a curve's start), so a turn's angle is
/// the one a driver perceives. The rules that choose a maneuver read turn angles made of these.
///
/// Bounded: a road is read for at most `lookahead` metres and `maxPoints` shape points, into
/// the caller's scratch (no allocation).
enum RoadShapeAhead {
    /// OSRM's `ASSUMED_LANE_WIDTH`, and its lane count when a way has none
    /// (`ASSUMED_LANE_COUNT`: the graph keeps no lanes, so always).
    static let laneWidth = 3.25
    static let assumedLaneCount = 2.0
    /// `LOOKAHEAD_DISTANCE_WITHOUT_LANES`, `FAR_LOOKAHEAD_DISTANCE`, `DESIRED_COORDINATE_DIFFERENCE`.
    static let lookaheadWithoutLanes = 10.0
    static let farLookahead = 40.0
    static let desiredCoordinateDifference = 2.0
    /// Repeated points and a mapper's small errors at the very start are skipped over this.
    static let skipInaccuracies = 2.0
    /// OSRM's narrow turn (`NARROW_TURN_ANGLE`), for telling a curve.
    static let narrowTurnAngle = 40.0
    /// Shape points read per road, at most (a road's first ~56 m rarely have more).
    static let maxPoints = 48

    /// OSRM's `GetOffsetCorrectionFactor`: wide roads meet a junction further from its centre.
    static func offsetFactor(roadClass c: UInt8) -> Double {
        if c <= 3 { return 2.5 }          // motorway, trunk and their links
        return c == 4 ? 1.5 : 1.0         // primary
    }

    /// OSRM's low-priority classes (`may_be_ignored`): what its car profile does not list as a
    /// road (service ways and the rest).
    static func isLowPriority(roadClass c: UInt8) -> Bool { c >= 13 }

    /// The representative point of a road starting at the origin through `p[0..<n]` (repeats
    /// removed), relative to the origin.
    /// `segments` is scratch of `n` lengths.
    static func representative(_ p: UnsafeMutableBufferPointer<LocalPoint>, _ n: Int, roadClass: UInt8,
                               roundabout: Bool, segments seg: UnsafeMutableBufferPointer<Double>) -> LocalPoint {
        typealias M = RoadShapeMath
        // A straight line: any of its points gives the same direction.
        if n <= 2 { return p[n - 1] }
        seg[0] = 0
        for i in 1..<n { seg[i] = p[i - 1].distance(to: p[i]) }
        if roundabout { return M.pointAt(skipInaccuracies, p, n, segments: seg) }
        // Low-priority ways are drawn too strangely for more than a short look.
        if isLowPriority(roadClass: roadClass) { return M.pointAt(lookaheadWithoutLanes, p, n, segments: seg) }
        let lanes = offsetFactor(roadClass: roadClass) * assumedLaneCount
        let laneSpan = lanes * laneWidth
        // A first point far from the junction represents the road.
        if seg[1] > laneSpan + lookaheadWithoutLanes { return p[1] }
        // The points up to the first at the lookahead (the rest of the road is not looked at).
        let lookahead = farLookahead + laneSpan
        var m = n, run = 0.0
        for i in 1..<n {
            run += seg[i]
            if run >= lookahead { m = i + 1; break }
        }
        seg[m - 1] = min(seg[m - 1], lookahead)
        var total = 0.0
        for i in 1..<m { total += seg[i] }
        if m == 2 || total <= skipInaccuracies { return p[m - 1] }
        let front = p[0], back = p[m - 1]
        // Nearly straight: its far end.
        if M.maxDeviation(p, 0..<m, front, back) < 0.5 * laneWidth {
            return front == back ? M.pointAt(skipInaccuracies, p, m, segments: seg) : back
        }
        // How far the road starts off straight.
        var straightDistance = seg[1], index = 2
        while index < m {
            guard M.maxDeviation(p, 0..<index, front, p[index]) < 0.25 * laneWidth else { break }
            straightDistance += seg[index]
            index += 1
        }
        let straightIndex = index - 1
        if straightDistance >= laneSpan + lookaheadWithoutLanes { return M.pointAt(5, p, m, segments: seg) }
        // A line through all points, when they keep close to one.
        let (lineFront, lineBack) = M.regressionLine(p, from: 0, m)
        if M.maxDeviation(p, 0..<m, lineFront, lineBack) < 0.35 * laneWidth {
            return M.corrected(base: front.projected(onto: lineFront, lineBack), head: back.projected(onto: lineFront, lineBack))
        }
        if isDirectOffset(p, m, straightIndex: straightIndex, straightDistance: straightDistance, total: total, segments: seg, lanes: lanes) {
            let k = max(1, straightIndex)
            return M.corrected(base: p[k], head: p[k + 1])
        }
        if isCurve(p, m, segments: seg, total: total, laneSpan: laneSpan) {
            // The curve's start: OSRM's two trims of its first metres (as it computes them).
            var k = M.trimWithCache(3 * skipInaccuracies, p, m, segments: seg)
            seg[k - 1] = p[k - 2].distance(to: p[k - 1])
            let head = p[k - 1]
            k = M.trimWithCache(2 * skipInaccuracies, p, k, segments: seg)
            return M.corrected(base: p[k - 1], head: head)
        }
        // A line through the points past the junction's lanes.
        let trimming = 0.8 * laneSpan
        if total >= trimming + 2, let (start, startPoint) = trimFront(p, m, 0.8 * trimming) {
            // On the trimmed line (its first point moved, put back after: the last rule reads
            // the whole line).
            let kept = p[start]
            p[start] = startPoint
            let (a, b) = M.regressionLine(p, from: start, m)
            let deviation = M.maxDeviation(p, start..<m, a, b)
            p[start] = kept
            if deviation < 0.5 * laneWidth { return M.corrected(base: a, head: b) }
        }
        let result = M.pointAt(lookaheadWithoutLanes, p, m, segments: seg)
        if result != front { return result }
        for i in 1..<m where p[i] != front { return p[i] }
        return result
    }

    /// OSRM's `TrimCoordinatesByLengthFront`: the first `length` metres cut off `p[0..<n]`: the
    /// index the rest starts at and the point that replaces it there, or nil when the line is
    /// shorter.
    private static func trimFront(_ p: UnsafeMutableBufferPointer<LocalPoint>, _ n: Int, _ length: Double) -> (Int, LocalPoint)? {
        var run = 0.0
        for i in 1..<n {
            let next = run + p[i - 1].distance(to: p[i])
            if next >= length {
                let t = next > run ? max(0, min(1, (length - run) / (next - run))) : 0
                return n - (i - 1) >= 2 ? (i - 1, LocalPoint.lerp(p[i - 1], p[i], t)) : nil
            }
            run = next
        }
        return nil
    }

    /// OSRM's `IsDirectOffset`: the road starts with a short jog about half its width (its
    /// way drawn from the junction to the middle of its lanes), then runs straight.
    private static func isDirectOffset(_ p: UnsafeMutableBufferPointer<LocalPoint>, _ m: Int, straightIndex: Int, straightDistance: Double,
                                       total: Double, segments seg: UnsafeMutableBufferPointer<Double>, lanes: Double) -> Bool {
        let k = max(1, straightIndex)
        guard k + 1 < m else { return false }
        var offset = 0.0
        for i in 0...k { offset += seg[i] }
        guard offset - 0.5 * lanes * laneWidth < laneWidth else { return false }
        guard total >= 0.4 * farLookahead else { return false }
        guard total - max(straightDistance, seg[1]) >= 0.1 * total else { return false }
        // Compared up to the first segment of 30 m or more (as OSRM looks).
        var end = m
        for i in k..<m where seg[i] >= 30 { end = min(m, i + 1); break }
        return 0.5 * laneWidth > RoadShapeMath.maxDeviation(p, k..<end, p[k], p[end - 1])
    }

    /// OSRM's `IsCurve`: the road bends one way, its distance from the chord rising to one
    /// maximum and falling after, with no long straight stretch on the way.
    private static func isCurve(_ p: UnsafeMutableBufferPointer<LocalPoint>, _ m: Int, segments seg: UnsafeMutableBufferPointer<Double>,
                                total: Double, laneSpan: Double) -> Bool {
        typealias M = RoadShapeMath
        let turns = M.deviation(p[0].bearing(to: p[1]), p[m - 2].bearing(to: p[m - 1]))
        guard turns > 0.5 * narrowTurnAngle else { return false }
        let front = p[0], back = p[m - 1]
        @inline(__always) func side(_ q: LocalPoint) -> Bool {
            (back.x - front.x) * (q.y - front.y) - (back.y - front.y) * (q.x - front.x) > 0
        }
        if m > 3 {
            let first = side(p[1])
            for i in 2..<(m - 1) where side(p[i]) != first { return false }
        }
        @inline(__always) func dev(_ i: Int) -> Double { p[i].deviation(from: front, back) }
        var maxIndex = 0, maxDeviation = 0.0
        if m == 3 {
            maxIndex = 1
            maxDeviation = dev(1)
        } else {
            var rise = 2
            while rise < m && !(dev(rise) < dev(rise - 1)) { rise += 1 }
            if rise == m {
                maxIndex = m - 1
            } else {
                for i in (rise + 1)..<m where dev(i) > dev(i - 1) { return false }
                maxIndex = rise - 1
                maxDeviation = dev(rise - 1)
            }
        }
        var toMax = 0.0
        for i in 0...maxIndex { toMax += seg[i] }
        if (toMax <= 0.35 * total || maxDeviation < max(0.3 * laneSpan, 0.5 * laneWidth)) && total > lookaheadWithoutLanes {
            return false
        }
        // No long straight stretch within the curve, and no bend the other way.
        var lastWasStraight = false
        var straight = max(0, seg[1] - laneSpan)
        var at = 1
        if m >= 4 {
            var previous = M.angle(p[0], p[1], p[2])
            for i in 1..<(m - 2) {
                let current = M.angle(p[i], p[i + 1], p[i + 2])
                let bothTurn = M.deviation(previous, 180) > 25 && M.deviation(current, 180) > 25
                if bothTurn && (previous > 180) == (current < 180) { return false }
                let isStraight = M.deviation(current, 180) < 5
                at += 1
                if isStraight {
                    straight += seg[at]
                    if lastWasStraight && straight > 0.3 * total { return false }
                } else if straight > 0.3 * total {
                    return false
                } else {
                    straight = seg[at]
                }
                lastWasStraight = isStraight
                previous = current
            }
        }
        return total > 2 * laneSpan
    }
}

/// Scratch for reading one road's first metres: points and segment lengths, on the stack of
/// the step being built (`RoadShapeAhead.maxPoints` each).
struct RoadScratch {
    let points: UnsafeMutableBufferPointer<LocalPoint>
    let lengths: UnsafeMutableBufferPointer<Double>
}

extension StepBuilder {
    /// The perceived bearing (`RoadShapeAhead`) of road end (e, d) leaving the junction, whose
    /// first segment's bearing is `initial`. Most roads are settled by their first shape
    /// point alone (a two-point edge, or a first point far enough away): then it is `initial`.
    func perceivedBearing(_ e: Int, _ d: Int, initial: Double, junction: JunctionLatitude, scratch: RoadScratch) -> Double {
        let shapes = data.shapes
        let total = shapes.count(e)
        if total <= 2 { return initial }
        let record = data.edges[e]
        let roadClass = record.roadClass
        let roundabout = record.flags & EdgeFlags.roundabout != 0
        // Metres per 1e-7 degree east and north at the junction (cheap ruler, WGS84).
        let cosLat = junction.trig.cos
        let e2 = (1 / 298.257223563) * (2 - 1 / 298.257223563)
        let w2 = 1 / (1 - e2 * (1 - cosLat * cosLat))
        let perDegree = Double.pi / 180 * 6_378_137.0
        let kx = perDegree * w2.squareRoot() * cosLat * 1e-7, ky = perDegree * w2.squareRoot() * w2 * (1 - e2) * 1e-7
        let origin = shapes.point(e, 0, direction: d)
        @inline(__always) func local(_ q: E7Point) -> LocalPoint {
            LocalPoint(x: Double(q.lonE7 &- origin.lonE7) * kx, y: Double(q.latE7 &- origin.latE7) * ky)
        }
        let firstPoint = local(shapes.point(e, 1, direction: d))
        let lowPriority = RoadShapeAhead.isLowPriority(roadClass: roadClass)
        let laneSpan = RoadShapeAhead.offsetFactor(roadClass: roadClass) * RoadShapeAhead.assumedLaneCount * RoadShapeAhead.laneWidth
        // A first point far enough away represents the road (OSRM's first test after the
        // roundabouts and low-priority ways, which look a fixed short way).
        if !roundabout && !lowPriority && firstPoint.distance(to: LocalPoint(x: 0, y: 0)) > laneSpan + RoadShapeAhead.lookaheadWithoutLanes {
            return initial
        }
        let lookahead = lowPriority ? RoadShapeAhead.lookaheadWithoutLanes : RoadShapeAhead.farLookahead + laneSpan
        let p = scratch.points
        p[0] = LocalPoint(x: 0, y: 0)
        var n = 1, run = 0.0
        for k in 1..<total {
            let q = local(shapes.point(e, k, direction: d))
            if q == p[n - 1] { continue }
            guard n < p.count else { break }
            run += p[n - 1].distance(to: q)
            p[n] = q
            n += 1
            // One point past the lookahead is all any rule reads (the last point when the
            // whole road is read: the road's far end counts only for two-point roads).
            if run >= lookahead && k < total - 1 { break }
        }
        if n < 2 { return initial }
        let r = RoadShapeAhead.representative(p, n, roadClass: roadClass, roundabout: roundabout, segments: scratch.lengths)
        if r == firstPoint { return initial }
        return LocalPoint(x: 0, y: 0).bearing(to: r)
    }
}
