import Foundation
import TileMath
@testable import TileMath
import XCTest
import TestSupport

/// The tile cover against the brute-force oracle on random shapes at many latitudes, plus the
/// properties the pack planner relies on.
final class TileCoverTests: XCTestCase {
    /// Compares `TileCover` (both the subdivision and the one-tile test) with the oracle on every
    /// tile of the shape's box (one tile of margin) at `zoom`.
    func compare(_ region: Region, zoom: Int, oracle: (CoverOracle.Box) -> Bool?, label: String,
                 decided: inout Int, undecided: inout Int, file: StaticString = #filePath, line: UInt = #line) {
        let cover = TileCover(region)
        let listed = Set(cover.tiles(zoom: zoom))
        let b = region.bbox
        let n = 1 << zoom
        let x0 = max(0, WebMercator.column(containingLon: b.minLon, zoom: zoom) - 1)
        let x1 = min(n - 1, WebMercator.column(containingLon: b.maxLon, zoom: zoom) + 1)
        let y0 = max(0, WebMercator.row(containingLat: b.maxLat, zoom: zoom) - 1)
        let y1 = min(n - 1, WebMercator.row(containingLat: b.minLat, zoom: zoom) + 1)
        var inRange = 0
        for x in x0...x1 {
            for y in y0...y1 {
                let t = TileCoordinate(z: zoom, x: x, y: y)
                let mine = listed.contains(t)
                if mine { inRange += 1 }
                XCTAssertEqual(mine, cover.contains(t), "\(label): subdivision and one-tile test disagree on \(t)", file: file, line: line)
                guard let expected = oracle(CoverOracle.box(t)) else { undecided += 1; continue }
                decided += 1
                XCTAssertEqual(mine, expected, "\(label): tile \(t)", file: file, line: line)
            }
        }
        XCTAssertEqual(inRange, listed.count, "\(label): tiles listed outside the shape's box", file: file, line: line)
        XCTAssertGreaterThan(listed.count, 0, "\(label): empty cover", file: file, line: line)
        XCTAssertLessThan(listed.count, (x1 - x0 + 1) * (y1 - y0 + 1), "\(label): the margin tiles are not all in the cover", file: file, line: line)
        XCTAssertEqual(cover.count(zoom: zoom), listed.count, "\(label): count", file: file, line: line)
    }

    /// Zoom at which the box spans roughly `tiles` tiles across.
    func zoom(for b: BBox, tiles: Double, _ rng: inout SplitMix64) -> Int {
        let span = max(b.maxLon - b.minLon, (b.maxLat - b.minLat) * 1.5, 1e-6)
        let z = Int(log2(360 * tiles / span).rounded(.down))
        return min(22, max(0, z + rng.int(-1, 0)))
    }

    func star(_ rng: inout SplitMix64, lon: Double, lat: Double, radius: Double, minFraction: Double, maxFraction: Double) -> [GeoPoint] {
        let n = rng.int(3, 24)
        let angles = (0..<n).map { _ in rng.double(0, 2 * Double.pi) }.sorted()
        var ring = angles.map { a -> GeoPoint in
            let r = radius * rng.double(minFraction, maxFraction)
            return GeoPoint(lon: max(-180, min(180, lon + r * cos(a) / max(0.2, cos(lat * Double.pi / 180)))), lat: max(-89, min(89, lat + r * sin(a))))
        }
        ring.append(ring[0])
        return ring
    }

    func testPolygonsWithHolesMatchTheOracle() throws {
        var rng = SplitMix64(seed: 1)
        var decided = 0, undecided = 0
        for i in 0..<60 {
            let lat = rng.double(-80, 80), lon = rng.double(-170, 170)
            let radius = [0.002, 0.05, 0.7, 6, 25][i % 5] * rng.double(0.5, 1.5)
            let outer = star(&rng, lon: lon, lat: lat, radius: radius, minFraction: 0.4, maxFraction: 1)
            var rings = [outer]
            if i % 2 == 0 { rings.append(star(&rng, lon: lon, lat: lat, radius: radius * 0.35, minFraction: 0.3, maxFraction: 1)) }
            let polygon = try GeoPolygon(rings: rings)
            var parts = [Region.Part(geometryType: "Polygon", shapes: [.polygon(polygon)])]
            if i % 7 == 3 { // a second, separate polygon: the union
                let other = try GeoPolygon(rings: [star(&rng, lon: lon + 3 * radius, lat: lat, radius: radius / 2, minFraction: 0.5, maxFraction: 1)])
                parts.append(.init(geometryType: "Polygon", shapes: [.polygon(other)]))
            }
            let region = try Region(parts: parts)
            let flat = region.shapes.map { s -> [[(Double, Double)]] in
                guard case .polygon(let p) = s else { return [] }
                return p.rings.map { $0.map { ($0.lon, $0.lat) } }
            }
            let z = zoom(for: region.bbox, tiles: 24, &rng)
            compare(region, zoom: z, oracle: { q in flat.contains { CoverOracle.polygon($0, meets: q) } },
                    label: "polygon \(i) z\(z)", decided: &decided, undecided: &undecided)
        }
        XCTAssertGreaterThan(decided, 10_000)
        XCTAssertEqual(undecided, 0)
    }

