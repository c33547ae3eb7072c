import Foundation
import RouteQuery
import RoutingGraph
import RoutingTiles
import TileMath
import XCTest
import TestSupport

/// Snapping on the real sample graph, checked against a brute-force scan of every segment.
final class SnappingTests: XCTestCase {
    /// Every segment of every drivable edge that routes may start on, flattened, for the oracle.
    struct Segment {
        var edge: Int, index: Int, a: GeoPoint, b: GeoPoint, component: UInt32
    }

    struct Sample {
        var file: GraphFile
        var snapper: Snapper
        var segments: [Segment]
        var ranks: UnsafeBufferPointer<UInt32>
        var bbox: (minLon: Double, minLat: Double, maxLon: Double, maxLat: Double)
    }

    static var cached: Sample?

    func sample() throws -> Sample {
        if let s = Self.cached { return s }
        let file = try SampleGraphFixture.graphFile()
        let edges = file.edges
        let shapes = EdgeShapes(file)
        func point(_ e: Int, _ k: Int) -> GeoPoint {
            let p = shapes.point(e, k)
            return GeoPoint(lon: Double(p.lonE7) * 1e-7, lat: Double(p.latE7) * 1e-7)
        }
        let ranks = file.edgeDirectionRank
        let component = file.rankComponents
        var segments: [Segment] = []
        for e in 0..<file.scalar(.edgeCount) {
            let usable = [ranks[2 * e], ranks[2 * e + 1]].filter { $0 != UInt32.max }
            // Routes neither start nor end on ferries and private service roads: not snapped to.
            guard !usable.isEmpty, edges[e].flags & EdgeFlags.notStartpoint == 0 else { continue }
            let c = UInt32(usable.map { component[Int($0)] }.min()!)
            for i in 0..<(shapes.count(e) - 1) {
                segments.append(Segment(edge: e, index: i, a: point(e, i), b: point(e, i + 1), component: c))
            }
        }
        let lons = segments.map(\.a.lon), lats = segments.map(\.a.lat)
        let s = Sample(file: file, snapper: try Snapper(file: file), segments: segments, ranks: ranks,
                       bbox: (lons.min()!, lats.min()!, lons.max()!, lats.max()!))
        Self.cached = s
        return s
    }

    /// Brute force: the nearest segment point (closest point in the local projection, distance
    /// by haversine) among the segments `include` accepts.
    func oracle(_ s: Sample, _ p: GeoPoint, mainOnly: Bool = false,
                include: (Segment) -> Bool = { _ in true }) -> (distance: Double, segment: Segment, t: Double)? {
        let perLat = earthMeanRadiusMeters * Double.pi / 180, perLon = perLat * cos(p.lat * Double.pi / 180)
        var best: (distance: Double, segment: Segment, t: Double)?
        for seg in s.segments where (!mainOnly || seg.component == 0) && include(seg) {
            let ax = (seg.a.lon - p.lon) * perLon, ay = (seg.a.lat - p.lat) * perLat
            let dx = (seg.b.lon - seg.a.lon) * perLon, dy = (seg.b.lat - seg.a.lat) * perLat
            let l2 = dx * dx + dy * dy
            let t = l2 > 0 ? min(1, max(0, -(ax * dx + ay * dy) / l2)) : 0
            let q = GeoPoint(lon: seg.a.lon + t * (seg.b.lon - seg.a.lon), lat: seg.a.lat + t * (seg.b.lat - seg.a.lat))
            let d = haversineMeters(p, q)
            if best == nil || d < best!.distance { best = (d, seg, t) }
        }
        return best
    }

