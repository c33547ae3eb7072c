import OffgridCore
import Foundation
import MapPacks
@testable import TileStore
import TileSources
import TestSupport
import XCTest

/// Re-installing a region updates it in place: only changed (or expired) packs are written; the
/// files of the others keep their inode and mtime.
final class UpdateInPlaceTests: XCTestCase {
    var scratch: Scratch!
    var store: String { scratch.path("store") }
    override func setUp() { scratch = Scratch() }
    override func tearDown() { scratch.remove() }

    func testOnlyChangedPacksAreReplaced() throws {
        let v1 = [FixturePack.at(0), .at(1), .at(2), .at(3)]
        try makeRegion(scratch.path("v1"), id: "oberland", packs: v1, metadata: ["v": 1])
        try withStore(store) { _ = try $0.installRegion(directory: scratch.path("v1")) }
        let before = v1.map { fileIdentity(storedPath(store, $0)) }
        XCTAssertTrue(before.allSatisfy { $0 != nil })
        usleep(20_000)   // so a rewrite would show in the mtime even on coarse clocks

        // v2: pack 2 has new tiles, pack 3 is gone, pack 4 is new.
        let v2 = [FixturePack.at(0), .at(1), .at(2, seed: 4242), .at(4)]
        try makeRegion(scratch.path("v2"), id: "oberland", packs: v2, metadata: ["v": 2])
        let result = try withStore(store) { try $0.installRegion(directory: scratch.path("v2")) }
        XCTAssertEqual(result.created, false)
        XCTAssertEqual(result.packsUnchanged, 2)
        XCTAssertEqual(result.packsChanged, 1)
        XCTAssertEqual(result.packsAdded, 1)
        XCTAssertEqual(result.packsDropped, 1)
        XCTAssertEqual(result.packsCopied, 2)
        XCTAssertEqual(result.packsReleased, 2, "old pack 2 and pack 3")
        XCTAssertEqual(fileIdentity(storedPath(store, v1[0])), before[0], "unchanged pack untouched")
        XCTAssertEqual(fileIdentity(storedPath(store, v1[1])), before[1], "unchanged pack untouched")
        // The replaced packs stay until evicted; the region lists only v2's.
        XCTAssertEqual(fileIdentity(storedPath(store, v1[2])), before[2])
        let show = try withStore(store, access: .read) { try $0.region(id: "oberland") }
        XCTAssertEqual(Set(show.packList.map(\.sha256)), Set(v2.map(sha)))
        XCTAssertEqual(show.metadata["v"], 2)
        XCTAssertEqual(show.complete, true)

        // The same version again: nothing written at all.
        let ids = v2.map { fileIdentity(storedPath(store, $0)) }
        let again = try withStore(store) { try $0.installRegion(directory: scratch.path("v2")) }
        XCTAssertEqual(again.packsCopied, 0)
        XCTAssertEqual(again.bytesCopied, 0)
        XCTAssertEqual(again.packsUnchanged, 4)
        XCTAssertEqual(v2.map { fileIdentity(storedPath(store, $0)) }, ids)
    }

    func testExpiredRegionsAndExpiredPacks() throws {
        let packs = [FixturePack.at(0), .at(1)]
        // An expired region is refused unless accepted.
        try makeRegion(scratch.path("old"), id: "r", packs: packs, expires: "2001-01-01T00:00:00Z")
        assertThrowsInputError(try withStore(self.store) { try $0.installRegion(directory: self.scratch.path("old")) },
                               contains: "expired on 2001-01-01T00:00:00Z; pass --accept-expired")
        XCTAssertEqual(try withStore(store, access: .read) { try $0.summary().files }, 0)

        // Installed while valid (expiry 2030); re-installed after 2030 with a later expiry: the
        // stored copies are expired, so they are written again …
        try makeRegion(scratch.path("v1"), id: "r", packs: packs, expires: "2030-01-01T00:00:00Z")
        try withStore(store) { _ = try $0.installRegion(directory: scratch.path("v1")) }
        let before = packs.map { fileIdentity(storedPath(store, $0)) }
        usleep(20_000)
        try makeRegion(scratch.path("v2"), id: "r", packs: packs, expires: "2040-01-01T00:00:00Z")
        let in2031 = Expiry.parse("2031-01-01T00:00:00Z")!
        let accepted = try withStore(store, now: in2031) { s -> RegionInstallReport in
            var o = InstallOptions()
            o.acceptExpired = true
            return try s.installRegion(directory: scratch.path("v2"), options: o)
        }
        // … unless --accept-expired, which keeps them.
        XCTAssertEqual(accepted.packsRewrittenExpired, 0)
        XCTAssertEqual(packs.map { fileIdentity(storedPath(store, $0)) }, before)
        // Expiry now 2040; back to 2030 and forward again to see the rewrite.
        try withStore(store) { _ = try $0.installRegion(directory: scratch.path("v1")) }
        let rewritten = try withStore(store, now: in2031) { try $0.installRegion(directory: scratch.path("v2")) }
        XCTAssertEqual(rewritten.packsRewrittenExpired, 2)
        XCTAssertEqual(rewritten.packsCopied, 0)
        for (p, b) in zip(packs, before) { XCTAssertNotEqual(fileIdentity(storedPath(store, p)), b) }
        let list = try withStore(store, access: .read, now: in2031) { try $0.regions() }
        let region = try XCTUnwrap(list.regions.first)
        XCTAssertEqual(region.expires, "2040-01-01T00:00:00Z")
        XCTAssertEqual(region.expired, false)
        XCTAssertTrue(try withStore(store, access: .verify) { try $0.verify(repair: false) }.consistent)
    }

    func testPackNotMatchingTheManifestIsRefused() throws {
        try makeRegion(scratch.path("a"), id: "a", packs: [.at(0), .at(1)])
        // Flip a byte of one pack after region.json was written.
        let file = scratch.path("a/packs/11-14/11-1079-719.pack")
        var bytes = [UInt8](FileManager.default.contents(atPath: file)!)
        bytes[bytes.count - 5] ^= 0x40
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        assertThrowsInputError(try withStore(self.store) { try $0.installRegion(directory: self.scratch.path("a")) },
                               contains: "11-1079-719.pack: SHA-256")
        let summary = try withStore(store, access: .read) { try $0.summary() }
        XCTAssertEqual(summary.files, 0, "nothing indexed")
        XCTAssertEqual(summary.regions, 0)
        let left = try FileManager.default.subpathsOfDirectory(atPath: store).filter { $0.hasSuffix(".pack") || $0.hasSuffix(".tmp") }
        XCTAssertEqual(left, [], "no file left behind")
        // A missing pack file is named before anything is copied.
        try FileManager.default.removeItem(atPath: file)
        assertThrowsInputError(try withStore(self.store) { try $0.installRegion(directory: self.scratch.path("a")) },
                               contains: "11-1079-719.pack: missing")
        assertThrowsInputError(try withStore(self.store) { try $0.installRegion(directory: self.scratch.path("nowhere")) },
                               contains: "not a directory")
    }
}
