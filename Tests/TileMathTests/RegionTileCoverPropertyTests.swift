import Foundation
import XCTest
@testable import TileMath
import TestSupport

/// Random polygons (concave, with holes, overlapping multi-polygons, at all latitudes, touching
/// the poles and the antimeridian) against independent oracles.
final class RegionTileCoverPropertyTests: XCTestCase {
    /// A star-shaped ring around a centre, vertices snapped to `snap` lattice units.
    private func starRing(_ rng: inout SplitMix64, cx: Double, cy: Double, radius: Double, inner: Double,
                          snap: Int64) -> [LatticeOracle.Point] {
        let n = rng.int(3, 14)
        let angles = (0..<n).map { _ in rng.double(0, 2 * Double.pi) }.sorted()
        let units = Double(LatticeOracle.unitsPerDegree)
        var ring: [LatticeOracle.Point] = angles.map { angle in
            let r = radius * rng.double(inner, 1)
            let lon = min(180, max(-180, cx + r * cos(angle)))
            let lat = min(90, max(-90, cy + r * sin(angle)))
            let x = Int64((lon * units / Double(snap)).rounded()) * snap
            let y = Int64((lat * units / Double(snap)).rounded()) * snap
            return (x, y)
        }
        if rng.chance(0.5) { ring.reverse() } // orientation must not matter
        ring.append(ring[0])
        return ring
    }

    private func region(_ polygons: LatticeOracle.Polygons) throws -> PolygonRegion {
        let units = Double(LatticeOracle.unitsPerDegree)
        let geo = try polygons.map { rings in
            try GeoPolygon(rings: rings.map { $0.map { GeoPoint(lon: Double($0.x) / units, lat: Double($0.y) / units) } })
        }
        return try PolygonRegion(geometries: geo.count == 1 ? [.polygon(geo[0])] : [.multiPolygon(geo)])
    }

    func testLatticePolygonsAgainstIntegerOracle() throws {
        var rng = SplitMix64(seed: 2024)
        var checkedCells = 0, selectedCells = 0
        for caseIndex in 0..<1500 {
            let degrees = [0.25, 0.25, 0.5, 1][caseIndex % 4]
            let grid = try RoutingGrid(degrees: degrees)
            let cellUnits = Int64(degrees * Double(LatticeOracle.unitsPerDegree))
            // Snapping to the grid's own spacing makes edges run along cell borders and
            // vertices sit on corners; finer snaps make thin slivers.
            let snap: Int64 = [1, 1, 2, 4, cellUnits / 2, cellUnits][rng.int(0, 5)]
            let cx = rng.chance(0.15) ? [-180.0, 180, 0][rng.int(0, 2)] : rng.double(-180, 180)
            let cy = rng.chance(0.15) ? [-90.0, 90][rng.int(0, 1)] : rng.double(-90, 90)
            let radius = rng.double(0.05, 3)
            var polygons: LatticeOracle.Polygons = []
            for _ in 0..<(rng.chance(0.3) ? 2 : 1) {
                let px = cx + rng.double(-radius, radius), py = cy + rng.double(-radius, radius)
                var rings = [starRing(&rng, cx: px, cy: py, radius: radius, inner: 0.3, snap: snap)]
                if rng.chance(0.5) {
                    rings.append(starRing(&rng, cx: px, cy: py, radius: radius * 0.28, inner: 0.2, snap: snap))
                }
                polygons.append(rings)
            }
            let r = try region(polygons)
            let tiles = grid.tiles(intersecting: r)
            XCTAssertEqual(tiles, tiles.sorted())
            // Oracle over the region's bbox plus a margin of two cells.
            var expected: [UInt32] = []
            let rowLo = max(0, grid.row(containingLat: r.bbox.minLat) - 2), rowHi = min(grid.rows - 1, grid.row(containingLat: r.bbox.maxLat) + 2)
            let colLo = max(0, grid.column(containingLon: r.bbox.minLon) - 2), colHi = min(grid.columns - 1, grid.column(containingLon: r.bbox.maxLon) + 2)
            for row in rowLo...rowHi {
                for col in colLo...colHi {
                    let x0 = Int64(col - grid.columns / 2) * cellUnits, y0 = Int64(row - grid.rows / 2) * cellUnits
                    checkedCells += 1
                    if LatticeOracle.regionMeetsOpenCell(polygons, x0: x0, y0: y0, x1: x0 + cellUnits, y1: y0 + cellUnits) {
                        expected.append(grid.tileId(row: row, column: col))
                    }
                }
            }
            selectedCells += expected.count
            XCTAssertEqual(tiles, expected, "case \(caseIndex): \(r.geoJSON) @\(degrees)°")
            if tiles != expected { break }
        }
        // The generator must actually produce both outcomes in quantity.
        XCTAssertGreaterThan(selectedCells, 10_000)
        XCTAssertGreaterThan(checkedCells - selectedCells, 10_000)
    }

    // MARK: Arbitrary (non-lattice) coordinates against clipped areas

