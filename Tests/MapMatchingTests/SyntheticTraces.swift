import Foundation
import LocationTraces
import MapMatching
import RouteQuery
import TestSupport
import TileMath

/// Traces driven along real routes of the sample, with seeded noise: the ground truth the
/// matcher's accuracy is measured against (bench/match does the same in Python).
struct SyntheticTrace {
    var fixes: [LocationFix]
    /// The true route's points, [lon, lat].
    var truth: [GeoPoint]
    var truthMeters: Double
}

enum SyntheticTraces {
    /// Random routes between points of the sample's settled middle, each driven at its own
    /// average speed, a fix every `interval` seconds with Gaussian noise `sigma`; `dropout`
    /// removes that share of fixes, `outliers` moves that share 200–400 m off.
    static func make(service: RouteService, count: Int, seed: UInt64, sigma: Double, interval: Double,
                     dropout: Double = 0, outliers: Double = 0, minMeters: Double = 2_000) -> [SyntheticTrace] {
        var random = SplitMix64(seed: seed)
        func uniform() -> Double { Double(random.next() >> 11) / Double(1 << 53) }
        func gaussian() -> Double { (-2 * log(max(1e-300, uniform()))).squareRoot() * cos(2 * .pi * uniform()) }
        var out: [SyntheticTrace] = []
        var attempts = 0
        while out.count < count && attempts < count * 20 {
            attempts += 1
            let a = (lon: 9.50 + 0.08 * uniform(), lat: 47.06 + 0.16 * uniform())
            let b = (lon: 9.50 + 0.08 * uniform(), lat: 47.06 + 0.16 * uniform())
            var request = RouteRequest(coordinates: [a, b])
            request.geometries = .geojson
            request.overview = .full
            guard let response = try? service.routes(request), let route = response.routes.first,
                  let points = route.geometry?.points, route.distance >= minMeters, route.duration > 0 else { continue }
            let truth = points.map { GeoPoint(lon: $0.lon, lat: $0.lat) }
            var along = [0.0]
            for i in 1..<truth.count { along.append(along[i - 1] + haversineMeters(truth[i - 1], truth[i])) }
            let speed = along.last! / route.duration
            var fixes: [LocationFix] = []
            var t = 0.0, k = 0
            while t * speed <= along.last! {
                let s = t * speed
                while k + 1 < along.count - 1 && along[k + 1] < s { k += 1 }
                let f = along[k + 1] > along[k] ? (s - along[k]) / (along[k + 1] - along[k]) : 0
                let p = GeoPoint(lon: truth[k].lon + f * (truth[k + 1].lon - truth[k].lon),
                                 lat: truth[k].lat + f * (truth[k + 1].lat - truth[k].lat))
                var east = sigma * gaussian(), north = sigma * gaussian()
                if uniform() < outliers {
                    let angle = 2 * .pi * uniform(), d = 200 + 200 * uniform()
                    east = d * cos(angle)
                    north = d * sin(angle)
                }
                let local = TestLocalMetres(origin: p)
                let noisy = local.point(east: east, north: north)
                if fixes.isEmpty || uniform() >= dropout {
                    fixes.append(LocationFix(time: 1_700_000_000 + t, lon: noisy.lon, lat: noisy.lat, accuracy: sigma))
                }
                t += interval
            }
            guard fixes.count >= 2 else { continue }
            out.append(SyntheticTrace(fixes: fixes, truth: truth, truthMeters: along.last!))
        }
        return out
    }

    /// Share of the true route's length lying within `tolerance` metres of the matched
    /// geometries (the true route sampled every 2 m).
    static func recoveredShare(truth: [GeoPoint], matched: [[GeoPoint]], tolerance: Double = 5) -> (recovered: Double, total: Double) {
        var recovered = 0.0, total = 0.0
        for i in 1..<truth.count {
            let a = truth[i - 1], b = truth[i]
            let length = haversineMeters(a, b)
            let n = max(1, Int((length / 2).rounded(.up)))
            for j in 0..<n {
                let f = (Double(j) + 0.5) / Double(n)
                let p = GeoPoint(lon: a.lon + f * (b.lon - a.lon), lat: a.lat + f * (b.lat - a.lat))
                total += length / Double(n)
                if matched.contains(where: { distance(p, to: $0) <= tolerance }) { recovered += length / Double(n) }
            }
        }
        return (recovered, total)
    }

    /// Metres from p to a polyline (in a local plane around p).
    static func distance(_ p: GeoPoint, to line: [GeoPoint]) -> Double {
        let local = TestLocalMetres(origin: p)
        var best = Double.infinity
        guard line.count >= 2 else { return line.first.map { haversineMeters(p, $0) } ?? .infinity }
        var (ax, ay) = local.offset(of: line[0])
        for q in line.dropFirst() {
            let (bx, by) = local.offset(of: q)
            let dx = bx - ax, dy = by - ay, l2 = dx * dx + dy * dy
            let t = l2 > 0 ? min(1, max(0, -(ax * dx + ay * dy) / l2)) : 0
            let x = ax + t * dx, y = ay + t * dy
            best = min(best, (x * x + y * y).squareRoot())
            (ax, ay) = (bx, by)
        }
        return best
    }
}

/// Metres east/north of a point.
struct TestLocalMetres {
    let origin: GeoPoint
    var metersPerDegreeLat: Double { earthMeanRadiusMeters * Double.pi / 180 }
    var metersPerDegreeLon: Double { metersPerDegreeLat * cos(origin.lat * Double.pi / 180) }

    func point(east: Double, north: Double) -> GeoPoint {
        GeoPoint(lon: origin.lon + east / metersPerDegreeLon, lat: origin.lat + north / metersPerDegreeLat)
    }
    func offset(of p: GeoPoint) -> (Double, Double) {
        ((p.lon - origin.lon) * metersPerDegreeLon, (p.lat - origin.lat) * metersPerDegreeLat)
    }
}
