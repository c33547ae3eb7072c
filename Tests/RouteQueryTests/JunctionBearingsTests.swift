@testable import RouteQuery
import RoutingGraph
import TileMath
import XCTest

/// Bearings at junctions by series (`SeriesBearing`, `StepBuilder.junctionBearings`) against
/// libm's, over every junction of the sample graph: within the stated bound, and every decision
/// the steps take on them (whole degrees, whole-degree thresholds, signs) the same.
final class JunctionBearingsTests: XCTestCase {
    func data() throws -> RoutingData { try RoutingData(path: try SampleGraphFixture.graphPath()) }

    /// The road ends leaving `node`, as (edge, direction).
    func ends(_ data: RoutingData, _ node: Int) -> [(edge: Int, direction: Int)] {
        (Int(data.nodeFirstEnd[node])..<Int(data.nodeFirstEnd[node + 1])).map {
            let ed = Int(data.nodeEnds[$0])
            return (ed >> 1, ed & 1)
        }
    }

    func piece(_ edge: Int, _ direction: Int) -> DrivenPiece {
        DrivenPiece(edge: edge, direction: direction, fromShare: 0, toShare: 1, seconds: 0, meters: 0, points: 0..<0)
    }

    func testSeriesBearingsAreWithinTheirBoundOfLibm() throws {
        let data = try data()
        var measured = 0, declined = 0, largestBound = 0.0
        for node in 0..<data.nodeCount {
            for end in ends(data, node) {
                let at = data.junctionLatitude(arriving: end.edge, 1 - end.direction)
                let (p0, p1) = data.leavingSegment(end.edge, end.direction)
                guard let series = SeriesBearing(from: (p0.latE7, p0.lonE7), to: (p1.latE7, p1.lonE7), junctionAtFrom: true, junction: at)
                else { declined += 1; continue }
                let libm = data.bearingLeaving(end.edge, end.direction, at: at)
                var difference = abs(series.degrees - libm)
                difference = min(difference, 360 - difference)
                XCTAssertLessThanOrEqual(difference, series.bound, "edge \(end.edge) direction \(end.direction): \(series.degrees) vs \(libm)")
                XCTAssertTrue((0..<360).contains(series.degrees))
                largestBound = max(largestBound, series.bound)
                measured += 1
                // The same segment driven the other way, arriving at its first point.
                let back = SeriesBearing(from: (p1.latE7, p1.lonE7), to: (p0.latE7, p0.lonE7), junctionAtFrom: false, junction: at)
                let libmBack = initialBearingDegrees(from: GeoPoint(lon: Double(p1.lonE7) / 1e7, lat: Double(p1.latE7) / 1e7),
                                                     to: GeoPoint(lon: Double(p0.lonE7) / 1e7, lat: Double(p0.latE7) / 1e7))
                if let back {
                    var d = abs(back.degrees - libmBack)
                    d = min(d, 360 - d)
                    XCTAssertLessThanOrEqual(d, back.bound, "edge \(end.edge) back: \(back.degrees) vs \(libmBack)")
                }
            }
        }
        XCTAssertGreaterThan(measured, 10_000, "road ends measured by series")
        XCTAssertLessThan(declined * 100, measured, "more than 1 % declined (long or empty segments)")
        XCTAssertLessThan(largestBound, 0.01, "a bound of whole hundredths of a degree would send most junctions to libm")
    }

    /// What the step rules and the answer take from a value: its whole-degree rounding, and which
    /// side of every whole degree (and of zero) it and its magnitude lie on.
    func decisions(_ v: Double) -> [Double] {
        [v.rounded(), v.rounded(.down), v.rounded(.up), abs(v).rounded(.down), abs(v).rounded(.up)]
    }

