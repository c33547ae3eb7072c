import OffgridCore
import Foundation
import TileSources
import TileMath
import XCTest
import TestSupport

/// PMTiles features the sample does not use: leaf directories, run-length entries, shared
/// bytes, uncompressed internals, other tile types — written by an independent fixture writer.
final class PMTilesFixtureTests: XCTestCase {
    var scratch: Scratch!
    override func setUp() { scratch = Scratch() }
    override func tearDown() { scratch.remove() }

    /// Tiles of zooms 0-6 over a few subtrees, with an "ocean" tile repeated along runs and
    /// elsewhere, and unique tiles.
    func fixtureTiles() -> [PMTilesFixture.Tile] {
        var tiles: [PMTilesFixture.Tile] = []
        var rng = SplitMix64(seed: 11)
        let ocean: [UInt8] = Array("ocean".utf8)
        for z in 0...6 {
            let n = 1 << z
            for x in 0..<n {
                for y in 0..<n where (x + y) % 3 != 0 || z < 3 {
                    let t = TileCoordinate(z: z, x: x, y: y)
                    let bytes: [UInt8] = rng.next() % 3 == 0 ? ocean : Array("tile \(t) \(rng.next() % 1000)".utf8)
                    tiles.append(.init(id: PMTilesID.id(t), bytes: bytes))
                }
            }
        }
        return tiles
    }

    func check(_ path: String, _ tiles: [PMTilesFixture.Tile]) throws {
        let s = try TileSources.open(path: path)
        XCTAssertEqual(s.info.name, "fixture")
        let expected = Dictionary(uniqueKeysWithValues: tiles.map { (PMTilesID.coordinate($0.id)!, $0.bytes) })
        let all = try s.allTiles()
        XCTAssertEqual(all.count, tiles.count)
        XCTAssertEqual(Set(all.map(\.coordinate)), Set(expected.keys))
        for parent in [TileCoordinate(z: 0, x: 0, y: 0), TileCoordinate(z: 2, x: 1, y: 3), TileCoordinate(z: 4, x: 9, y: 5)] {
            for z in parent.z...6 {
                var got: [TileCoordinate: [UInt8]] = [:]
                try s.read(under: parent, atZoom: z) { c, b in got[c] = Array(b) }
                let want = expected.filter { $0.key.z == z && $0.key.ancestor(atZoom: parent.z) == parent }
                XCTAssertEqual(got, want, "\(parent) at \(z)")
                XCTAssertEqual(try s.index(under: parent, atZoom: z).map(\.coordinate), want.keys.sorted())
            }
        }
    }

    func testRootOnlyGzip() throws {
        let tiles = fixtureTiles()
        try check(try scratch.write("a.pmtiles", PMTilesFixture.build(tiles: tiles)), tiles)
    }

    func testLeafDirectoriesAndRunLengthsUncompressed() throws {
        let tiles = fixtureTiles()
        let bytes = PMTilesFixture.build(tiles: tiles, leafSize: 37, gzipInternal: false)
        let path = try scratch.write("b.pmtiles", bytes)
        try check(path, tiles)
        let source = try XCTUnwrap(try TileSources.open(path: path) as? PMTilesSource)
        let entries = try source.allEntries()
        XCTAssertTrue(entries.contains { $0.runLength > 1 }, "the fixture has run-length entries")
        XCTAssertEqual(entries.reduce(0) { $0 + Int($1.runLength) }, tiles.count)
    }

    func testLeafDirectoriesGzip() throws {
        let tiles = fixtureTiles()
        try check(try scratch.write("c.pmtiles", PMTilesFixture.build(tiles: tiles, leafSize: 5)), tiles)
    }

    func testRasterTypesAreReported() throws {
        let tiles = [PMTilesFixture.Tile(id: 0, bytes: [0x89, 0x50, 0x4e, 0x47])]
        let s = try TileSources.open(path: try scratch.write("r.pmtiles", PMTilesFixture.build(tiles: tiles, tileType: 2, tileCompression: 1, maxZoom: 0)))
        XCTAssertEqual(s.info.tileType, .png)
        XCTAssertEqual(s.info.tileCompression, TileCompression.none)
    }
}