    /// The longest segments (up to 300 looked at) whose midpoint has no other edge within
    /// `clearance` metres.
    func longIsolatedSegments(_ s: Sample, minimumMeters: Double, clearance: Double,
                              where accept: (Segment) -> Bool = { _ in true }) -> [Segment] {
        let long = s.segments.filter { haversineMeters($0.a, $0.b) >= minimumMeters && accept($0) }
            .sorted { haversineMeters($0.a, $0.b) > haversineMeters($1.a, $1.b) }.prefix(300)
        return long.filter { seg in
            let mid = GeoPoint(lon: (seg.a.lon + seg.b.lon) / 2, lat: (seg.a.lat + seg.b.lat) / 2)
            return (oracle(s, mid) { $0.edge != seg.edge }?.distance ?? .infinity) >= clearance
        }
    }

    func testPointOnAShapePointSnapsWithZeroDistance() throws {
        let s = try sample()
        // On the main network: a point on an isolated road may go to the main network nearby.
        let main = s.segments.filter { $0.component == 0 }
        for seg in main.enumerated().filter({ $0.offset % 997 == 0 }).map(\.element) {
            let c = try XCTUnwrap(s.snapper.snap(lon: seg.a.lon, lat: seg.a.lat))
            XCTAssertLessThan(c.distanceMeters, 0.01)
            XCTAssertLessThanOrEqual(c.offsetCm, c.edgeLengthCm)
        }
    }

    func testMidpointOfALongSegmentSnapsMidSegmentNotToANode() throws {
        let s = try sample()
        let segments = longIsolatedSegments(s, minimumMeters: 200, clearance: 60)
        XCTAssertGreaterThan(segments.count, 5)
        for seg in segments.prefix(10) {
            let mid = GeoPoint(lon: (seg.a.lon + seg.b.lon) / 2, lat: (seg.a.lat + seg.b.lat) / 2)
            let c = try XCTUnwrap(s.snapper.snap(lon: mid.lon, lat: mid.lat, preferMainComponent: false))
            XCTAssertEqual(c.edge, seg.edge)
            XCTAssertEqual(c.segment, seg.index)
            XCTAssertEqual(c.fraction, 0.5, accuracy: 0.01)
            XCTAssertLessThan(c.distanceMeters, 0.05)
            // The offset is the shape up to the segment plus half of it.
            let before = s.segments.filter { $0.edge == seg.edge && $0.index < seg.index }.map { haversineMeters($0.a, $0.b) }.reduce(0, +)
            let expected = min(c.edgeLengthCm, (before + haversineMeters(seg.a, seg.b) / 2) * 100)
            XCTAssertEqual(c.offsetCm, expected, accuracy: 2)
            XCTAssertEqual(c.bearingDegrees, initialBearingDegrees(from: seg.a, to: seg.b), accuracy: 1e-9)
        }
    }

    func testPointThirtyMetresOffARoadSnapsPerpendicularly() throws {
        let s = try sample()
        var checked = 0
        for seg in longIsolatedSegments(s, minimumMeters: 200, clearance: 80).prefix(10) {
            let mid = GeoPoint(lon: (seg.a.lon + seg.b.lon) / 2, lat: (seg.a.lat + seg.b.lat) / 2)
            let local = TestLocalMetres(origin: mid)
            let b = local.offset(of: seg.b)
            let length = hypot(b.east, b.north)
            let off = local.point(east: -b.north / length * 30, north: b.east / length * 30)
            let c = try XCTUnwrap(s.snapper.snap(lon: off.lon, lat: off.lat))
            XCTAssertEqual(c.edge, seg.edge)
            XCTAssertEqual(c.distanceMeters, 30, accuracy: 1)
            XCTAssertEqual(c.fraction, 0.5, accuracy: 0.02)
            XCTAssertLessThan(haversineMeters(GeoPoint(lon: c.lon, lat: c.lat), mid), 1)
            // A radius short of the road finds nothing; one past it finds the road.
            XCTAssertNil(s.snapper.snap(lon: off.lon, lat: off.lat, radiusMeters: 25))
            XCTAssertEqual(s.snapper.snap(lon: off.lon, lat: off.lat, radiusMeters: 35)?.edge, seg.edge)
            checked += 1
        }
        XCTAssertGreaterThan(checked, 3)
    }

