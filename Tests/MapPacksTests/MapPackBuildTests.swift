import Foundation
@testable import MapPacks
import TileMath
import TileSources
import OffgridCore
import XCTest
import TestSupport

/// Building packs from the real sample: contents, estimate = build, limits, determinism,
/// container independence.
final class MapPackBuildTests: XCTestCase {
    var scratch: Scratch!
    override func setUp() { scratch = Scratch() }
    override func tearDown() { scratch.remove() }

    func region(_ name: String) throws -> Region {
        try Region.parse(geoJSON: try String(contentsOfFile: repoPath("samples/regions/\(name).geojson"), encoding: .utf8))
    }

    func build(_ source: TileSource, _ region: Region, _ options: MapBuildOptions = MapBuildOptions(), to dir: String) throws -> (MapBuildPlan, [MapPackBuilder.BuiltPack]) {
        let plan = try MapPackBuilder.plan(source: source, region: region, options: options)
        let built = try MapPackBuilder.build(plan: plan, source: source, region: region, options: options, output: dir, progress: SilentProgress())
        return (plan, built)
    }

    /// Every pack holds exactly the source's tiles under its parent within its band, bytes as stored.
    func testPackContentsEqualTheSourceSubtrees() throws {
        let source = try TileSources.open(path: sampleMBTiles)
        let dir = scratch.path("oberland")
        let (plan, built) = try build(source, try region("liechtenstein-oberland"), to: dir)
        XCTAssertEqual(built.count, plan.packs.count)
        XCTAssertGreaterThan(built.count, 2)
        let all = try source.allTiles()
        for p in built {
            let reader = try MapPackReader(path: (dir as NSString).appendingPathComponent(p.header.relativePath))
            XCTAssertEqual(reader.header, p.header)
            XCTAssertEqual(reader.header.tilesetId, source.info.name)
            let expected = all.filter { p.header.band.zooms.contains($0.coordinate.z) && $0.coordinate.ancestor(atZoom: p.header.parent.z) == p.header.parent }
            XCTAssertEqual(reader.entries.map(\.coordinate), expected.map(\.coordinate))
            for e in reader.entries { XCTAssertEqual(Array(try reader.tile(e)), try source.tile(e.coordinate)) }
        }
        // The packs of the whole-region build hold every source tile (the region covers the sample).
        XCTAssertEqual(built.reduce(0) { $0 + $1.stats.tiles }, all.count)
        let manifest = try jsonObject(try String(contentsOfFile: (dir as NSString).appendingPathComponent("region.json"), encoding: .utf8))
        XCTAssertEqual(manifest["id"] as? String, "region")
        XCTAssertEqual((manifest["packs"] as? [Any])?.count, built.count)
        let tileset = try XCTUnwrap(manifest["tileset"] as? [String: Any])
        XCTAssertEqual(tileset["tileType"] as? String, "mvt")
        XCTAssertEqual((tileset["zoom"] as? [String: Any])?["widened"] as? [Int], [0, 14])
    }

    /// Identical tiles are stored once per pack: the sample's empty gzip tiles share bytes.
    func testDuplicatesAreStoredOnce() throws {
        let source = try TileSources.open(path: sampleMBTiles)
        let (_, built) = try build(source, try region("liechtenstein-oberland"), to: scratch.path("d"))
        XCTAssertEqual(built.reduce(0) { $0 + $1.stats.tiles } - built.reduce(0) { $0 + $1.stats.uniqueTiles }, 1)
        // A source made of one repeated tile: one blob per pack.
        let tiles = (0...3).flatMap { z in (0..<(1 << z)).flatMap { x in (0..<(1 << z)).map { y in
            (TileCoordinate(z: z, x: x, y: y), Array(repeating: UInt8(7), count: 300)[...]) } } }
        let (bytes, stats) = MapPackWriter.encode(header: MapPackHeader(band: ZoomBand(0, 3), parent: TileCoordinate(z: 0, x: 0, y: 0),
                                                                        tilesetId: "", tileType: .png, tileCompression: .none), tiles: tiles)
        XCTAssertEqual(stats.tiles, 85)
        XCTAssertEqual(stats.uniqueTiles, 1)
        XCTAssertLessThan(bytes.count, 85 * 39 + 300 + 200)   // 39-byte container index entries (docs/FORMATS.md)
    }

    func testEstimateEqualsTheBuild() throws {
        for path in [sampleMBTiles, samplePMTiles] {
            for (name, zooms) in [("vaduz-2km", 0...16), ("vaduz-balzers-corridor", 8...15), ("liechtenstein-oberland", 12...13)] {
                let source = try TileSources.open(path: path)
                var options = MapBuildOptions()
                options.zooms = zooms
                let r = try region(name)
                let plan = try MapPackBuilder.plan(source: source, region: r, options: options)
                let built = try MapPackBuilder.build(plan: plan, source: source, region: r, options: options,
                                                     output: scratch.path("e-\(name)"), progress: SilentProgress())
                XCTAssertEqual(plan.packs.count, built.count)
                XCTAssertEqual(plan.tiles, built.reduce(0) { $0 + $1.stats.tiles })
                XCTAssertEqual(plan.tileBytes, built.reduce(0) { $0 + $1.stats.tileBytes })
                for band in plan.zoomPlan.bands {
                    XCTAssertEqual(plan.packs.filter { $0.header.band == band }.map(\.tiles.count),
                                   built.filter { $0.header.band == band }.map(\.stats.tiles))
                }
            }
        }
    }

