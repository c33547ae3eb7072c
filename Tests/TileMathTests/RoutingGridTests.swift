import XCTest
@testable import TileMath
import TestSupport

final class RoutingGridTests: XCTestCase {
    let grid = RoutingGrid.standard

    func testDimensions() throws {
        XCTAssertEqual(grid.degrees, 0.25)
        XCTAssertEqual(grid.columns, 1440)
        XCTAssertEqual(grid.rows, 720)
        XCTAssertEqual(grid.tileCount, 1_036_800)
        XCTAssertEqual(try RoutingGrid(), grid)
        let one = try RoutingGrid(degrees: 1)
        XCTAssertEqual(one.columns, 360)
        XCTAssertEqual(one.rows, 180)
        let coarsest = try RoutingGrid(degrees: 180)
        XCTAssertEqual(coarsest.tileCount, 2)
    }

    func testInvalidGridSizes() {
        for bad in [0.0, -0.25, 0.7, 7, 200, .nan, .infinity, 0.001] {
            XCTAssertThrowsError(try RoutingGrid(degrees: bad), "\(bad)")
        }
        XCTAssertThrowsError(try RoutingGrid(degrees: 0.7)) { error in
            XCTAssertTrue("\(error)".contains("does not divide 180"), "\(error)")
        }
    }

    func testVaduz() {
        // col = floor((9.52 + 180) / 0.25) = floor(758.08) = 758
        // row = floor((47.14 + 90) / 0.25) = floor(548.56) = 548
        let id = grid.tileId(lon: 9.52, lat: 47.14)
        XCTAssertEqual(grid.column(of: id), 758)
        XCTAssertEqual(grid.row(of: id), 548)
        XCTAssertEqual(id, 789_878)
        XCTAssertEqual(grid.bbox(of: id), BBox(minLon: 9.5, minLat: 47, maxLon: 9.75, maxLat: 47.25))
        XCTAssertEqual(grid.bbox(of: id).description, "9.5,47,9.75,47.25")
        XCTAssertEqual(grid.tileId(of: GeoPoint(lon: 9.52, lat: 47.14)), id)
    }

    func testPointsOnCellEdgesBelongToTheEastAndNorthCell() {
        XCTAssertEqual(grid.column(containingLon: 9.5), 758)
        XCTAssertEqual(grid.column(containingLon: 9.5.nextDown), 757, "9.5⁻ + 180 rounds to 189.5; must still be column 757")
        XCTAssertEqual(grid.column(containingLon: 9.5.nextUp), 758)
        XCTAssertEqual(grid.row(containingLat: 47), 548)
        XCTAssertEqual(grid.row(containingLat: 47.0.nextDown), 547)
        XCTAssertEqual(grid.column(containingLon: 0), 720)
        XCTAssertEqual(grid.column(containingLon: (-0.0)), 720)
        XCTAssertEqual(grid.column(containingLon: 0.0.nextDown), 719)
        XCTAssertEqual(grid.column(containingLon: -1e-300), 719)
        XCTAssertEqual(grid.row(containingLat: 0), 360)
        XCTAssertEqual(grid.row(containingLat: -1e-300), 359)
    }

    func testWorldEdges() {
        XCTAssertEqual(grid.tileId(lon: -180, lat: -90), 0)
        XCTAssertEqual(grid.tileId(lon: 180, lat: 90), UInt32(grid.tileCount - 1), "east/north world edge clamps into the last tile")
        XCTAssertEqual(grid.column(containingLon: 180), 1439)
        XCTAssertEqual(grid.column(containingLon: 180.0.nextDown), 1439)
        XCTAssertEqual(grid.column(containingLon: -180), 0)
        XCTAssertEqual(grid.row(containingLat: 90), 719)
        XCTAssertEqual(grid.row(containingLat: -90), 0)
        // Out of range and NaN clamp instead of trapping.
        XCTAssertEqual(grid.column(containingLon: 500), 1439)
        XCTAssertEqual(grid.column(containingLon: -500), 0)
        XCTAssertEqual(grid.column(containingLon: .nan), 0)
        XCTAssertEqual(grid.row(containingLat: .infinity), 719)
        XCTAssertEqual(grid.bbox(of: 0), BBox(minLon: -180, minLat: -90, maxLon: -179.75, maxLat: -89.75))
        XCTAssertEqual(grid.bbox(of: UInt32(grid.tileCount - 1)), BBox(minLon: 179.75, minLat: 89.75, maxLon: 180, maxLat: 90))
        XCTAssertTrue(grid.isValid(UInt32(grid.tileCount - 1)))
        XCTAssertFalse(grid.isValid(UInt32(grid.tileCount)))
    }