    func testBearingPicksTheDirectionOfATwoWayRoad() throws {
        let s = try sample()
        let twoWay = longIsolatedSegments(s, minimumMeters: 150, clearance: 40) {
            s.ranks[2 * $0.edge] != UInt32.max && s.ranks[2 * $0.edge + 1] != UInt32.max
        }
        XCTAssertGreaterThan(twoWay.count, 3)
        for seg in twoWay.prefix(5) {
            let mid = GeoPoint(lon: (seg.a.lon + seg.b.lon) / 2, lat: (seg.a.lat + seg.b.lat) / 2)
            let along = initialBearingDegrees(from: seg.a, to: seg.b)
            let forward = try XCTUnwrap(s.snapper.snap(lon: mid.lon, lat: mid.lat, bearing: (along + 10, 30)))
            XCTAssertEqual(forward.edge, seg.edge)
            XCTAssertEqual(forward.forwardRank, s.ranks[2 * seg.edge])
            XCTAssertEqual(forward.backwardRank, UInt32.max)
            let backward = try XCTUnwrap(s.snapper.snap(lon: mid.lon, lat: mid.lat, bearing: ((along + 170).truncatingRemainder(dividingBy: 360), 30)))
            XCTAssertEqual(backward.edge, seg.edge)
            XCTAssertEqual(backward.forwardRank, UInt32.max)
            XCTAssertEqual(backward.backwardRank, s.ranks[2 * seg.edge + 1])
            // Across the road: neither direction, so not this road.
            XCTAssertNotEqual(s.snapper.snap(lon: mid.lon, lat: mid.lat, radiusMeters: 20, bearing: (along + 90, 20))?.edge, seg.edge)
            // No filter: both.
            let both = try XCTUnwrap(s.snapper.snap(lon: mid.lon, lat: mid.lat))
            XCTAssertTrue(both.isForwardUsable && both.isBackwardUsable)
        }
    }

    func testBearingRejectsAOneWayRoadDrivenTheWrongWay() throws {
        let s = try sample()
        let oneWay = longIsolatedSegments(s, minimumMeters: 60, clearance: 25) {
            (s.ranks[2 * $0.edge] == UInt32.max) != (s.ranks[2 * $0.edge + 1] == UInt32.max)
        }
        XCTAssertGreaterThan(oneWay.count, 0)
        for seg in oneWay.prefix(5) {
            let mid = GeoPoint(lon: (seg.a.lon + seg.b.lon) / 2, lat: (seg.a.lat + seg.b.lat) / 2)
            let alongShape = initialBearingDegrees(from: seg.a, to: seg.b)
            let legal = s.ranks[2 * seg.edge] != UInt32.max ? alongShape : (alongShape + 180).truncatingRemainder(dividingBy: 360)
            let right = try XCTUnwrap(s.snapper.snap(lon: mid.lon, lat: mid.lat, radiusMeters: 20, bearing: (legal, 20)))
            XCTAssertEqual(right.edge, seg.edge)
            let wrong = s.snapper.snap(lon: mid.lon, lat: mid.lat, radiusMeters: 20, bearing: ((legal + 180).truncatingRemainder(dividingBy: 360), 20))
            XCTAssertNotEqual(wrong?.edge, seg.edge)
            // Without a bearing the one-way road is found, usable its own way only.
            let plain = try XCTUnwrap(s.snapper.snap(lon: mid.lon, lat: mid.lat))
            XCTAssertEqual(plain.edge, seg.edge)
            XCTAssertNotEqual(plain.isForwardUsable, plain.isBackwardUsable)
        }
    }

