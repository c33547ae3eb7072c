import OffgridCore
import Foundation
import MapPacks
@testable import TileStore
import TileSources
import TestSupport
import XCTest

/// Quota: eviction of unused packs nearest expiry first, starting 50 MB below the quota; packs in
/// use never evicted; installs the quota cannot hold refused; quota 0 wipes.
final class QuotaAndEvictionTests: XCTestCase {
    var scratch: Scratch!
    var store: String { scratch.path("store") }
    override func setUp() { scratch = Scratch() }
    override func tearDown() { scratch.remove() }

    /// Four regions of one pack each with these expiries, installed then removed (all unused).
    private func installAndRemove(_ expiries: [Any]) throws -> [FixturePack] {
        var packs: [FixturePack] = []
        for (i, e) in expiries.enumerated() {
            let p = FixturePack.at(i, tileBytes: 20_000)
            packs.append(p)
            try makeRegion(scratch.path("r\(i)"), id: "r\(i)", packs: [p], expires: e)
            try withStore(store) { _ = try $0.installRegion(directory: scratch.path("r\(i)")) }
        }
        for i in expiries.indices { try withStore(store) { _ = try $0.removeRegion(id: "r\(i)") } }
        return packs
    }

    func testEvictionOrderIsNearestExpiryFirst() throws {
        let packs = try installAndRemove(["2031-01-01T00:00:00Z", "2030-01-01T00:00:00Z", NSNull(), "2032-06-01"])
        let sizes = packs.map { Int64($0.bytes.count) }
        let evicted = try withStore(store) { try $0.evictUnused(all: true) }
        let order = evicted.evicted.map(\.sha256)
        XCTAssertEqual(order, [sha(packs[1]), sha(packs[0]), sha(packs[3]), sha(packs[2])],
                       "2030, 2031, 2032, then the pack that never expires")
        XCTAssertEqual(evicted.evictedBytes, sizes.reduce(0, +))
    }

    func testEvictionStartsWithin50MBOfTheQuota() throws {
        let packs = try installAndRemove(["2031-01-01T00:00:00Z", "2030-01-01T00:00:00Z", NSNull(), "2032-06-01"])
        let total = packs.reduce(Int64(0)) { $0 + Int64($1.bytes.count) }
        // Store exactly at the threshold (quota − 50 MB): nothing evicted.
        var result = try withStore(store) { try $0.setQuota(total + evictionMargin) }
        XCTAssertEqual(result.evicted.files, 0)
        XCTAssertEqual(try withStore(store) { try $0.evictUnused(all: false).evictedFiles }, 0)
        // One byte over the threshold: the nearest expiry goes, and only it.
        result = try withStore(store) { try $0.setQuota(total + evictionMargin - 1) }
        XCTAssertEqual(result.evicted.files, 1)
        XCTAssertNil(fileIdentity(storedPath(store, packs[1])), "expires 2030: first out")
        XCTAssertNotNil(fileIdentity(storedPath(store, packs[0])))
        // A threshold between: down to it, in expiry order.
        let keep = Int64(packs[2].bytes.count + packs[3].bytes.count)
        result = try withStore(store) { try $0.setQuota(keep + evictionMargin) }
        XCTAssertEqual(result.evicted.files, 1)
        XCTAssertNil(fileIdentity(storedPath(store, packs[0])))
        XCTAssertNotNil(fileIdentity(storedPath(store, packs[2])))
        XCTAssertNotNil(fileIdentity(storedPath(store, packs[3])))
        let summary = try withStore(store, access: .read) { try $0.summary() }
        XCTAssertEqual(summary.bytes, keep)
        XCTAssertEqual(summary.evictionThreshold, keep)
    }

    func testPacksInUseAreNeverEvictedAndInstallsEvictToMakeRoom() throws {
        let used = FixturePack.at(9, tileBytes: 20_000)
        try makeRegion(scratch.path("used"), id: "used", packs: [used], expires: "2020-01-01T00:00:00Z")
        var options = InstallOptions()
        options.acceptExpired = true
        try withStore(store) { _ = try $0.installRegion(directory: scratch.path("used"), options: options) }
        let unused = try installAndRemove(["2030-01-01T00:00:00Z", "2031-01-01T00:00:00Z"].map { $0 as Any })
        _ = unused
        // A quota far below the store: every unused pack goes; the expired pack in use stays.
        let result = try withStore(store) { try $0.setQuota(1000) }
        XCTAssertEqual(result.overQuota, true)
        XCTAssertNotNil(fileIdentity(storedPath(store, used)))
        let summary = try withStore(store, access: .read) { try $0.summary() }
        XCTAssertEqual(summary.files, 1)
        XCTAssertEqual(summary.evictableFiles, 0)
    }

    func testInstallBeyondTheQuotaIsRefusedBeforeCopying() throws {
        let packs = (0..<3).map { FixturePack.at($0, tileBytes: 20_000) }
        let size = Int64(packs.reduce(0) { $0 + $1.bytes.count })
        try makeRegion(scratch.path("a"), id: "a", packs: packs)
        try withStore(store) { _ = try $0.setQuota(size - 1) }
        assertThrowsInputError(try withStore(self.store) { try $0.installRegion(directory: self.scratch.path("a")) },
                               contains: "would exceed the store's quota")
        let summary = try withStore(store, access: .read) { try $0.summary() }
        XCTAssertEqual(summary.files, 0)
        XCTAssertEqual(summary.regions, 0)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: scratch.path("store/tmp")), [])
        // Exactly the quota fits (eviction would only take unused packs; there are none).
        try withStore(store) { _ = try $0.setQuota(size) }
        XCTAssertNoThrow(try withStore(store) { try $0.installRegion(directory: scratch.path("a")) })

        // Unused packs are evicted to make room; packs in use count in full.
        try withStore(store) { _ = try $0.removeRegion(id: "a") }
        let other = (3..<5).map { FixturePack.at($0, tileBytes: 20_000) }
        try makeRegion(scratch.path("b"), id: "b", packs: other)
        let installed = try withStore(store) { try $0.installRegion(directory: scratch.path("b")) }
        XCTAssertEqual(installed.evicted.files, 3, "a's packs made room")
        // b in use, a fresh region that needs more than the rest of the quota: refused.
        try makeRegion(scratch.path("c"), id: "c", packs: (5..<8).map { FixturePack.at($0, tileBytes: 20_000) })
        assertThrowsInputError(try withStore(self.store) { try $0.installRegion(directory: self.scratch.path("c")) },
                               contains: "over the quota of \(size) bytes")
    }

    func testQuotaZeroWipesEverything() throws {
        try makeRegion(scratch.path("a"), id: "a", packs: [.at(0), .at(1)])
        try withStore(store) { _ = try $0.installRegion(directory: scratch.path("a")) }
        let result = try withStore(store) { try $0.setQuota(0) }
        XCTAssertEqual(result.wiped, true)
        XCTAssertEqual(result.regionsRemoved, 1)
        let summary = try withStore(store, access: .read) { try $0.summary() }
        XCTAssertEqual(summary.files, 0)
        XCTAssertEqual(summary.regions, 0)
        XCTAssertEqual(try FileManager.default.subpathsOfDirectory(atPath: scratch.path("store/maps")).filter { $0.hasSuffix(".pack") }, [])
        assertThrowsInputError(try withStore(self.store) { try $0.installRegion(directory: self.scratch.path("a")) },
                               contains: "the quota is 0")
        try withStore(store) { _ = try $0.setQuota(nil) }
        XCTAssertNoThrow(try withStore(store) { try $0.installRegion(directory: scratch.path("a")) })
    }
}
