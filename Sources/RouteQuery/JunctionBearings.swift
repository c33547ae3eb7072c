import RoutingGraph
import TileMath

/// The bearings a step is made of at one junction: of the road arrived on and of the road taken
/// (the node's road ends' go to a buffer).
struct JunctionBearings {
    var arriving: Double
    var leaving: Double
}

extension StepBuilder {
    /// The bearings at the junction between pieces a and b, `ends[k]` that of the node's k-th road
    /// end leaving it: as `RoutingData.bearingArriving` / `bearingLeaving` measure them, or at
    /// least as the step rules and the whole degrees of the answer see them.
    ///
    /// Short segments are measured by series (`SeriesBearing`). When a segment is long, or any
    /// bearing, or any turn angle from the arriving road, lies within the series' bound of a whole
    /// or half degree (where a rounding or a threshold could go the other way), all are measured
    /// again with libm. So answers are those of libm throughout.
    func junctionBearings(from a: DrivenPiece, to b: DrivenPiece, node: Int, ends: UnsafeMutableBufferPointer<Double>) -> JunctionBearings {
        junctionBearings(from: a, to: b, node: node, at: data.junctionLatitude(arriving: a.edge, a.direction), ends: ends)
    }

    /// `junctionBearings` at a junction whose latitude terms the caller has (`junctionLatitude`).
    func junctionBearings(from a: DrivenPiece, to b: DrivenPiece, node: Int, at: JunctionLatitude,
                          ends: UnsafeMutableBufferPointer<Double>) -> JunctionBearings {
        if let bearings = seriesBearings(from: a, to: b, node: node, at: at, ends: ends) { return bearings }
        return libmBearings(from: a, to: b, node: node, at: at, ends: ends)
    }

    /// `junctionBearings` with libm alone.
    func libmBearings(from a: DrivenPiece, to b: DrivenPiece, node: Int, at: JunctionLatitude,
                      ends: UnsafeMutableBufferPointer<Double>) -> JunctionBearings {
        let arriving = data.bearingArriving(a.edge, a.direction, at: at)
        let leaving = data.bearingLeaving(b.edge, b.direction, at: at)
        let first = data.ends(of: node).lowerBound
        for i in ends.indices {
            let ed = Int(data.nodeEnds[first + i]), e = ed >> 1, d = ed & 1
            ends[i] = e == b.edge && d == b.direction ? leaving : data.bearingLeaving(e, d, at: at)
        }
        return JunctionBearings(arriving: arriving, leaving: leaving)
    }

    /// `junctionBearings` by series, or nil when a decision on them could differ from libm's.
    func seriesBearings(from a: DrivenPiece, to b: DrivenPiece, node: Int, at: JunctionLatitude,
                        ends: UnsafeMutableBufferPointer<Double>) -> JunctionBearings? {
        let (a0, a1) = data.arrivingSegment(a.edge, a.direction)
        guard let arriving = SeriesBearing(from: (a0.latE7, a0.lonE7), to: (a1.latE7, a1.lonE7), junctionAtFrom: false, junction: at)
        else { return nil }
        var bound = arriving.bound
        var leaving = -1.0
        let first = data.ends(of: node).lowerBound
        for i in ends.indices {
            let ed = Int(data.nodeEnds[first + i]), e = ed >> 1, d = ed & 1
            let (p0, p1) = data.leavingSegment(e, d)
            guard let end = SeriesBearing(from: (p0.latE7, p0.lonE7), to: (p1.latE7, p1.lonE7), junctionAtFrom: true, junction: at)
            else { return nil }
            ends[i] = end.degrees
            bound = max(bound, end.bound)
            if e == b.edge && d == b.direction { leaving = end.degrees }
        }
        guard leaving >= 0 else { return nil }
        // Every bearing is rounded to whole degrees somewhere in the answer, and every turn angle
        // from the arriving road is compared with whole-degree thresholds (the other exits', the
        // one taken, and its modifier).
        if SeriesBearing.nearHalfDegree(arriving.degrees, bound: bound) { return nil }
        for i in ends.indices {
            if SeriesBearing.nearHalfDegree(ends[i], bound: bound)
                || SeriesBearing.nearHalfDegree(turnAngle(arriving: arriving.degrees, leaving: ends[i]), bound: 2 * bound) {
                return nil
            }
        }
        return JunctionBearings(arriving: arriving.degrees, leaving: leaving)
    }
}