    func testPointOutsideTheDataIsNotSnappedUnderTheCap() throws {
        let s = try sample()
        XCTAssertNil(s.snapper.snap(lon: 9.3, lat: 47.6))
        XCTAssertNil(s.snapper.snap(lon: 9.3, lat: 47.6, radiusMeters: 1000))
        // With a radius that reaches the data, the nearest road is found from outside the grid.
        let far = try XCTUnwrap(s.snapper.snap(lon: 9.3, lat: 47.6, radiusMeters: 100_000, preferMainComponent: false))
        XCTAssertEqual(far.distanceMeters, try XCTUnwrap(oracle(s, GeoPoint(lon: 9.3, lat: 47.6))).distance, accuracy: 0.01)
        var random = FixtureRandom(seed: 21)
        for _ in 0..<10 {
            let p = GeoPoint(lon: random.uniform(8.8, 10.3), lat: random.uniform(46.6, 47.7))
            let expected = try XCTUnwrap(oracle(s, p)).distance
            XCTAssertEqual(try XCTUnwrap(s.snapper.snap(lon: p.lon, lat: p.lat, radiusMeters: 100_000, preferMainComponent: false)).distanceMeters,
                           expected, accuracy: 0.01, "\(p)")
            // An unlimited radius reaches the main network from anywhere.
            let unlimited = try XCTUnwrap(s.snapper.snap(lon: p.lon, lat: p.lat, radiusMeters: .infinity))
            XCTAssertEqual(unlimited.distanceMeters, try XCTUnwrap(oracle(s, p, mainOnly: true)).distance, accuracy: 0.01, "\(p)")
        }
        XCTAssertNil(s.snapper.snap(lon: 200, lat: 47))
        XCTAssertNil(s.snapper.snap(lon: .nan, lat: 47))
    }

    func testSnappingAgreesWithABruteForceScan() throws {
        let s = try sample()
        var random = FixtureRandom(seed: 11)
        var compared = 0
        for _ in 0..<300 {
            // The bbox, widened by about 2 km so some points fall outside the grid.
            let p = GeoPoint(lon: random.uniform(s.bbox.minLon - 0.03, s.bbox.maxLon + 0.03),
                             lat: random.uniform(s.bbox.minLat - 0.02, s.bbox.maxLat + 0.02))
            let expected = try XCTUnwrap(oracle(s, p))
            let got = s.snapper.snap(lon: p.lon, lat: p.lat, preferMainComponent: false)
            if expected.distance > Snapper.defaultSearchCapMeters {
                XCTAssertNil(got)
                continue
            }
            let c = try XCTUnwrap(got, "\(p)")
            XCTAssertEqual(c.distanceMeters, expected.distance, accuracy: 0.01, "\(p)")
            XCTAssertEqual(haversineMeters(p, GeoPoint(lon: c.lon, lat: c.lat)), c.distanceMeters, accuracy: 1e-6)
            compared += 1
            // The main-network answer is the nearest main road whenever the rule allows it.
            let main = try XCTUnwrap(oracle(s, p, mainOnly: true))
            let preferred = try XCTUnwrap(s.snapper.snap(lon: p.lon, lat: p.lat))
            let reach = Snapper.mainComponentReach(nearestMeters: expected.distance, radiusMeters: nil, limit: Snapper.defaultSearchCapMeters)
            if expected.segment.component == 0 || main.distance <= reach - 0.01 {
                XCTAssertEqual(preferred.component, 0, "\(p)")
                XCTAssertEqual(preferred.distanceMeters, main.distance, accuracy: 0.01, "\(p)")
            }
            // candidates(): nearest first, one per edge, the first being the nearest.
            let list = s.snapper.candidates(lon: p.lon, lat: p.lat, limit: 4)
            XCTAssertEqual(list.first?.distanceMeters ?? -1, c.distanceMeters, accuracy: 1e-9)
            XCTAssertEqual(list.map(\.distanceMeters), list.map(\.distanceMeters).sorted())
            XCTAssertEqual(Set(list.map(\.edge)).count, list.count)
        }
        XCTAssertGreaterThan(compared, 200)
    }

