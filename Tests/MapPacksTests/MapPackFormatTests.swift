import OffgridCore
import Foundation
import MapPacks
import TileSources
import TileMath
import XCTest
import TestSupport

final class MapPackFormatTests: XCTestCase {
    let header = MapPackHeader(band: ZoomBand(11, 14), parent: TileCoordinate(z: 11, x: 1078, y: 719),
                               tilesetId: "test tiles", tileType: .mvt, tileCompression: .gzip)

    func tiles() -> [(TileCoordinate, ArraySlice<UInt8>)] {
        let p = header.parent
        let empty: [UInt8] = [0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0]
        return [
            (TileCoordinate(z: 13, x: 4 * p.x + 1, y: 4 * p.y + 2), empty[...]),
            (p, Array("parent".utf8)[...]),
            (TileCoordinate(z: 12, x: 2 * p.x, y: 2 * p.y), empty[...]),
            (TileCoordinate(z: 14, x: 8 * p.x + 7, y: 8 * p.y), Array("deep".utf8)[...]),
            (TileCoordinate(z: 12, x: 2 * p.x + 1, y: 2 * p.y + 1), empty[...]),
            (TileCoordinate(z: 14, x: 8 * p.x, y: 8 * p.y), [][...]),
        ]
    }

    func testRoundTripDedupeAndOrder() throws {
        let (bytes, stats) = MapPackWriter.encode(header: header, tiles: tiles())
        XCTAssertEqual(stats.tiles, 6)
        XCTAssertEqual(stats.uniqueTiles, 4, "the three empty-gzip tiles are stored once")
        XCTAssertEqual(stats.fileBytes, bytes.count)
        let r = try MapPackReader(bytes: bytes)
        XCTAssertEqual(r.header, header)
        XCTAssertEqual(r.uniqueTiles, 4)
        XCTAssertEqual(r.entries.map(\.coordinate), tiles().map(\.0).sorted())
        for (c, b) in tiles() { XCTAssertEqual(try r.tile(c).map(Array.init), Array(b)) }
        let emptyOffsets = Set(r.entries.filter { $0.length == 20 }.map(\.offset))
        XCTAssertEqual(emptyOffsets.count, 1)
        XCTAssertNil(try r.tile(TileCoordinate(z: 13, x: 0, y: 0)))
        try r.verify()
        // Input order does not matter: same bytes.
        XCTAssertEqual(MapPackWriter.encode(header: header, tiles: tiles().reversed()).bytes, bytes)
        XCTAssertEqual(Array(bytes.prefix(8)), Array("OGMPACK\0".utf8))
    }

    func testEveryCorruptionIsDetected() throws {
        let (bytes, _) = MapPackWriter.encode(header: header, tiles: tiles())
        XCTAssertThrowsError(try MapPackReader(bytes: []))
        XCTAssertThrowsError(try MapPackReader(bytes: Array(bytes.dropLast())))
        XCTAssertThrowsError(try MapPackReader(bytes: bytes + [0]))
        // Flip every byte of the preamble, header and index in turn: each is caught when the pack
        // is opened; flipped tile bytes are caught when the tile is read.
        var rng = SplitMix64(seed: 5)
        for i in 0..<bytes.count {
            var b = bytes
            b[i] ^= UInt8(1 << (rng.next() % 8))
            do {
                let r = try MapPackReader(bytes: b)
                XCTAssertThrowsError(try r.verify(), "byte \(i)")
            } catch {}
        }
    }
}
