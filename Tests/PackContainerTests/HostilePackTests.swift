import MapPacks
import OffgridCore
import PackContainer
import RoutingPacks
import StylePacks
import TestSupport
import TileSources
import XCTest
import TileMath

/// Thousands of seeded damages per pack kind, each with recomputed checksums: opening and
/// reading every entry either succeeds (the damage hit a field that stays valid, e.g. a letter
/// of a name) or throws an `InputError` naming the file. Never a crash, a hang or a huge allocation.
final class HostilePackTests: XCTestCase {
    static let mutations = 3000

    /// Runs the mutations; `open` opens the damaged bytes and reads every entry.
    private func fuzz(_ good: [UInt8], digestBytes: Int, seed: UInt64, name: String, open: ([UInt8]) throws -> Void) throws {
        try open(good)   // the intact pack reads
        let mutator = PackMutator(good, digestBytes: digestBytes)
        var rng = SplitMix64(seed: seed)
        var refused = 0
        for _ in 0..<Self.mutations {
            let (bytes, what) = mutator.mutate(&rng)
            do {
                try open(bytes)
            } catch let e as InputError {
                XCTAssertEqual(e.file, name, what)
                refused += 1
            } catch {
                XCTFail("\(what): not an InputError: \(error)")
            }
        }
        // Most damages must be caught; the rest hit bytes that stay meaningful.
        XCTAssertGreaterThan(refused, Self.mutations * 3 / 4, "\(name): only \(refused) of \(Self.mutations) refused")
    }

    func testRoutingPacks() throws {
        var rng = SplitMix64(seed: 7)
        let tiles = (0..<12).map { i in (id: UInt32(1000 + i * 37), raw: Array(repeating: UInt8(i), count: rng.below(600)) + rng.bytes(rng.below(300))) }
        let header = RoutingPackHeader(dataVersion: "2024-05-01-1", profileName: "car", profileHash: "3fa9c0de", gridDegrees: 0.25,
                                       regionBBox: (9.47, 47.04, 9.64, 47.28), createdBy: "HostilePackTests")
        let good = try RoutingPackWriter.encode(header: header, tiles: tiles)
        try fuzz(good, digestBytes: 0, seed: 1, name: "r.pack") { bytes in
            let reader = try RoutingPackReader(bytes: bytes, name: "r.pack")
            for i in 0..<reader.tileCount { _ = try reader.tileBytes(at: i) }
        }
    }

    func testMapPacks() throws {
        var rng = SplitMix64(seed: 8)
        let parent = TileCoordinate(z: 4, x: 8, y: 5)
        var tiles: [(TileCoordinate, ArraySlice<UInt8>)] = [(parent, rng.bytes(200)[...])]
        for z in 5...6 {
            let n = 1 << (z - 4)
            for dx in 0..<n { for dy in 0..<n where (dx + dy) % 2 == 0 {
                let c = TileCoordinate(z: z, x: parent.x * n + dx, y: parent.y * n + dy)
                tiles.append((c, (dx == 0 ? Array(repeating: 9, count: 50) : rng.bytes(rng.below(400)))[...]))
            } }
        }
        let header = MapPackHeader(band: ZoomBand(4, 6), parent: parent, tilesetId: "t", tileType: .mvt, tileCompression: .gzip)
        let good = MapPackWriter.encode(header: header, tiles: tiles).bytes
        try fuzz(good, digestBytes: 0, seed: 2, name: "m.pack") { bytes in
            let reader = try MapPackReader(bytes: bytes, name: "m.pack")
            try reader.verify()
            for e in reader.entries { _ = try reader.tile(e.coordinate) }
        }
    }

    func testStylePacks() throws {
        var rng = SplitMix64(seed: 9)
        let style = Array(#"{"version":8,"name":"s","glyphs":"g/{fontstack}/{range}.pbf","layers":[]}"#.utf8)
        let resources: [(info: StyleResourceInfo, bytes: [UInt8])] = [
            (StyleResourceInfo(kind: .style, path: "style.json", url: "s", group: "", pixelRatio: 0, rangeStart: 0), style),
            (StyleResourceInfo(kind: .glyphRange, path: "glyphs/F/0-255.pbf", url: "g/F/0-255.pbf", group: "F", pixelRatio: 0, rangeStart: 0), rng.bytes(300)),
            (StyleResourceInfo(kind: .glyphRange, path: "glyphs/F/256-511.pbf", url: "g/F/256-511.pbf", group: "F", pixelRatio: 0, rangeStart: 256), rng.bytes(200)),
        ]
        let contents = StylePackContents(uri: "s", createdBy: "HostilePackTests", glyphsMode: .all, pixelRatios: [1], fontStacks: ["F"],
                                         sprites: [], sources: [StyleSource(id: "v", type: "vector", url: "mbtiles://s", tiles: [])],
                                         resources: resources)
        let good = try StylePackWriter.encode(contents)
        try fuzz(good, digestBytes: 32, seed: 3, name: "s.stylepack") { bytes in
            let pack = try StylePack(bytes: bytes, name: "s.stylepack")
            for r in pack.resources { _ = pack.bytes(of: r) }
        }
    }
}
