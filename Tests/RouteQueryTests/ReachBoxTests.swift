import Foundation
@testable import RouteQuery
import TileMath
import XCTest
import TestSupport

/// The box snapping skips segments by must never exclude a point within its distance: that
/// would change which road a point snaps to.
final class ReachBoxTests: XCTestCase {
    /// The point `meters` from `p` along the great circle of initial `bearing` (degrees).
    private func destination(_ p: GeoPoint, meters: Double, bearing: Double) -> GeoPoint {
        let delta = meters / earthMeanRadiusMeters, theta = bearing * .pi / 180
        let phi1 = p.lat * .pi / 180, lambda1 = p.lon * .pi / 180
        let phi2 = asin(sin(phi1) * cos(delta) + cos(phi1) * sin(delta) * cos(theta))
        let lambda2 = lambda1 + atan2(sin(theta) * sin(delta) * cos(phi1), cos(delta) - sin(phi1) * sin(phi2))
        var lon = lambda2 * 180 / .pi
        if lon > 180 { lon -= 360 }
        if lon < -180 { lon += 360 }
        return GeoPoint(lon: lon, lat: phi2 * 180 / .pi)
    }

    private func e7(_ x: Double) -> Int32 { Int32((x * 1e7).rounded()) }

    func testNoPointWithinTheDistanceIsExcluded() throws {
        var random = SplitMix64(seed: 5)
        var checked = 0
        for _ in 0..<4000 {
            // Mid latitudes, the far north and south, and points next to the antimeridian.
            let lat = [random.uniform(-60, 60), random.uniform(70, 89.5), random.uniform(-89.5, -70)][Int(random.next() % 3)]
            let lon = random.next() % 4 == 0 ? random.uniform(179.9, 180) : random.uniform(-180, 180)
            let q = try XCTUnwrap(SnapQuery(lon: lon, lat: lat, radiusMeters: nil, bearing: nil))
            let stop = [5.0, 60, 800, 5000][Int(random.next() % 4)]
            let scale = ReachScale(q, stop: stop)
            let within = stop * random.uniform(0.1, 1)
            let box = scale.box(within: within)
            for _ in 0..<8 {
                let p = destination(q.point, meters: within * random.uniform(0, 0.999_999), bearing: random.uniform(0, 360))
                guard haversineMeters(q.point, p) <= within else { continue }
                XCTAssertFalse(box.excludes(aLat: e7(p.lat), aLon: e7(p.lon), bLat: e7(p.lat), bLon: e7(p.lon)),
                               "\(p) is \(haversineMeters(q.point, p)) m from \(q.point), within \(within) m")
                checked += 1
            }
        }
        XCTAssertGreaterThan(checked, 30_000)
    }

    func testASegmentBeyondOneSideIsExcludedAndOneAcrossIsNot() throws {
        let q = try XCTUnwrap(SnapQuery(lon: 9.52, lat: 47.14, radiusMeters: nil, bearing: nil))
        let box = ReachScale(q, stop: 5000).box(within: 100)
        let north = destination(q.point, meters: 130, bearing: 0), east = destination(q.point, meters: 130, bearing: 90)
        let south = destination(q.point, meters: 130, bearing: 180), west = destination(q.point, meters: 130, bearing: 270)
        let farNorth = destination(q.point, meters: 500, bearing: 10), farEast = destination(q.point, meters: 500, bearing: 80)
        // Both ends north (or east) of the box: skipped.
        XCTAssertTrue(box.excludes(aLat: e7(north.lat), aLon: e7(north.lon), bLat: e7(farNorth.lat), bLon: e7(farNorth.lon)))
        XCTAssertTrue(box.excludes(aLat: e7(east.lat), aLon: e7(east.lon), bLat: e7(farEast.lat), bLon: e7(farEast.lon)))
        // From north to south, or west to east, it passes by the point: kept.
        XCTAssertFalse(box.excludes(aLat: e7(north.lat), aLon: e7(north.lon), bLat: e7(south.lat), bLon: e7(south.lon)))
        XCTAssertFalse(box.excludes(aLat: e7(west.lat), aLon: e7(west.lon), bLat: e7(east.lat), bLon: e7(east.lon)))
        // With no stop, longitude cannot be bounded near the poles: nothing east or west is skipped.
        let polar = try XCTUnwrap(SnapQuery(lon: 0, lat: 89.99, radiusMeters: nil, bearing: nil))
        let wide = ReachScale(polar, stop: .infinity).box(within: 50)
        XCTAssertFalse(wide.excludes(aLat: e7(89.99), aLon: e7(120), bLat: e7(89.99), bLon: e7(121)))
    }
}
