import Foundation
import OffgridCore
import TestSupport
import TileStore
import XCTest

/// Schema version 3 (the ambient cache): a version 2 index is read as it is and upgraded in place
/// by the first writer; the sqlite3 command line reads what the index holds.
final class AmbientSchemaTests: XCTestCase {
    func sqlite(_ db: String, _ sql: String) throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        p.arguments = [db, sql]
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0, "sqlite3 \(sql)")
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func testVersion2IndexIsReadAsItIsAndUpgradedByTheFirstWriter() throws {
        let scratch = Scratch("offgrid-ambient-schema")
        defer { scratch.remove() }
        let store = scratch.path("store"), dir = scratch.path("r1")
        try makeRegion(dir, id: "r1", packs: [FixturePack.at(1), FixturePack.at(2)])
        try withStore(store) { s in _ = try s.installRegion(directory: dir) }
        let index = store + "/index.sqlite"
        XCTAssertEqual(try sqlite(index, "SELECT value FROM meta WHERE key = 'schema_version'"), "3")
        // What a version 2 index is: no ambient table.
        _ = try sqlite(index, "DROP TABLE ambient_packs; UPDATE meta SET value = '2' WHERE key = 'schema_version'")

        try withStore(store, access: .read) { s in
            XCTAssertEqual(try s.ambientReport(limit: nil).packs, 0)
            XCTAssertEqual(try s.summary().regions, 1)
            XCTAssertEqual(try s.repositoryPackVersions(), [:])
        }
        XCTAssertEqual(try sqlite(index, "SELECT value FROM meta WHERE key = 'schema_version'"), "2", "a reader writes nothing")

        try withStore(store) { s in _ = try s.quotaStatus() }
        XCTAssertEqual(try sqlite(index, "SELECT value FROM meta WHERE key = 'schema_version'"), "3")
        XCTAssertEqual(try sqlite(index, "SELECT COUNT(*) FROM sqlite_master WHERE name IN ('ambient_packs', 'ambient_packs_by_use', 'ambient_packs_by_key')"), "3")
        XCTAssertEqual(try sqlite(index, "SELECT COUNT(*) FROM region_packs"), "2", "the rows are kept")
        try withStore(store, access: .verify) { s in XCTAssertTrue(try s.verify(repair: false).consistent) }
        // An ambient row of a pack a region uses: listed as in a region; clearing drops the row, not the pack.
        let sha = SHA256.hex(SHA256.hash(FixturePack.at(1).bytes))
        _ = try sqlite(index, "PRAGMA foreign_keys=ON; INSERT INTO ambient_packs VALUES ('\(sha)', 't', 'k', '1', 's', 1, 0, 0)")
        XCTAssertEqual(try withStore(store) { s in try s.ambientReport(limit: nil) }.packsInRegions, 1)
        XCTAssertEqual(try withStore(store) { s in try s.clearAmbient() }.cleared?.regionPacksKept, 1)
        XCTAssertEqual(try sqlite(index, "SELECT COUNT(*) FROM ambient_packs"), "0")
        XCTAssertEqual(try sqlite(index, "SELECT COUNT(*) FROM region_packs"), "2", "a region's pack stays")
    }
}