    func testCirclesMatchTheOracle() throws {
        var rng = SplitMix64(seed: 2)
        var decided = 0, undecided = 0
        for i in 0..<50 {
            let lat = rng.double(-80, 80), lon = rng.double(-140, 140)
            let radius = [30.0, 800, 2_000, 15_000, 300_000][i % 5] * rng.double(0.7, 1.3)
            let region = try Region.around(GeoPoint(lon: lon, lat: lat), radiusMeters: radius)
            let z = zoom(for: region.bbox, tiles: 14, &rng)
            compare(region, zoom: z, oracle: { CoverOracle.circle(lon: lon, lat: lat, radius: radius, meets: $0) },
                    label: "circle \(i) z\(z)", decided: &decided, undecided: &undecided)
        }
        XCTAssertGreaterThan(decided, 3_000)
        XCTAssertLessThan(undecided, decided / 1000 + 1)
    }

    func testCorridorsMatchTheOracle() throws {
        var rng = SplitMix64(seed: 3)
        var decided = 0, undecided = 0
        for i in 0..<30 {
            let lat = rng.double(-78, 78), lon = rng.double(-170, 170)
            let scale = [0.01, 0.1, 1, 4][i % 4]
            var line = [GeoPoint(lon: lon, lat: lat)]
            for _ in 0..<rng.int(1, 4) {
                let last = line.last!
                line.append(GeoPoint(lon: max(-179, min(179, last.lon + rng.double(-scale, scale) * 2)),
                                     lat: max(-80, min(80, last.lat + rng.double(-scale, scale)))))
            }
            let buffer = scale * [500.0, 3_000, 20_000][i % 3] * rng.double(0.5, 1.5)
            let region = try Region(parts: [.init(geometryType: "LineString", shapes: [.corridor(line: line, bufferMeters: buffer)])])
            let z = zoom(for: region.bbox, tiles: 16, &rng)
            compare(region, zoom: z, oracle: { CoverOracle.corridor(line, buffer: buffer, meets: $0) },
                    label: "corridor \(i) z\(z)", decided: &decided, undecided: &undecided)
        }
        XCTAssertGreaterThan(decided, 2_000)
        XCTAssertLessThan(undecided, decided / 1000 + 1)
    }

    /// A tile-aligned box selects exactly the tiles inside it (touching does not count).
    func testTileAlignedBoxSelectsExactlyItsTiles() throws {
        let b = WebMercator.bounds(zoom: 10, x: 539, y: 359).union(WebMercator.bounds(zoom: 10, x: 540, y: 360))
        let cover = TileCover(try Region.bbox(b))
        XCTAssertEqual(cover.tiles(zoom: 10), [TileCoordinate(z: 10, x: 539, y: 359), TileCoordinate(z: 10, x: 539, y: 360),
                                              TileCoordinate(z: 10, x: 540, y: 359), TileCoordinate(z: 10, x: 540, y: 360)])
        XCTAssertEqual(cover.count(zoom: 12), 64)
        XCTAssertEqual(cover.tiles(zoom: 9), [TileCoordinate(z: 9, x: 269, y: 179), TileCoordinate(z: 9, x: 269, y: 180),
                                             TileCoordinate(z: 9, x: 270, y: 179), TileCoordinate(z: 9, x: 270, y: 180)])
    }

