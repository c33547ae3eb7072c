import OffgridCore
import Foundation
import OSMPBF
import RoutingPacks
import RoutingProfile
import RoutingTiles
import TileMath
import TestSupport
import XCTest

/// Routing tiles from the real sample: content, determinism, stitching.
final class SampleTilesTests: XCTestCase {
    func testSampleTilesHaveTheNetwork() throws {
        let result = try buildTiles(samplePBF)
        XCTAssertEqual(result.dataVersion, "2024-03-04-3988")
        let tiles = try decodeAll(result)
        // Liechtenstein spans 9.47–9.64°E, 47.05–47.27°N: grid cells 757/758 × 548/549 hold its roads.
        XCTAssertEqual(tiles.map(\.tileId), [789_877, 789_878, 791_318])
        XCTAssertGreaterThan(result.edges, 5000)
        XCTAssertGreaterThan(result.restrictions, 50)
        let grid = RoutingGrid.standard
        var allNodes = Set<Int64>()
        for t in tiles {
            XCTAssertEqual(t.nodes.map(\.osmId), t.nodes.map(\.osmId).sorted())
            for n in t.nodes {
                XCTAssertEqual(grid.tileId(lon: Double(n.lonE7) / 1e7, lat: Double(n.latE7) / 1e7), t.tileId)
                allNodes.insert(n.osmId)
            }
            for e in t.edges {
                let from = t.nodes[Int(e.fromNode)]
                let s = Int(e.shapeStart)
                // The shape starts at the start node; the edge's way has tags.
                XCTAssertEqual(t.shapeLatE7[s], from.latE7)
                XCTAssertEqual(t.shapeLonE7[s], from.lonE7)
                XCTAssertNotEqual(e.tags, 0)
                // Length along the shape, recomputed.
                var length = 0.0
                for i in s..<(s + Int(e.shapeCount) - 1) {
                    length += haversineMeters(GeoPoint(lon: Double(t.shapeLonE7[i]) / 1e7, lat: Double(t.shapeLatE7[i]) / 1e7),
                                              GeoPoint(lon: Double(t.shapeLonE7[i + 1]) / 1e7, lat: Double(t.shapeLatE7[i + 1]) / 1e7))
                }
                XCTAssertEqual(Double(e.lengthCm) / 100, length, accuracy: 0.01)
            }
        }
        // Every edge's far end is a node of some tile: the network is closed.
        for t in tiles { for e in t.edges { XCTAssertTrue(allNodes.contains(e.toNodeOsmId), "\(e.toNodeOsmId)") } }
        // Vaduz's main street is there by name.
        XCTAssertTrue(tiles.contains { $0.strings.contains("Äulestrasse") })
    }

    func testRebuildsAreByteIdenticalWhateverTheThreads() throws {
        let a = try buildTiles(samplePBF, threads: 1)
        let b = try buildTiles(samplePBF, threads: 2)
        let c = try buildTiles(samplePBF, threads: 5)
        XCTAssertEqual(a.tiles.map(\.raw), b.tiles.map(\.raw))
        XCTAssertEqual(a.tiles.map(\.raw), c.tiles.map(\.raw))
    }

    func testCodecRoundTripAndDamage() throws {
        let result = try buildTiles(samplePBF)
        for (_, raw) in result.tiles {
            let tile = try RoutingTileCodec.decode(raw)
            XCTAssertEqual(RoutingTileCodec.encode(tile), raw)
        }
        let raw = result.tiles[0].raw
        var flipped = raw
        flipped[raw.count / 2] ^= 1
        XCTAssertThrowsError(try RoutingTileCodec.decode(flipped))
        for cut in [0, 5, 20, raw.count / 3, raw.count - 1] {
            XCTAssertThrowsError(try RoutingTileCodec.decode(Array(raw[0..<cut])), "cut \(cut)")
        }
        XCTAssertThrowsError(try RoutingTileCodec.decode(Array(repeating: 0, count: 100)))
    }

    /// Tiles selected by two neighbouring bboxes are the same bytes as those of one build over
    /// the union, and unpacked together they give the same directory of tiles.
    func testTwoRegionsStitchIntoTheWhole() throws {
        let grid = RoutingGrid.standard
        let west = Set(grid.tiles(intersecting: try BBox(parsing: "9,46.5,9.5,48")))
        let east = Set(grid.tiles(intersecting: try BBox(parsing: "9.5,46.5,10,48")))
        XCTAssertTrue(west.isDisjoint(with: east))
        let whole = try buildTiles(samplePBF, selected: west.union(east))
        let w = try buildTiles(samplePBF, selected: west)
        let e = try buildTiles(samplePBF, selected: east)
        XCTAssertFalse(w.tiles.isEmpty)
        XCTAssertFalse(e.tiles.isEmpty)
        let merged = (w.tiles + e.tiles).sorted { $0.id < $1.id }
        XCTAssertEqual(merged.map(\.id), whole.tiles.map(\.id))
        XCTAssertEqual(merged.map(\.raw), whole.tiles.map(\.raw))

        // Edges that cross 9.5°E name far nodes that live in the other pack's tiles.
        let westTiles = try decodeAll(w), eastTiles = try decodeAll(e)
        let eastNodes = Set(eastTiles.flatMap { $0.nodes.map(\.osmId) })
        let westNodes = Set(westTiles.flatMap { $0.nodes.map(\.osmId) })
        let crossing = westTiles.flatMap(\.edges).filter { !westNodes.contains($0.toNodeOsmId) }
        XCTAssertFalse(crossing.isEmpty)
        XCTAssertTrue(crossing.allSatisfy { eastNodes.contains($0.toNodeOsmId) })

        // Through the pack container and the unpacker, as a user does it.
        let scratch = Scratch()
        defer { scratch.remove() }
        func header(_ box: String) throws -> RoutingPackHeader {
            let b = try BBox(parsing: box)
            return RoutingPackHeader(dataVersion: whole.dataVersion, profileName: RoutingTagSchema.name, profileHash: "abcd", gridDegrees: 0.25,
                                     regionBBox: (b.minLon, b.minLat, b.maxLon, b.maxLat), createdBy: "test")
        }
        try RoutingPackWriter.write(header: header("9,46.5,9.5,48"), tiles: w.tiles, to: scratch.path("w.pack"))
        try RoutingPackWriter.write(header: header("9.5,46.5,10,48"), tiles: e.tiles, to: scratch.path("e.pack"))
        try RoutingPackWriter.write(header: header("9,46.5,10,48"), tiles: whole.tiles, to: scratch.path("all.pack"))
        _ = try RoutingPackUnpacker.unpack(packPath: scratch.path("w.pack"), outputDir: scratch.path("stitched"), progress: SilentProgress())
        _ = try RoutingPackUnpacker.unpack(packPath: scratch.path("e.pack"), outputDir: scratch.path("stitched"), progress: SilentProgress())
        _ = try RoutingPackUnpacker.unpack(packPath: scratch.path("all.pack"), outputDir: scratch.path("one"), progress: SilentProgress())
        let stitched = try UnpackedRoutingDirectory(path: scratch.path("stitched"))
        let one = try UnpackedRoutingDirectory(path: scratch.path("one"))
        let ids = try UnpackedRoutingDirectory.load(scratch.path("one")).tiles.map(\.id)
        XCTAssertEqual(try UnpackedRoutingDirectory.load(scratch.path("stitched")).tiles.map(\.id), ids)
        for id in ids { XCTAssertEqual(try stitched.verifyTile(id: id), try one.verifyTile(id: id)) }
    }
}