    /// Area of ring ∩ box by Sutherland–Hodgman clipping and the shoelace formula.
    private func clippedArea(_ ring: [GeoPoint], _ box: BBox) -> Double {
        var poly = Array(ring.dropLast())
        let planes: [(GeoPoint) -> Double] = [
            { $0.lon - box.minLon }, { box.maxLon - $0.lon }, { $0.lat - box.minLat }, { box.maxLat - $0.lat },
        ]
        for plane in planes {
            guard !poly.isEmpty else { break }
            var out: [GeoPoint] = []
            for i in 0..<poly.count {
                let a = poly[i], b = poly[(i + 1) % poly.count]
                let da = plane(a), db = plane(b)
                if da >= 0 { out.append(a) }
                if (da >= 0) != (db >= 0) {
                    let t = da / (da - db)
                    out.append(GeoPoint(lon: a.lon + t * (b.lon - a.lon), lat: a.lat + t * (b.lat - a.lat)))
                }
            }
            poly = out
        }
        guard poly.count >= 3 else { return 0 }
        var twice = 0.0
        for i in 0..<poly.count {
            let a = poly[i], b = poly[(i + 1) % poly.count]
            twice += a.lon * b.lat - b.lon * a.lat
        }
        return abs(twice) / 2
    }

    func testArbitraryPolygonsAgainstClippedArea() throws {
        var rng = SplitMix64(seed: 77)
        let grid = RoutingGrid.standard
        var agreed = 0
        for caseIndex in 0..<150 {
            let cx = rng.double(-178, 178), cy = rng.double(-88, 88), radius = rng.double(0.1, 1.5)
            // Angular gaps below 67.5° keep every outer edge at least 0.4·cos(33.75°) ≈ 0.33
            // radii from the centre, so a hole of radius 0.3 lies inside and areas subtract.
            func ring(_ radius: Double, _ inner: Double) -> [GeoPoint] {
                let n = rng.int(8, 16)
                let angles = (0..<n).map { i in (Double(i) + rng.double(0, 0.5)) * 2 * Double.pi / Double(n) }
                var points = angles.map { a -> GeoPoint in
                    let r = radius * rng.double(inner, 1)
                    return GeoPoint(lon: cx + r * cos(a), lat: cy + r * sin(a))
                }
                points.append(points[0])
                return points
            }
            let outer = ring(radius, 0.4)
            let hole = rng.chance(0.5) ? ring(radius * 0.3, 0.3) : nil
            let polygon = try GeoPolygon(rings: hole.map { [outer, $0] } ?? [outer])
            let region = try PolygonRegion(geometries: [.polygon(polygon)])
            let tiles = Set(grid.tiles(intersecting: region))
            for id in grid.tiles(intersecting: region.bbox) {
                let cell = grid.bbox(of: id)
                let area = clippedArea(outer, cell) - (hole.map { clippedArea($0, cell) } ?? 0)
                if area > 1e-9 {
                    XCTAssertTrue(tiles.contains(id), "case \(caseIndex): cell \(cell) overlaps by \(area) but is not selected")
                } else if area < 1e-13 {
                    XCTAssertFalse(tiles.contains(id), "case \(caseIndex): cell \(cell) selected without overlap (\(area))")
                } else {
                    continue // too close to call with floating-point clipping
                }
                agreed += 1
            }
        }
        XCTAssertGreaterThan(agreed, 3000)
    }

    func testRegionTouchingCellsOnlyAtBordersSelectsNothingExtra() throws {
        let grid = RoutingGrid.standard
        // A diamond whose vertices sit on the midpoints of a 2×2 block's outer edges: it passes
        // through all four cells.
        let diamond = try PolygonRegion.parse(geoJSON: "{\"type\":\"Polygon\",\"coordinates\":[[[9.25,47.25],[9.5,47],[9.75,47.25],[9.5,47.5],[9.25,47.25]]]}")
        XCTAssertEqual(grid.tiles(intersecting: diamond).count, 4)
        // A triangle touching a neighbouring cell only at one corner.
        let triangle = try PolygonRegion.parse(geoJSON: "{\"type\":\"Polygon\",\"coordinates\":[[[9.25,47],[9.5,47],[9.5,47.25],[9.25,47]]]}")
        XCTAssertEqual(grid.tiles(intersecting: triangle), [grid.tileId(lon: 9.3, lat: 47.1)])
        // A cell wholly inside a hole is not selected; the frame around it is.
        let frame = try PolygonRegion.parse(geoJSON: "{\"type\":\"Polygon\",\"coordinates\":[[[9,47],[9.75,47],[9.75,47.75],[9,47.75],[9,47]],[[9.25,47.25],[9.5,47.25],[9.5,47.5],[9.25,47.5],[9.25,47.25]]]}")
        let selected = grid.tiles(intersecting: frame)
        XCTAssertEqual(selected.count, 8)
        XCTAssertFalse(selected.contains(grid.tileId(lon: 9.3, lat: 47.3)))
    }
}
