import OffgridCore
import Foundation
import MapPacks
@testable import TileStore
import TileSources
import TestSupport
import XCTest

/// verify finds a flipped byte; --repair drops the file and marks the regions using it incomplete;
/// installing the region again completes it.
final class VerifyRepairTests: XCTestCase {
    var scratch: Scratch!
    var store: String { scratch.path("store") }
    override func setUp() { scratch = Scratch() }
    override func tearDown() { scratch.remove() }

    func testFlippedByteIsFoundAndRepaired() throws {
        try makeRegion(scratch.path("a"), id: "a", packs: [.at(0), .at(1)])
        try makeRegion(scratch.path("b"), id: "b", packs: [.at(1), .at(2)])
        try withStore(store) { s in
            _ = try s.installRegion(directory: scratch.path("a"))
            _ = try s.installRegion(directory: scratch.path("b"))
        }
        var clean = try withStore(store, access: .verify) { try $0.verify(repair: false) }
        XCTAssertTrue(clean.consistent)
        XCTAssertEqual(clean.ok, 3)

        // Flip one byte in the middle of the shared pack.
        let shared = storedPath(store, .at(1))
        var bytes = [UInt8](FileManager.default.contents(atPath: shared)!)
        bytes[bytes.count / 2] ^= 0x01
        try Data(bytes).write(to: URL(fileURLWithPath: shared))
        // And leave an orphan, as a crash between a copy and its commit would.
        try FileManager.default.createDirectory(atPath: (store as NSString).appendingPathComponent("maps/00"), withIntermediateDirectories: true)
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: (store as NSString).appendingPathComponent("maps/00/" + String(repeating: "0", count: 64) + ".pack")))

        let report = try withStore(store, access: .verify) { try $0.verify(repair: false) }
        XCTAssertFalse(report.consistent)
        let corrupt = report.corrupt
        XCTAssertEqual(corrupt.count, 1)
        XCTAssertEqual(corrupt.first?.sha256, sha(.at(1)))
        XCTAssertTrue((corrupt.first?.problem ?? "").hasPrefix("SHA-256 is "))
        XCTAssertEqual(report.orphans.count, 1)
        XCTAssertEqual(report.regionsIncomplete, [], "not repaired: nothing dropped yet")

        let repaired = try withStore(store) { try $0.verify(repair: true) }
        XCTAssertEqual(repaired.repaired, true)
        XCTAssertEqual(repaired.regionsIncomplete, ["a", "b"])
        XCTAssertNil(fileIdentity(shared))
        clean = try withStore(store, access: .verify) { try $0.verify(repair: false) }
        XCTAssertTrue(clean.consistent)
        XCTAssertEqual(clean.orphans, [])
        let list = try withStore(store, access: .read) { try $0.regions() }
        XCTAssertEqual(list.regions.map(\.complete), [false, false])
        let show = try withStore(store, access: .read) { try $0.region(id: "a") }
        XCTAssertEqual(show.packList.map(\.present), [true, false])
        try withStore(store, access: .read) { s in
            XCTAssertNil(try s.tile(z: 11, x: 1079, y: 719, tileset: "fixture")?.bytes, "the dropped pack answers no more")
        }

        // Installing a again restores the pack: both regions complete.
        let again = try withStore(store) { try $0.installRegion(directory: scratch.path("a")) }
        XCTAssertEqual(again.packsCopied, 1)
        let after = try withStore(store, access: .read) { try $0.regions() }
        XCTAssertEqual(after.regions.map(\.complete), [true, true])
        XCTAssertTrue(try withStore(store, access: .verify) { try $0.verify(repair: false) }.consistent)
    }

    func testMissingFileIsReportedAndRestoredByInstall() throws {
        try makeRegion(scratch.path("a"), id: "a", packs: [.at(0), .at(1)])
        try withStore(store) { _ = try $0.installRegion(directory: scratch.path("a")) }
        try FileManager.default.removeItem(atPath: storedPath(store, .at(0)))
        let report = try withStore(store, access: .verify) { try $0.verify(repair: false) }
        XCTAssertFalse(report.consistent)
        XCTAssertEqual(report.missing.count, 1)
        // An install notices the missing file and writes it again.
        let result = try withStore(store) { try $0.installRegion(directory: scratch.path("a")) }
        XCTAssertEqual(result.packsRestored, 1)
        XCTAssertTrue(try withStore(store, access: .verify) { try $0.verify(repair: false) }.consistent)
    }
}