    func testMBTilesAndPMTilesGiveIdenticalOutputs() throws {
        for name in ["liechtenstein-oberland", "vaduz-2km", "vaduz-balzers-corridor"] {
            let a = scratch.path("m-\(name)"), b = scratch.path("p-\(name)")
            _ = try build(try TileSources.open(path: sampleMBTiles), try region(name), to: a)
            _ = try build(try TileSources.open(path: samplePMTiles), try region(name), to: b)
            let ta = treeContents(a), tb = treeContents(b)
            XCTAssertGreaterThan(ta.count, 2)
            XCTAssertEqual(ta, tb, name)
        }
    }

    func testDeterministicAndAtomicRebuild() throws {
        let source = try TileSources.open(path: samplePMTiles)
        let dir = scratch.path("again")
        _ = try build(source, try region("vaduz-2km"), to: dir)
        let first = treeContents(dir)
        _ = try build(source, try region("vaduz-2km"), to: dir)
        XCTAssertEqual(treeContents(dir), first)
        // A failing build (over the tile ceiling) leaves the output as it was and no partial tree.
        var options = MapBuildOptions()
        options.maxTiles = 5
        XCTAssertThrowsError(try build(source, try region("liechtenstein-oberland"), options, to: dir)) { e in
            XCTAssertTrue("\(e)".contains("too many tiles: 180 > 5"), "\(e)")
        }
        XCTAssertEqual(treeContents(dir), first)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).filter { $0.contains(".partial-") }
        XCTAssertEqual(leftovers, [])
        // A different region replaces the tree: packs no longer needed are gone.
        _ = try build(source, try region("liechtenstein-oberland"), to: dir)
        XCTAssertNotEqual(treeContents(dir), first)
        // An unrelated directory is never replaced.
        let other = scratch.path("precious")
        try FileManager.default.createDirectory(atPath: other, withIntermediateDirectories: true)
        try scratch.write("precious/notes.txt", "keep me")
        XCTAssertThrowsError(try build(source, try region("vaduz-2km"), to: other))
        XCTAssertEqual(try String(contentsOfFile: other + "/notes.txt", encoding: .utf8), "keep me")
    }

    func testPartDigestsAgreeAndThreadsDoNotChangeOutputs() throws {
        var rng = SplitMix64(seed: 9)
        for n in [0, 1, 55, 64, 1000, 70_000] {
            let a = (0..<n).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            let b = Array(a.reversed())
            XCTAssertEqual(SHA256.hex(parts: [a[...], b[...]]), SHA256.hex(SHA256.hash(a + b)))
        }
        let source = try TileSources.open(path: sampleMBTiles)
        let r = try region("liechtenstein-oberland")
        let plan = try MapPackBuilder.plan(source: source, region: r, options: MapBuildOptions())
        var trees: [[String: Data]] = []
        for threads in [1, 2, 5] {
            let dir = scratch.path("t\(threads)")
            _ = try MapPackBuilder.build(plan: plan, source: source, region: r, options: MapBuildOptions(), output: dir,
                                         threads: threads, progress: SilentProgress())
            trees.append(treeContents(dir))
        }
        XCTAssertEqual(trees[0], trees[1])
        XCTAssertEqual(trees[0], trees[2])
    }

    func testPackLimitIsCheckedBeforeWork() throws {
        let cover = TileCover(try Region.bbox(BBox(minLon: -10, minLat: 35, maxLon: 30, maxLat: 60)))
        let plan = try ZoomPlan(requested: 0...16, source: 0...16, bands: .standard)
        XCTAssertThrowsError(try MapPackBuilder.checkPackLimit(cover: cover, zoomPlan: plan, maxPacks: 750)) { e in
            let text = (e as? InputError)?.description ?? ""
            XCTAssertTrue(text.hasPrefix("too many packs: "), text)
            XCTAssertTrue(text.contains(" > 750 (band 0-5: 1, band 6-10: "), text)
        }
        // Whole-world z15-16 packs are counted, not listed (a billion of them).
        let world = TileCover(try Region.bbox(BBox(minLon: -180, minLat: -85.06, maxLon: 180, maxLat: 85.06)))
        let deep = try ZoomPlan(requested: 15...16, source: 0...16, bands: .standard)
        XCTAssertThrowsError(try MapPackBuilder.checkPackLimit(cover: world, zoomPlan: deep, maxPacks: 750)) { e in
            XCTAssertTrue("\(e)".contains("too many packs: 1073741824 > 750"), "\(e)")
        }
    }
}
