import Foundation
import OffgridCore
import TestSupport
import TileMath
@testable import TileSources
import XCTest

/// The PMTiles writer read back by the project's own reader (the Python `pmtiles` package reads
/// region exports in TileServerTests): every tile, runs and deduplication, leaf directories once
/// the root would pass 16 KiB, and byte-identical output for the same input.
final class PMTilesWriterTests: XCTestCase {
    let scratch = Scratch("pmtiles-writer")
    override func tearDown() { scratch.remove() }

    func write(_ tiles: [TileCoordinate: [UInt8]], to name: String) throws -> (String, PMTilesWriter.Stats) {
        let coords = tiles.keys.sorted()
        let path = scratch.path(name)
        let stats = try PMTilesWriter.write(
            to: path, tiles: coords,
            description: .init(tileType: .mvt, tileCompression: .gzip, bounds: [9.4, 47.0, 9.7, 47.3], center: [9.5, 47.1],
                               centerZoom: 12, metadata: ["name": "test", "vector_layers": [["id": "water", "fields": .object([:])]]]),
            read: { tiles[coords[$0]]! })
        return (path, stats)
    }

    func testSmallArchiveRunsAndDuplicates() throws {
        var tiles: [TileCoordinate: [UInt8]] = [:]
        var rng = SplitMix64(seed: 3)
        // A 16×16 block at z8 all the same bytes (runs along the Hilbert curve), plus distinct tiles.
        for x in 0..<16 { for y in 0..<16 { tiles[TileCoordinate(z: 8, x: 128 + x, y: 64 + y)] = [1, 2, 3] } }
        for i in 0..<200 { tiles[TileCoordinate(z: 10, x: i, y: 7)] = rng.bytes(20 + i % 7) }
        let (path, stats) = try write(tiles, to: "small.pmtiles")
        XCTAssertEqual(stats.addressedTiles, tiles.count)
        XCTAssertEqual(stats.tileContents, 201)
        XCTAssertLessThan(stats.tileEntries, 210, "the 256 equal tiles are a few run-length entries")
        XCTAssertEqual(stats.leafDirectories, 0)
        let source = try PMTilesSource(path: path)
        XCTAssertTrue(source.header.clustered)
        XCTAssertEqual(source.header.minZoom, 8)
        XCTAssertEqual(source.header.maxZoom, 10)
        XCTAssertEqual(source.info.name, "test")
        for (c, bytes) in tiles { XCTAssertEqual(try source.tile(c), bytes, "\(c)") }
        XCTAssertNil(try source.tile(TileCoordinate(z: 10, x: 500, y: 7)))
        XCTAssertEqual(try source.allTiles().count, tiles.count)
    }

    func testLeafDirectoriesAndDeterminism() throws {
        var tiles: [TileCoordinate: [UInt8]] = [:]
        var rng = SplitMix64(seed: 9)
        // Scattered ids and random lengths, so the directory does not compress to nothing.
        while tiles.count < 20_000 {
            tiles[TileCoordinate(z: 14, x: 8000 + rng.below(1024), y: 5000 + rng.below(1024))] = rng.bytes(1 + rng.below(64))
        }
        let (path, stats) = try write(tiles, to: "big.pmtiles")
        XCTAssertGreaterThan(stats.leafDirectories, 1, "20,000 scattered tiles need leaf directories")
        let source = try PMTilesSource(path: path)
        XCTAssertLessThanOrEqual(Int(source.header.rootLength) + 127, 16_384)
        XCTAssertEqual(try source.allEntries().count, tiles.count)
        for (c, bytes) in tiles.prefix(2000) { XCTAssertEqual(try source.tile(c), bytes, "\(c)") }
        // The reference reader (PyPI pmtiles) walks the leaves too.
        let python = Process()
        python.executableURL = URL(fileURLWithPath: try TestPython.executable())
        python.arguments = ["-c", "import sys, pmtiles.reader as r; f = open(sys.argv[1], 'rb'); "
                            + "n = sum(1 for _ in r.all_tiles(r.MmapSource(f))); sys.exit(0 if n == int(sys.argv[2]) else 1)", path, "\(tiles.count)"]
        try python.run()
        python.waitUntilExit()
        XCTAssertEqual(python.terminationStatus, 0, "pmtiles (Python) reads every tile through the leaf directories")
        let (again, _) = try write(tiles, to: "again.pmtiles")
        XCTAssertEqual(try FileTools.readFile(path, maxBytes: 1 << 30), try FileTools.readFile(again, maxBytes: 1 << 30))
        XCTAssertEqual(scratch.leftovers(), [])
    }
}
