import TileSources
import TileMath
import XCTest
import TestSupport

final class HilbertTests: XCTestCase {
    /// Values computed with the `pmtiles` Python package (`zxy_to_tileid`).
    func testKnownIdsFromTheReferenceImplementation() {
        let known: [(Int, Int, Int, UInt64)] = [
            (0, 0, 0, 0), (1, 0, 0, 1), (1, 1, 0, 4), (1, 1, 1, 3), (1, 0, 1, 2), (2, 2, 1, 18), (2, 0, 2, 9),
            (2, 0, 0, 5), (3, 6, 3, 72), (3, 6, 0, 81), (3, 3, 7, 47), (3, 7, 3, 69), (5, 22, 14, 1175),
            (5, 14, 29, 770), (5, 18, 1, 1282), (5, 26, 6, 1325), (9, 190, 303, 210_518), (9, 123, 340, 162_762),
            (9, 432, 194, 297_571), (9, 310, 290, 221_453), (14, 16363, 12889, 273_760_889),
            (14, 1131, 15736, 179_886_308), (14, 7954, 13247, 206_545_320), (14, 13576, 5669, 299_653_584),
            (20, 769_914, 785_809, 962_162_446_780), (20, 181_335, 920_569, 745_817_850_321),
            (26, 65_725_551, 3_969_484, 5_997_781_916_228_442), (26, 22_863_882, 22_628_343, 2_102_159_329_285_318),
        ]
        for (z, x, y, id) in known {
            let t = TileCoordinate(z: z, x: x, y: y)
            XCTAssertEqual(PMTilesID.id(t), id, "\(t)")
            XCTAssertEqual(PMTilesID.coordinate(id), t, "\(id)")
        }
    }

    func testRoundTripAndZoomBoundaries() {
        var rng = SplitMix64(seed: 3)
        for z in 0...30 {
            XCTAssertEqual(PMTilesID.coordinate(PMTilesID.zoomBase(z))?.z, z)
            if z > 0 { XCTAssertEqual(PMTilesID.coordinate(PMTilesID.zoomBase(z) - 1)?.z, z - 1) }
            for _ in 0..<50 {
                let n = UInt64(1) << UInt64(z)
                let t = TileCoordinate(z: z, x: Int(rng.next() % n), y: Int(rng.next() % n))
                XCTAssertEqual(PMTilesID.coordinate(PMTilesID.id(t)), t)
            }
        }
    }

    /// A tile's descendants at a deeper zoom are exactly one contiguous id range.
    func testDescendantsFormOneRange() {
        for z in 0...3 {
            for x in 0..<(1 << z) {
                for y in 0..<(1 << z) {
                    let parent = TileCoordinate(z: z, x: x, y: y)
                    for zoom in z...(z + 3) {
                        let range = PMTilesID.descendantRange(of: parent, atZoom: zoom)
                        var ids: [UInt64] = []
                        for xx in parent.descendantColumns(atZoom: zoom) {
                            for yy in parent.descendantRows(atZoom: zoom) { ids.append(PMTilesID.id(TileCoordinate(z: zoom, x: xx, y: yy))) }
                        }
                        ids.sort()
                        XCTAssertEqual(ids, Array(range), "\(parent) at \(zoom)")
                    }
                }
            }
        }
    }
}