    func testJunctionBearingsDecideAsLibmAtEveryJunction() throws {
        let data = try data()
        let steps = StepBuilder(data: data)
        var junctions = 0, bySeries = 0
        for node in 0..<data.nodeCount {
            let leaving = ends(data, node)
            guard leaving.count >= 2 else { continue }
            // Arriving along each road end (the edge driven the other way), leaving by each other.
            for arriving in leaving {
                let a = piece(arriving.edge, 1 - arriving.direction)
                guard data.endNode(a.edge, a.direction) == node else { continue }
                for out in leaving where !(out.edge == arriving.edge && out.direction == arriving.direction) {
                    let b = piece(out.edge, out.direction)
                    let at = data.junctionLatitude(arriving: a.edge, a.direction)
                    var fast = [Double](repeating: -1, count: leaving.count), exact = fast
                    let f = fast.withUnsafeMutableBufferPointer { steps.junctionBearings(from: a, to: b, node: node, ends: $0) }
                    let x = exact.withUnsafeMutableBufferPointer { steps.libmBearings(from: a, to: b, node: node, at: at, ends: $0) }
                    if fast.withUnsafeMutableBufferPointer({ steps.seriesBearings(from: a, to: b, node: node, at: at, ends: $0) }) != nil {
                        bySeries += 1
                    }
                    junctions += 1
                    XCTAssertEqual(decisions(f.arriving), decisions(x.arriving), "node \(node): arriving \(f.arriving) vs \(x.arriving)")
                    XCTAssertEqual(decisions(f.leaving), decisions(x.leaving), "node \(node): leaving \(f.leaving) vs \(x.leaving)")
                    for k in fast.indices {
                        XCTAssertEqual(decisions(fast[k]), decisions(exact[k]), "node \(node) end \(k): \(fast[k]) vs \(exact[k])")
                        XCTAssertEqual(decisions(turnAngle(arriving: f.arriving, leaving: fast[k])),
                                       decisions(turnAngle(arriving: x.arriving, leaving: exact[k])), "node \(node) end \(k): turn angle")
                    }
                }
            }
        }
        XCTAssertGreaterThan(junctions, 20_000, "junction turns compared")
        XCTAssertGreaterThan(bySeries * 100, junctions * 95, "series measured fewer than 95 % of the junctions")
    }

    func testNearHalfDegreeFlagsValuesWithinTheBound() {
        XCTAssertTrue(SeriesBearing.nearHalfDegree(12.5 + 1e-9, bound: 1e-8))
        XCTAssertTrue(SeriesBearing.nearHalfDegree(13 - 1e-9, bound: 1e-8))
        XCTAssertTrue(SeriesBearing.nearHalfDegree(-20, bound: 1e-8))
        XCTAssertFalse(SeriesBearing.nearHalfDegree(12.25, bound: 1e-8))
        XCTAssertFalse(SeriesBearing.nearHalfDegree(359.7, bound: 1e-3))
    }

    func testSegmentsThatAreLongOrWrapAreLeftToLibm() {
        let equator = JunctionLatitude(latE7: 0, trig: LatitudeTrig(degrees: 0))
        // Across the antimeridian: the E7 difference wraps, and the segment is not short.
        XCTAssertNil(SeriesBearing(from: (0, 1_799_999_999), to: (0, -1_799_999_999), junctionAtFrom: true, junction: equator))
        // A difference of exactly 2^31 wraps to Int32.min: declined, not a trap.
        XCTAssertNil(SeriesBearing(from: (0, -1_073_741_824), to: (0, 1_073_741_824), junctionAtFrom: true, junction: equator))
        // Longer than 0.05°, and no length at all.
        XCTAssertNil(SeriesBearing(from: (0, 0), to: (500_000, 0), junctionAtFrom: true, junction: equator))
        XCTAssertNil(SeriesBearing(from: (0, 0), to: (0, 0), junctionAtFrom: true, junction: equator))
        // Due east and due north, a metre or so.
        XCTAssertEqual(SeriesBearing(from: (0, 0), to: (0, 100), junctionAtFrom: true, junction: equator)?.degrees ?? -1, 90, accuracy: 1e-9)
        XCTAssertEqual(SeriesBearing(from: (0, 0), to: (100, 0), junctionAtFrom: true, junction: equator)?.degrees ?? -1, 0, accuracy: 1e-9)
    }

