import XCTest
@testable import TileStore

final class StoreCreationTests: XCTestCase {
    /// Which directories a writer makes (or opens as) a store. The last case is the race two
    /// processes creating one store ran into (CI, `testConcurrentInstallsFromTwoProcesses`): the
    /// second saw no index, then listed the directory after the first renamed its index into
    /// place, and refused a store as "not empty (index.sqlite)".
    func testWhatKeepsADirectoryFromBecomingAStore() {
        XCTAssertNil(StoreLayout.foreignEntry(in: []), "empty")
        XCTAssertNil(StoreLayout.foreignEntry(in: ["lock", "maps", "tmp", "index.sqlite.creating", "index.sqlite.creating-journal"]),
                     "left by an interrupted creation")
        XCTAssertEqual(StoreLayout.foreignEntry(in: ["notes.txt"]), "notes.txt")
        XCTAssertEqual(StoreLayout.foreignEntry(in: ["lock", "maps", "photo.jpg"]), "photo.jpg")
        XCTAssertEqual(StoreLayout.foreignEntry(in: ["index.sqlite-wal"]), "index.sqlite-wal", "a WAL without its index")
        XCTAssertNil(StoreLayout.foreignEntry(in: StoreLayout.directories + ["lock", "index.sqlite", "index.sqlite-wal", "index.sqlite-shm"]),
                     "another process has just created the store")
    }
}