    /// Every point lands in the cell whose half-open box holds it, on several grid sizes,
    /// including points exactly on and next to cell edges.
    func testRandomPointsLandInTheirHalfOpenCell() throws {
        var rng = SplitMix64(seed: 1)
        for degrees in [0.25, 0.1, 0.3, 1, 0.5, 180.0 / 7] {
            let g = try RoutingGrid(degrees: degrees)
            for i in 0..<20_000 {
                var lon = rng.double(-180, 180), lat = rng.double(-90, 90)
                switch i % 4 {
                case 1: lon = g.lonEdge(rng.int(0, g.columns)); lat = g.latEdge(rng.int(0, g.rows))
                case 2: lon = g.lonEdge(rng.int(1, g.columns)).nextDown; lat = g.latEdge(rng.int(1, g.rows)).nextDown
                case 3: lon = g.lonEdge(rng.int(0, g.columns - 1)).nextUp; lat = g.latEdge(rng.int(0, g.rows - 1)).nextUp
                default: break
                }
                let id = g.tileId(lon: lon, lat: lat)
                XCTAssertTrue(g.isValid(id))
                let c = g.column(of: id), r = g.row(of: id)
                XCTAssertTrue(g.lonEdge(c) <= lon && (lon < g.lonEdge(c + 1) || c == g.columns - 1), "lon \(lon) col \(c) @\(degrees)")
                XCTAssertTrue(g.latEdge(r) <= lat && (lat < g.latEdge(r + 1) || r == g.rows - 1), "lat \(lat) row \(r) @\(degrees)")
                XCTAssertEqual(g.tileId(row: r, column: c), id)
            }
        }
    }

    func testTilesIntersectingBBox() throws {
        // One grid-aligned cell selects exactly that cell, not the 8 neighbours it touches.
        let cell = try BBox(parsing: "9.25,47,9.5,47.25")
        XCTAssertEqual(grid.tiles(intersecting: cell), [grid.tileId(lon: 9.3, lat: 47.1)])
        // Liechtenstein: columns 757-758, rows 548-549.
        let li = try BBox(parsing: "9.47,47.04,9.64,47.28")
        let expected: [UInt32] = [789_877, 789_878, 791_317, 791_318] // 548·1440 + 757 …
        XCTAssertEqual(grid.tiles(intersecting: li), expected)
        // Degenerate boxes: a point inside a cell selects it, a point on an edge selects nothing.
        XCTAssertEqual(grid.tiles(intersecting: BBox(minLon: 9.3, minLat: 47.1, maxLon: 9.3, maxLat: 47.1)).count, 1)
        XCTAssertEqual(grid.tiles(intersecting: BBox(minLon: 9.5, minLat: 47.1, maxLon: 9.5, maxLat: 47.1)), [])
        XCTAssertEqual(grid.tiles(intersecting: BBox(minLon: 9.3, minLat: 47, maxLon: 9.6, maxLat: 47)), [])
        // Whole world, and a box beyond it.
        let coarse = try RoutingGrid(degrees: 1)
        XCTAssertEqual(coarse.tiles(intersecting: BBox(minLon: -180, minLat: -90, maxLon: 180, maxLat: 90)),
                       (0..<UInt32(coarse.tileCount)).map { $0 })
        XCTAssertEqual(coarse.tiles(intersecting: BBox(minLon: 179.5, minLat: 89.5, maxLon: 200, maxLat: 100)), [UInt32(coarse.tileCount - 1)])
        XCTAssertEqual(coarse.tiles(intersecting: BBox(minLon: 180, minLat: 0, maxLon: 181, maxLat: 1)), [])
        XCTAssertEqual(grid.tiles(intersecting: BBox(minLon: 10, minLat: 47, maxLon: 9, maxLat: 48)), [], "inverted box")
    }

    func testTilesOfBBoxAreSortedAndMatchBruteForce() {
        var rng = SplitMix64(seed: 2)
        let g = RoutingGrid.standard
        for _ in 0..<300 {
            // Quarter-degree-aligned or arbitrary corners.
            let aligned = rng.chance(0.5)
            func coordinate(_ lo: Double, _ hi: Double) -> Double {
                let v = rng.double(lo, hi)
                return aligned ? (v * 4).rounded() / 4 : v
            }
            let lon0 = coordinate(-180, 178), lat0 = coordinate(-90, 88)
            let box = BBox(minLon: lon0, minLat: lat0, maxLon: min(180, lon0 + coordinate(0, 2)), maxLat: min(90, lat0 + coordinate(0, 2)))
            let tiles = g.tiles(intersecting: box)
            XCTAssertEqual(tiles, tiles.sorted())
            // Brute force over a margin of cells: open cell meets closed box.
            var expected: [UInt32] = []
            for r in max(0, g.row(containingLat: box.minLat) - 2)...min(g.rows - 1, g.row(containingLat: box.maxLat) + 2) {
                for c in max(0, g.column(containingLon: box.minLon) - 2)...min(g.columns - 1, g.column(containingLon: box.maxLon) + 2) {
                    if g.lonEdge(c) < box.maxLon && box.minLon < g.lonEdge(c + 1) && g.latEdge(r) < box.maxLat && box.minLat < g.latEdge(r + 1) {
                        expected.append(g.tileId(row: r, column: c))
                    }
                }
            }
            XCTAssertEqual(tiles, expected, "\(box)")
        }
    }
}
