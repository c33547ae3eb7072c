import OffgridCore
import Foundation
import RoutingPacks
import StylePacks
@testable import TileStore
import TestSupport
import XCTest

/// Style packs: resources stored once by content hash, updates write only what changed.
/// Routing packs: every tile checked, stored once, attached to a region.
final class StyleAndRoutingTests: XCTestCase {
    var scratch: Scratch!
    var store: String { scratch.path("store") }
    override func setUp() { scratch = Scratch() }
    override func tearDown() { scratch.remove() }

    /// A small style pack: the style, four glyph ranges of one stack (two of them identical).
    private func stylePack(_ name: String, uri: String = "test-style", style: String = #"{"version":8,"name":"t"}"#,
                           glyphs: [[UInt8]]) throws -> String {
        let stack = "Test Regular"
        var resources: [(info: StyleResourceInfo, bytes: [UInt8])] = [
            (StyleResourceInfo(kind: .style, path: "style.json", url: uri, group: "", pixelRatio: 0, rangeStart: 0), Array(style.utf8)),
        ]
        for (i, g) in glyphs.enumerated() {
            let start = 256 * i
            resources.append((StyleResourceInfo(kind: .glyphRange, path: "glyphs/\(stack)/\(start)-\(start + 255).pbf",
                                                url: "glyphs/\(stack)/\(start)-\(start + 255).pbf", group: stack,
                                                pixelRatio: 0, rangeStart: start), g))
        }
        let contents = StylePackContents(uri: uri, createdBy: "TileStoreTests", glyphsMode: .all, pixelRatios: [1],
                                         fontStacks: [stack], sprites: [], sources: [], resources: resources)
        let path = scratch.path(name)
        try Data(try StylePackWriter.encode(contents)).write(to: URL(fileURLWithPath: path))
        return path
    }

    private func resourcePath(_ bytes: [UInt8]) -> String {
        (store as NSString).appendingPathComponent(StoreLayout.relativePath(kind: .styleResource, sha256: SHA256.hex(SHA256.hash(bytes))))
    }