    func testAnIsolatedRoadGivesWayToTheMainNetworkNearby() throws {
        let s = try sample()
        // Points on roads of small components, with the main network within the rule's reach.
        var tried = 0
        for seg in s.segments where seg.component != 0 {
            let p = GeoPoint(lon: (seg.a.lon + seg.b.lon) / 2, lat: (seg.a.lat + seg.b.lat) / 2)
            guard let pair = s.snapper.nearestAndMain(lon: p.lon, lat: p.lat), pair.nearest.component != 0 else { continue }
            let main = try XCTUnwrap(oracle(s, p, mainOnly: true))
            let reach = Snapper.mainComponentReach(nearestMeters: pair.nearest.distanceMeters, radiusMeters: nil, limit: 5000)
            let snapped = try XCTUnwrap(s.snapper.snap(lon: p.lon, lat: p.lat))
            if main.distance <= reach {
                XCTAssertEqual(try XCTUnwrap(pair.main).distanceMeters, main.distance, accuracy: 0.01)
                XCTAssertEqual(snapped.component, 0)
                XCTAssertEqual(snapped, pair.main)
            } else {
                XCTAssertNil(pair.main)
                XCTAssertEqual(snapped, pair.nearest)
            }
            XCTAssertEqual(s.snapper.snap(lon: p.lon, lat: p.lat, preferMainComponent: false), pair.nearest)
            // A coarse location (a radius of kilometres) takes the nearest main road.
            let coarse = try XCTUnwrap(s.snapper.snap(lon: p.lon, lat: p.lat, radiusMeters: 3000))
            XCTAssertEqual(coarse.component, 0)
            XCTAssertEqual(coarse.distanceMeters, main.distance, accuracy: 0.01)
            // A tight radius keeps the isolated road rather than reaching past it.
            if main.distance > 5 {
                XCTAssertEqual(s.snapper.snap(lon: p.lon, lat: p.lat, radiusMeters: min(main.distance - 1, 50))?.component, pair.nearest.component)
            }
            tried += 1
            if tried == 20 { break }
        }
        XCTAssertGreaterThan(tried, 5)
    }

    func testSnappingLatency() throws {
        let s = try sample()
        var random = FixtureRandom(seed: 5)
        let points = (0..<10_000).map { _ in
            GeoPoint(lon: random.uniform(s.bbox.minLon, s.bbox.maxLon), lat: random.uniform(s.bbox.minLat, s.bbox.maxLat))
        }
        /// Per-snap times in µs (sorted) and the points that found nothing.
        func measure(_ snap: (GeoPoint) -> SnapCandidate?) -> (micros: [Double], missed: [GeoPoint]) {
            for p in points.prefix(100) { _ = snap(p) }
            var micros: [Double] = [], missed: [GeoPoint] = []
            micros.reserveCapacity(points.count)
            for p in points {
                let t0 = DispatchTime.now().uptimeNanoseconds
                let found = snap(p)
                micros.append(Double(DispatchTime.now().uptimeNanoseconds - t0) / 1000)
                if found == nil { missed.append(p) }
            }
            return (micros.sorted(), missed)
        }
        func report(_ name: String, _ micros: [Double]) {
            print(String(format: "snap %@: %d points, median %.1f µs, p99 %.1f µs, max %.1f µs", name, micros.count,
                         micros[micros.count / 2], micros[micros.count * 99 / 100], micros.last!))
        }
        let plain = measure { s.snapper.snap(lon: $0.lon, lat: $0.lat) }
        report("default", plain.micros)
        report("bearing 90±45", measure { s.snapper.snap(lon: $0.lon, lat: $0.lat, bearing: (90, 45)) }.micros)
        report("unlimited radius", measure { s.snapper.snap(lon: $0.lon, lat: $0.lat, radiusMeters: .infinity) }.micros)
        // The bbox's corners reach beyond the extract: only points over 5 km from any road miss.
        XCTAssertLessThan(plain.missed.count, points.count / 50)
        for p in plain.missed { XCTAssertGreaterThan(try XCTUnwrap(oracle(s, p)).distance, Snapper.defaultSearchCapMeters) }
        XCTAssertLessThan(plain.micros[points.count / 2], 5_000)
    }
}