    /// Parents of the cover at a deeper zoom are exactly the ancestors of those tiles, and the
    /// cover is monotone (every tile's parent is in the cover one zoom up).
    func testAncestorsAndMonotonicity() throws {
        let text = try String(contentsOfFile: repoPath("samples/regions/vaduz-balzers-corridor.geojson"), encoding: .utf8)
        for region in [try Region.parse(geoJSON: text),
                       try Region.parse(geoJSON: try String(contentsOfFile: repoPath("samples/regions/liechtenstein-oberland.geojson"), encoding: .utf8)),
                       try Region.around(GeoPoint(lon: -70, lat: 60), radiusMeters: 90_000)] {
            let cover = TileCover(region)
            let levels = cover.tiles(zooms: 4...15)
            for z in 5...15 {
                let parents = Set(levels[z - 4].map { $0.ancestor(atZoom: z - 1) })
                XCTAssertTrue(parents.isSubset(of: Set(levels[z - 5])), "zoom \(z)")
            }
            for (a, m) in [(6, 8), (11, 13), (11, 11), (0, 15)] {
                let expected = Set(levels[m - 4].map { $0.ancestor(atZoom: a) }).sorted()
                XCTAssertEqual(cover.ancestors(atZoom: a, ofCoverAt: m), expected, "\(a) of \(m)")
                XCTAssertEqual(cover.countAncestors(atZoom: a, ofCoverAt: m), expected.count)
            }
        }
    }

    func testWholeWorldCountsWithoutListing() throws {
        let world = try Region.bbox(BBox(minLon: -180, minLat: -85.06, maxLon: 180, maxLat: 85.06))
        let cover = TileCover(world)
        XCTAssertEqual(cover.count(zoom: 0), 1)
        XCTAssertEqual(cover.count(zoom: 15), 1 << 30)
        XCTAssertEqual(cover.count(zoom: 28), 1 << 56)
    }

    /// The contiguous US at zoom 0-12: about 190,000 tiles; < 0.1 s is the release-build goal
    /// (bench/tilepack-maps measures it); debug builds get 20× the time.
    func testContiguousUSCoverIsFast() throws {
        let text = try String(contentsOfFile: repoPath("bench/contiguous-us.geojson"), encoding: .utf8)
        let cover = TileCover(try Region.parse(geoJSON: text))
        let t0 = Date()
        let levels = cover.tiles(zooms: 0...12)
        let seconds = Date().timeIntervalSince(t0)
        let total = levels.reduce(0) { $0 + $1.count }
        XCTAssertEqual(total, 193_666)
        XCTAssertEqual(levels[0], [TileCoordinate(z: 0, x: 0, y: 0)])
        // Timing is asserted only on request (OFFGRID_PERF=1, release build): shared machines are noisy.
        if PerfGate.enabled { XCTAssertLessThan(seconds, 0.1) }
        // Every listed tile really meets the polygon (spot check against the one-tile test).
        for level in levels { for t in level.prefix(200) { XCTAssertTrue(cover.contains(t)) } }
    }

    func testWebMercatorEdges() {
        // mercantile.bounds(539, 359, 10) = (9.4921875, 47.04018214480665, 9.84375, 47.27922900257082)
        let b = WebMercator.bounds(zoom: 10, x: 539, y: 359)
        XCTAssertEqual(b.minLon, 9.4921875)
        XCTAssertEqual(b.maxLon, 9.84375)
        XCTAssertEqual(b.minLat, 47.04018214480665, accuracy: 1e-12)
        XCTAssertEqual(b.maxLat, 47.27922900257082, accuracy: 1e-12)
        XCTAssertEqual(WebMercator.latEdge(0, zoom: 3), WebMercator.maxLatitude)
        XCTAssertEqual(WebMercator.latEdge(4, zoom: 3), 0)
        // Shared edges are the same double at every zoom.
        for z in 0..<20 { for y in [0, 1, 3, (1 << z) / 3] where y <= (1 << z) {
            XCTAssertEqual(WebMercator.latEdge(y, zoom: z), WebMercator.latEdge(2 * y, zoom: z + 1))
        } }
        XCTAssertEqual(WebMercator.column(containingLon: 9.52, zoom: 10), 539)
        XCTAssertEqual(WebMercator.row(containingLat: 47.14, zoom: 10), 359)
    }
}

/// A file of the repository (samples).
private func repoPath(_ relative: String) -> String { TestTools.repositoryRoot.appendingPathComponent(relative).path }