    func testStyleInstallDedupesAndUpdatesOnlyChangedResources() throws {
        let g0: [UInt8] = [1, 2, 3], g1: [UInt8] = [], g2: [UInt8] = [], g3: [UInt8] = Array(repeating: 7, count: 100)
        let v1 = try stylePack("v1.stylepack", glyphs: [g0, g1, g2, g3])
        let first = try withStore(store) { try $0.installStyle(pack: v1) }
        XCTAssertEqual(first.resources, 5)
        XCTAssertEqual(first.uniqueResources, 4, "two empty ranges are one file")
        XCTAssertEqual(first.resourcesWritten, 4)
        let before = [g0, g1, g3].map { fileIdentity(resourcePath($0)) }
        let styleBefore = fileIdentity(resourcePath(Array(#"{"version":8,"name":"t"}"#.utf8)))
        usleep(20_000)

        // Same URI, new style JSON and one glyph range changed.
        let g3b: [UInt8] = Array(repeating: 8, count: 100)
        let v2 = try stylePack("v2.stylepack", style: #"{"version":8,"name":"t2"}"#, glyphs: [g0, g1, g2, g3b])
        let second = try withStore(store) { try $0.installStyle(pack: v2) }
        XCTAssertEqual(second.created, false)
        XCTAssertEqual(second.resourcesWritten, 2)
        XCTAssertEqual(second.resourcesChanged, 2)
        XCTAssertEqual(second.resourcesUnchanged, 3)
        XCTAssertEqual(second.filesReleased, 2)
        XCTAssertEqual([g0, g1].map { fileIdentity(resourcePath($0)) }, Array(before[0...1]), "unchanged resources untouched")
        XCTAssertEqual(fileIdentity(resourcePath(g3)), before[2], "replaced resource kept until evicted")
        XCTAssertEqual(fileIdentity(resourcePath(Array(#"{"version":8,"name":"t"}"#.utf8))), styleBefore)

        // A second style sharing glyphs: stored once.
        let other = try stylePack("other.stylepack", uri: "other-style", style: #"{"version":8,"name":"o"}"#, glyphs: [g0, g1])
        let third = try withStore(store) { try $0.installStyle(pack: other) }
        XCTAssertEqual(third.resourcesWritten, 1, "only its style JSON")
        let styles = try withStore(store, access: .read) { try $0.styles() }
        XCTAssertEqual(styles.styles.map(\.uri), ["other-style", "test-style"])
        XCTAssertEqual(styles.styles.map(\.complete), [true, true])

        // remove-style: only what no other style uses becomes evictable.
        let removed = try withStore(store) { try $0.removeStyle(uri: "test-style") }
        XCTAssertEqual(removed.filesReleased, 2, "its style JSON and g3b; other-style still uses g0 and the empty range")
        let evicted = try withStore(store) { try $0.evictUnused(all: true) }
        XCTAssertEqual(evicted.evictedFiles, 4, "2 released now + 2 released by the update")
        XCTAssertNotNil(fileIdentity(resourcePath(g0)))
        XCTAssertNotNil(fileIdentity(resourcePath(g1)))
        assertThrowsInputError(try withStore(self.store) { try $0.removeStyle(uri: "test-style") }, contains: "no style")
        XCTAssertTrue(try withStore(store, access: .verify) { try $0.verify(repair: false) }.consistent)
    }

    func testSampleStylePackInstalls() throws {
        let style = repositoryRoot.appendingPathComponent("samples/style/style.json").path
        guard FileManager.default.fileExists(atPath: style) else { throw XCTSkip("no sample style") }
        let pack = scratch.path("basic.stylepack")
        _ = try StylePackBuilder.write(style: style, resources: repositoryRoot.appendingPathComponent("samples/style").path,
                                       options: StylePackOptions(pixelRatios: [1, 2]), output: pack)
        let result = try withStore(store) { try $0.installStyle(pack: pack) }
        let parsed = try StylePack(path: pack)
        XCTAssertEqual(result.resources, parsed.resources.count)
        XCTAssertEqual(result.uniqueResources, Set(parsed.resources.map(\.contentHash)).count)
        let again = try withStore(store) { try $0.installStyle(pack: pack) }
        XCTAssertEqual(again.resourcesWritten, 0)
    }

    private func routingPack(_ name: String, ids: [UInt32], seed: UInt64 = 1) throws -> String {
        var rng = SplitMix(seed: seed)
        let tiles = ids.map { (id: $0, raw: rng.bytes(3_000 + Int($0 % 7) * 100)) }
        let header = RoutingPackHeader(dataVersion: "2024-05-01-1", profileName: "car", profileHash: "3fa9c0de", gridDegrees: 0.25,
                                       regionBBox: (9.47, 47.04, 9.64, 47.28), createdBy: "TileStoreTests")
        let path = scratch.path(name)
        try RoutingPackWriter.write(header: header, tiles: tiles, to: path)
        return path
    }

    func testRoutingPackInstallAndRegionRecord() throws {
        let pack = try routingPack("li.routing.pack", ids: [100, 101, 102])
        // Map region and routing pack under one id: one region with both.
        try makeRegion(scratch.path("li"), id: "li", packs: [.at(0)])
        try withStore(store) { _ = try $0.installRegion(directory: scratch.path("li")) }
        let result = try withStore(store) { try $0.installRouting(pack: pack, regionId: "li") }
        XCTAssertEqual(result.created, false)
        XCTAssertEqual(result.copied, true)
        XCTAssertEqual(result.tiles, 3)
        let show = try withStore(store, access: .read) { try $0.region(id: "li") }
        XCTAssertEqual(show.packs, RegionPackCounts(map: 1, routing: 1))
        XCTAssertEqual(show.routing["dataVersion"], "2024-05-01-1")
        // Another region with the same pack: stored once; a new region gets the pack's bbox as geometry.
        let other = try withStore(store) { try $0.installRouting(pack: pack, regionId: "li-routing") }
        XCTAssertEqual(other.created, true)
        XCTAssertEqual(other.alreadyStored, true)
        let created = try withStore(store, access: .read) { try $0.region(id: "li-routing") }
        XCTAssertEqual(created.bbox, [9.47, 47.04, 9.64, 47.28])
        XCTAssertEqual(created.geometry["type"], "Polygon")
        // Re-installing the map region keeps the routing pack.
        try withStore(store) { _ = try $0.installRegion(directory: scratch.path("li")) }
        let kept = try withStore(store, access: .read) { try $0.region(id: "li") }
        XCTAssertEqual(kept.packs, RegionPackCounts(map: 1, routing: 1))
        // An updated pack replaces the region's routing pack.
        let v2 = try routingPack("li2.routing.pack", ids: [100, 101, 102, 103], seed: 2)
        let update = try withStore(store) { try $0.installRouting(pack: v2, regionId: "li") }
        XCTAssertEqual(update.packsReleased, 0, "li-routing still uses the old one")
        XCTAssertEqual(try withStore(store, access: .read) { try $0.summary().files }, 3)
    }

    func testCorruptRoutingPackIsRefused() throws {
        let pack = try routingPack("bad.routing.pack", ids: [100, 101, 102])
        var bytes = [UInt8](FileManager.default.contents(atPath: pack)!)
        bytes[bytes.count - 20] ^= 0x10   // inside the last tile's compressed bytes
        try Data(bytes).write(to: URL(fileURLWithPath: pack))
        assertThrowsInputError(try withStore(self.store) { try $0.installRouting(pack: pack, regionId: "x") },
                               contains: "bad.routing.pack at byte")
        let summary = try withStore(store, access: .read) { try $0.summary() }
        XCTAssertEqual(summary.files, 0)
        XCTAssertEqual(summary.regions, 0)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: scratch.path("store/tmp")), [])
        assertThrowsInputError(try withStore(self.store) { try $0.installRouting(pack: self.scratch.path("nope"), regionId: "x") },
                               contains: "cannot open")
    }
}