    func testTurnAngleWrapsAsBefore() {
        // Bearings in 0 ..< 360 take the path without a remainder; the wrap is unchanged.
        XCTAssertEqual(turnAngle(arriving: 350, leaving: 10), 20)
        XCTAssertEqual(turnAngle(arriving: 10, leaving: 350), -20)
        XCTAssertEqual(turnAngle(arriving: 0, leaving: 180), 180)
        XCTAssertEqual(turnAngle(arriving: 180, leaving: 0), 180)
        XCTAssertEqual(turnAngle(arriving: 0, leaving: 720.5), 0.5)
    }

    /// The planar quiet-junction test on a leg's points: over every turn between two road ends
    /// at every node of the sample, whenever it says the turn is surely below 54°, the bearings
    /// (libm) put it below the 55° at which a step is made; and it decides most of them. Cut
    /// ends' tiny segments, long segments and polar junctions are left to the bearings.
    func testPlanarTurnTestOnLegPointsIsSure() throws {
        let data = try data()
        let cosine = StepBuilder.surelyNoContinueCosine
        var sure = 0, turns = 0
        func degrees(_ p: E7Point) -> (lat: Double, lon: Double) { (Double(p.latE7) / 1e7, Double(p.lonE7) / 1e7) }
        for node in 0..<data.nodeCount {
            for arriving in ends(data, node) {
                for leaving in ends(data, node) where leaving.edge != arriving.edge {
                    // Arrive along `arriving` driven towards the node, leave along `leaving`.
                    let (a0, a1) = data.arrivingSegment(arriving.edge, 1 - arriving.direction)
                    let (b0, b1) = data.leavingSegment(leaving.edge, leaving.direction)
                    XCTAssertEqual(a1, b0)
                    let points = [degrees(a0), degrees(a1), degrees(b1)]
                    let leg = LegPoints(lat: points.map { $0.lat }, lon: points.map { $0.lon })
                    turns += 1
                    guard leg.turnSurelyBelow(cosine: cosine, at: 1) else { continue }
                    sure += 1
                    let angle = turnAngle(arriving: data.bearingArriving(arriving.edge, 1 - arriving.direction),
                                          leaving: data.bearingLeaving(leaving.edge, leaving.direction))
                    XCTAssertLessThan(abs(angle), StepBuilder.continueAngle, "node \(node): \(arriving) then \(leaving)")
                }
            }
        }
        XCTAssertGreaterThan(turns, 1_000)
        XCTAssertGreaterThan(sure, turns / 10, "\(sure) of \(turns) turns decided")
        // Straight on: sure; at the ends of the point list, or with a segment it cannot trust: unsure.
        let straight = LegPoints(lat: [47.0, 47.001, 47.002], lon: [9.5, 9.5, 9.5])
        XCTAssertTrue(straight.turnSurelyBelow(cosine: cosine, at: 1))
        XCTAssertFalse(straight.turnSurelyBelow(cosine: cosine, at: 0))
        XCTAssertFalse(straight.turnSurelyBelow(cosine: cosine, at: 2))
        XCTAssertFalse(straight.turnSurelyBelow(cosine: cosine, at: 3))
        XCTAssertFalse(LegPoints().turnSurelyBelow(cosine: cosine, at: 1))
        XCTAssertFalse(LegPoints(lat: [47.0, 47.000_000_5, 47.001], lon: [9.5, 9.5, 9.5]).turnSurelyBelow(cosine: cosine, at: 1))
        XCTAssertFalse(LegPoints(lat: [47.0, 47.1, 47.2], lon: [9.5, 9.5, 9.5]).turnSurelyBelow(cosine: cosine, at: 1))
        XCTAssertFalse(LegPoints(lat: [80.0, 80.001, 80.002], lon: [9.5, 9.5, 9.5]).turnSurelyBelow(cosine: cosine, at: 1))
        // A right angle: not below.
        XCTAssertFalse(LegPoints(lat: [47.0, 47.001, 47.001], lon: [9.5, 9.5, 9.501]).turnSurelyBelow(cosine: cosine, at: 1))
    }
}
