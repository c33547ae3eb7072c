import Foundation
import TileSources
import TileMath
import XCTest

/// The real sample in both containers: metadata, the TMS flip, and the same tiles byte for byte.
final class SampleSourceTests: XCTestCase {
    func testMBTilesMetadataAndIndex() throws {
        let s = try TileSources.open(path: sampleMBTiles)
        XCTAssertTrue(s is MBTilesSource)
        XCTAssertEqual(s.info.container, .mbtiles)
        XCTAssertEqual(s.info.name, "Liechtenstein (tilemaker 2.2.0 OpenMapTiles schema, OSM-only layers)")
        XCTAssertEqual(s.info.tileType, .mvt)
        XCTAssertEqual(s.info.tileCompression, .gzip)
        XCTAssertEqual(s.info.minZoom, 0)
        XCTAssertEqual(s.info.maxZoom, 14)
        XCTAssertEqual(s.info.bounds ?? [], [9.471078, 47.04774, 9.636217, 47.27128])
        XCTAssertNotNil(s.info.metadata["vector_layers"], "the json metadata value is merged")
        XCTAssertEqual(s.info.metadata["minzoom"], "0", "plain MBTiles metadata values are strings")
        XCTAssertTrue(s.info.metadata["vector_layers"]?.arrayValue?.contains { $0["id"] == "transportation" } ?? false)
        let all = try s.allTiles()
        XCTAssertEqual(all.count, 180)
        XCTAssertEqual(all.reduce(0) { $0 + $1.length }, 1_807_266)
        // XYZ rows (TMS flipped): Liechtenstein at zoom 10 is in row 359, columns 538-539.
        XCTAssertTrue(all.contains { $0.coordinate == TileCoordinate(z: 0, x: 0, y: 0) })
        XCTAssertEqual(all.filter { $0.coordinate.z == 10 }.map(\.coordinate),
                       [TileCoordinate(z: 10, x: 538, y: 359), TileCoordinate(z: 10, x: 539, y: 359)])
    }

    func testPMTilesHeaderAndIndex() throws {
        let s = try XCTUnwrap(try TileSources.open(path: samplePMTiles) as? PMTilesSource)
        XCTAssertEqual(s.info.container, .pmtiles)
        XCTAssertEqual(s.header.addressedTiles, 180)
        XCTAssertEqual(s.header.tileContents, 178)
        XCTAssertTrue(s.header.clustered)
        XCTAssertEqual(s.header.internalCompression, .gzip)
        XCTAssertEqual(s.info.tileType, .mvt)
        XCTAssertEqual(s.info.tileCompression, .gzip)
        XCTAssertEqual(s.info.name, "Liechtenstein (tilemaker 2.2.0 OpenMapTiles schema, OSM-only layers)")
        XCTAssertNotNil(s.info.metadata["vector_layers"], "the json string of converted archives is merged like MBTiles'")
        let mbtiles = try TileSources.open(path: sampleMBTiles)
        XCTAssertEqual(s.info.metadata["vector_layers"], mbtiles.info.metadata["vector_layers"], "both containers describe the layers alike")
        XCTAssertEqual(try s.allTiles().count, 180)
    }

    func testBothContainersHoldTheSameTiles() throws {
        let m = try TileSources.open(path: sampleMBTiles), p = try TileSources.open(path: samplePMTiles)
        let mi = try m.allTiles(), pi = try p.allTiles()
        XCTAssertEqual(mi.map(\.coordinate), pi.map(\.coordinate))
        XCTAssertEqual(mi.map(\.length), pi.map(\.length))
        for e in mi {
            let a = try XCTUnwrap(try m.tile(e.coordinate)), b = try XCTUnwrap(try p.tile(e.coordinate))
            XCTAssertEqual(a, b, "\(e.coordinate)")
            XCTAssertEqual(a.count, e.length)
        }
        // Subtree reads give the same bytes as single reads.
        let parent = TileCoordinate(z: 11, x: 1078, y: 719)
        for source in [m, p] {
            for z in 11...14 {
                var seen = 0
                try source.read(under: parent, atZoom: z) { c, bytes in
                    seen += 1
                    XCTAssertEqual(c.ancestor(atZoom: 11), parent)
                    XCTAssertEqual(Array(bytes), try m.tile(c))
                }
                XCTAssertEqual(seen, try source.index(under: parent, atZoom: z).count)
            }
        }
        XCTAssertNil(try m.tile(TileCoordinate(z: 3, x: 0, y: 0)))
        XCTAssertNil(try p.tile(TileCoordinate(z: 3, x: 0, y: 0)))
    }
}
