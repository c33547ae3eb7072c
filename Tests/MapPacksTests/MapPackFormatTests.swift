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

    func testKeysSortLikeCoordinatesAndOneTileIsReadAlone() throws {
        let p = header.parent
        let coordinates = [TileCoordinate(z: 12, x: 2 * p.x + 1, y: 2 * p.y), TileCoordinate(z: 12, x: 2 * p.x, y: 2 * p.y + 1), p]
        let keys = coordinates.map(MapPackFormat.key)
        XCTAssertEqual(keys.sorted { $0.lexicographicallyPrecedes($1) }.map { MapPackFormat.coordinate($0[...]) },
                       coordinates.sorted())
        XCTAssertEqual(MapPackFormat.key(TileCoordinate(z: 14, x: 0x0102_0304, y: 5)), [14, 1, 2, 3, 4, 0, 0, 0, 5])

        // A damaged tile in a pack file: the others still read, the damaged one is named.
        var (bytes, _) = MapPackWriter.encode(header: header, tiles: tiles())
        let intact = try MapPackReader(bytes: bytes)
        let deep = try XCTUnwrap(intact.entries.first { $0.coordinate.z == 14 && $0.length == 4 })
        bytes[deep.offset + 1] ^= 0x08
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("mappack-\(getpid()).pack").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let reader = try MapPackReader(path: path)
        for e in reader.entries where e.coordinate != deep.coordinate { XCTAssertNotNil(try reader.tile(e.coordinate)) }
        XCTAssertThrowsError(try reader.tile(deep.coordinate)) { error in
            let e = error as? InputError
            XCTAssertEqual(e?.file, path)
            XCTAssertEqual(e?.offset, deep.offset)
            XCTAssertTrue("\(error)".contains("tile \(deep.coordinate): content fails its CRC32 check"), "\(error)")
        }
    }
}
