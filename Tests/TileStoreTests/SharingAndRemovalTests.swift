import OffgridCore
import Foundation
import MapPacks
import TileMath
@testable import TileStore
import TileSources
import TestSupport
import XCTest

/// Shared packs are stored once and counted once; removing a region leaves the others whole.
final class SharingAndRemovalTests: XCTestCase {
    var scratch: Scratch!
    var store: String { scratch.path("store") }
    override func setUp() { scratch = Scratch() }
    override func tearDown() { scratch.remove() }

    func testSharedPacksAreStoredOnceAndCountedOnce() throws {
        let a = [FixturePack.at(0), .at(1), .at(2)]
        let b = [FixturePack.at(1), .at(2), .at(3)]
        try makeRegion(scratch.path("a"), id: "a", packs: a)
        try makeRegion(scratch.path("b"), id: "b", packs: b)
        let first = try withStore(store) { try $0.installRegion(directory: scratch.path("a")) }
        XCTAssertEqual(first.packsCopied, 3)
        XCTAssertEqual(first.created, true)
        let second = try withStore(store) { try $0.installRegion(directory: scratch.path("b")) }
        XCTAssertEqual(second.packsCopied, 1, "packs 1 and 2 are stored already")
        XCTAssertEqual(second.packsAlreadyStored, 2)
        XCTAssertEqual(second.bytesCopied, Int64(FixturePack.at(3).bytes.count))

        let all = a + [.at(3)]
        let summary = try withStore(store, access: .read) { try $0.summary() }
        XCTAssertEqual(summary.mapPacks, 4)
        XCTAssertEqual(summary.mapPacksInRegions, 4)
        XCTAssertEqual(summary.bytes, Int64(all.reduce(0) { $0 + $1.bytes.count }))
        let files = try FileManager.default.subpathsOfDirectory(atPath: scratch.path("store/maps")).filter { $0.hasSuffix(".pack") }
        XCTAssertEqual(files.count, 4)

        // show: which regions share each pack.
        let show = try withStore(store, access: .read) { try $0.region(id: "b") }
        let packs = show.packList
        XCTAssertEqual(packs.count, 3)
        XCTAssertEqual(packs.filter { $0.sharedWith == ["a"] }.count, 2)
        XCTAssertTrue(packs.allSatisfy { $0.present == true })

        // Limits count shared packs once: 4 unique packs fit a limit of 4, whatever the regions.
        try makeRegion(scratch.path("c"), id: "c", packs: [.at(0), .at(3)], limits: ["maxPacks": 4])
        XCTAssertNoThrow(try withStore(store) { try $0.installRegion(directory: scratch.path("c")) })
        // A fifth unique pack does not, and is refused before anything is copied.
        try makeRegion(scratch.path("d"), id: "d", packs: [.at(4)], limits: ["maxPacks": 4])
        assertThrowsInputError(try withStore(self.store) { try $0.installRegion(directory: self.scratch.path("d")) },
                               contains: "too many map packs")
        var options = InstallOptions()
        options.maxPacks = 4
        try makeRegion(scratch.path("d"), id: "d", packs: [.at(4)])
        assertThrowsInputError(try withStore(self.store) { try $0.installRegion(directory: self.scratch.path("d"), options: options) },
                               contains: "5 unique packs, over the limit of 4")
        let after = try withStore(store, access: .read) { try $0.summary() }
        XCTAssertEqual(after.mapPacks, 4, "nothing copied")
        XCTAssertEqual(after.regions, 3)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: scratch.path("store/tmp")), [])

        // The legacy tile ceiling, also across regions with shared packs counted once.
        let tilesNow = all.reduce(0) { $0 + $1.tiles.count }
        var tileOptions = InstallOptions()
        tileOptions.maxTiles = tilesNow
        try makeRegion(scratch.path("e"), id: "e", packs: [.at(1)])
        XCTAssertNoThrow(try withStore(store) { try $0.installRegion(directory: scratch.path("e"), options: tileOptions) })
        // "e" recorded maxTiles = tilesNow; one more unique pack would exceed it ("c" and its
        // pack limit of 4 removed first, so only the tile limit applies).
        try withStore(store) { _ = try $0.removeRegion(id: "c") }
        try makeRegion(scratch.path("g"), id: "g", packs: [.at(5)])
        var big = InstallOptions()
        big.maxPacks = 100
        assertThrowsInputError(try withStore(self.store) { try $0.installRegion(directory: self.scratch.path("g"), options: big) },
                               contains: "too many tiles")
    }

    func testRemoveKeepsOtherRegionsIntactAndOnlyUnreferences() throws {
        try makeRegion(scratch.path("a"), id: "a", packs: [.at(0), .at(1), .at(2)])
        try makeRegion(scratch.path("b"), id: "b", packs: [.at(1), .at(2), .at(3)])
        try withStore(store) { s in
            _ = try s.installRegion(directory: scratch.path("a"))
            _ = try s.installRegion(directory: scratch.path("b"))
        }
        let removed = try withStore(store) { try $0.removeRegion(id: "a") }
        XCTAssertEqual(removed.packs, 3)
        XCTAssertEqual(removed.packsReleased, 1, "only pack 0 is used by no region now")
        XCTAssertEqual(removed.packsStillShared, 2)
        XCTAssertEqual(removed.bytesReleased, Int64(FixturePack.at(0).bytes.count))
        // Not deleted at once: evictable.
        XCTAssertNotNil(fileIdentity(storedPath(store, .at(0))))
        let list = try withStore(store, access: .read) { try $0.regions() }
        let regions = list.regions
        XCTAssertEqual(regions.map { $0.id }, ["b"])
        XCTAssertEqual(regions[0].complete, true)
        XCTAssertEqual(regions[0].packs.map, 3)
        let summary = list.store
        XCTAssertEqual(summary.evictableFiles, 1)

        // Eviction takes only the released pack; every tile of b still reads.
        let evicted = try withStore(store) { try $0.evictUnused(all: true) }
        XCTAssertEqual(evicted.evictedFiles, 1)
        XCTAssertNil(fileIdentity(storedPath(store, .at(0))))
        try withStore(store, access: .read) { s in
            for p in [FixturePack.at(1), .at(2), .at(3)] {
                for (c, bytes) in p.tiles {
                    let got = try XCTUnwrap(try s.tile(z: c.z, x: c.x, y: c.y, tileset: "fixture"))
                    XCTAssertEqual(Array(got.bytes), bytes)
                }
            }
            XCTAssertNil(try s.tile(z: 11, x: 1078, y: 719, tileset: "fixture")?.bytes, "pack 0 was evicted")
        }
        let report = try withStore(store, access: .verify) { try $0.verify(repair: false) }
        XCTAssertTrue(report.consistent)
        assertThrowsInputError(try withStore(self.store) { try $0.removeRegion(id: "a") }, contains: "no region \"a\"")
    }

    func testGetPrefersPacksInUseAndReadsEveryTile() throws {
        let packs = [FixturePack.at(0), .at(1), FixturePack(band: ZoomBand(6, 10), parent: TileCoordinate(z: 6, x: 33, y: 22), seed: 7)]
        try makeRegion(scratch.path("a"), id: "a", packs: packs)
        try withStore(store) { _ = try $0.installRegion(directory: scratch.path("a")) }
        try withStore(store, access: .read) { s in
            for p in packs {
                for (c, bytes) in p.tiles {
                    let got = try XCTUnwrap(try s.tile(z: c.z, x: c.x, y: c.y, tileset: nil), "\(c)")
                    XCTAssertEqual(Array(got.bytes), bytes)
                }
            }
            XCTAssertNil(try s.tile(z: 14, x: 0, y: 0, tileset: "fixture")?.bytes)
            XCTAssertNil(try s.tile(z: 12, x: 2 * 1078 + 1, y: 2 * 719 + 1, tileset: "fixture")?.bytes, "child 3 is not in the pack")
            assertThrowsInputError(try s.tile(z: 3, x: 8, y: 0, tileset: "fixture")?.pack ?? "", contains: "does not exist")
        }
        // A newer version of pack 0 in another region: get answers from a pack in use.
        try makeRegion(scratch.path("b"), id: "b", packs: [.at(0, seed: 99)])
        try withStore(store) { s in
            _ = try s.installRegion(directory: scratch.path("b"))
            _ = try s.removeRegion(id: "a")
        }
        let newer = FixturePack.at(0, seed: 99)
        try withStore(store, access: .read) { s in
            let got = try XCTUnwrap(try s.tile(z: 11, x: 1078, y: 719, tileset: "fixture"))
            XCTAssertEqual(Array(got.bytes), newer.tiles[0].1)
        }
    }
}
