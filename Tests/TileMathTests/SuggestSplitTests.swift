import XCTest
@testable import TileMath
import TestSupport

final class SuggestSplitTests: XCTestCase {
    let grid = RoutingGrid.standard

    func testFourByFourIntoSquares() throws {
        let tiles = grid.tiles(intersecting: try BBox(parsing: "9,47,10,48"))
        XCTAssertEqual(tiles.count, 16)
        let pieces = grid.suggestSplit(tiles: tiles, limit: 4)
        XCTAssertEqual(pieces.map(\.description), ["9,47,9.5,47.5", "9.5,47,10,47.5", "9,47.5,9.5,48", "9.5,47.5,10,48"])
        XCTAssertEqual(grid.tooManyTilesMessage(tiles: tiles, limit: 4),
                       "region too large: 16 tiles > limit 4; split it, e.g. into 4 bboxes: 9,47,9.5,47.5 9.5,47,10,47.5 9,47.5,9.5,48 9.5,47.5,10,48")
    }

    func testSmallEnoughSelectionIsOnePiece() throws {
        let tiles = grid.tiles(intersecting: try BBox(parsing: "9.47,47.04,9.64,47.28"))
        XCTAssertEqual(grid.suggestSplit(tiles: tiles, limit: 4).map(\.description), ["9.25,47,9.75,47.5"])
        XCTAssertEqual(grid.suggestSplit(tiles: [], limit: 4), [])
        XCTAssertEqual(grid.suggestSplit(tiles: tiles, limit: 0), [])
    }

    func testEmptyPiecesAreLeftOutAndPiecesShrink() throws {
        // Two far-apart clusters of 2 tiles each, limit 2.
        let a = grid.tileId(lon: 0.1, lat: 0.1), b = grid.tileId(lon: 0.3, lat: 0.1)
        let c = grid.tileId(lon: 5.1, lat: 0.1), d = grid.tileId(lon: 5.3, lat: 0.1)
        let pieces = grid.suggestSplit(tiles: [d, c, b, a, a], limit: 2)
        XCTAssertEqual(pieces.map(\.description), ["0,0,0.5,0.25", "5,0,5.5,0.25"])
    }

    /// Random selections: every piece, used as a bbox region, selects at most `limit` tiles;
    /// pieces do not overlap; together they cover every selected tile.
    func testRandomSelections() throws {
        var rng = SplitMix64(seed: 9)
        for _ in 0..<200 {
            let lon = rng.double(-170, 160), lat = rng.double(-80, 70)
            let box = BBox(minLon: lon, minLat: lat, maxLon: lon + rng.double(0.1, 6), maxLat: lat + rng.double(0.1, 6))
            var tiles = grid.tiles(intersecting: box)
            if rng.chance(0.5) { tiles = tiles.filter { _ in rng.chance(0.6) } } // holes and ragged shapes
            guard !tiles.isEmpty else { continue }
            let limit = rng.int(1, max(1, tiles.count))
            let pieces = grid.suggestSplit(tiles: tiles, limit: limit)
            var covered = Set<UInt32>()
            for piece in pieces {
                let inPiece = grid.tiles(intersecting: piece)
                XCTAssertLessThanOrEqual(inPiece.count, limit, "\(piece)")
                XCTAssertTrue(covered.isDisjoint(with: inPiece), "pieces overlap at \(piece)")
                covered.formUnion(inPiece)
                XCTAssertEqual(try BBox(parsing: piece.description), piece, "descriptions read back exactly")
            }
            XCTAssertTrue(covered.isSuperset(of: tiles))
            // When the selection's whole bounding box fits, no split is needed.
            let cols = tiles.map { grid.column(of: $0) }, rows = tiles.map { grid.row(of: $0) }
            let boundingCells = (cols.max()! - cols.min()! + 1) * (rows.max()! - rows.min()! + 1)
            if boundingCells <= limit { XCTAssertEqual(pieces.count, 1) }
        }
    }

    func testWholeWorldWithSmallLimitFinishes() throws {
        let g = try RoutingGrid(degrees: 1)
        let all = (0..<UInt32(g.tileCount)).map { $0 }
        let pieces = g.suggestSplit(tiles: all, limit: 500)
        XCTAssertGreaterThanOrEqual(pieces.count, 130)
        XCTAssertTrue(pieces.allSatisfy { g.tiles(intersecting: $0).count <= 500 })
        XCTAssertEqual(pieces.reduce(0) { $0 + g.tiles(intersecting: $1).count }, g.tileCount)
    }
}
