import Dispatch
import Foundation
import OffgridCore
import TestSupport
import XCTest

/// An `InputError` is one line whatever the hostile name or content it echoes.
final class InputErrorOneLineTests: XCTestCase {
    func testHostileFileNameAndContentStayOnOneLine() {
        let e = InputError(file: "evil\nname.pbf", offset: 7, "unknown key \"a\r\nb\u{1B}[31m\"\u{2028}")
        XCTAssertEqual(e.description, #"evil\nname.pbf at byte 7: unknown key "a\r\nb\u{1B}[31m"\u{2028}"#)
        XCTAssertFalse(e.description.contains("\n"))
        XCTAssertFalse(e.description.contains("\r"))
        XCTAssertFalse(e.description.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x2028 })
    }

    func testPlainMessagesAreUnchanged() {
        XCTAssertEqual(InputError(file: "a b/ü.json", offset: 3, "not \"x\" \\ y").description, #"a b/ü.json at byte 3: not "x" \ y"#)
        XCTAssertEqual(InputError("tab\there").description, #"tab\there"#)
        XCTAssertEqual(OneLine.escaped("é\u{7F}\u{85}"), #"é\u{7F}\u{85}"#)
    }

    /// A tool echoing a hostile file name: its stderr holds exactly one line.
    func testToolStderrIsOneLineForAHostileFileName() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("offgrid-oneline-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("bad\nsecond line.osm.pbf").path
        FileManager.default.createFile(atPath: path, contents: Data("not a pbf file".utf8))
        let r = try TestTools.run("tilepack-build", ["pbf-info", path])
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertEqual(r.stderr.split(separator: "\n", omittingEmptySubsequences: false).count, 2, r.stderr)  // one line and its newline
        XCTAssertTrue(r.stderr.contains(#"bad\nsecond line.osm.pbf"#), r.stderr)
    }
}

/// `TempPathRegistry` from many threads at once: every registration gets its own slot and the
/// table empties again. The slot states used to be published outside the lock, a data race
/// ThreadSanitizer reported (make test-sanitized runs this test under it).
final class TempPathRegistryRaceTests: XCTestCase {
    func testConcurrentRegisterAndUnregister() {
        let baseline = TempPathRegistry.registeredCount
        let threads = 8, rounds = 200
        let lock = NSLock()
        var duplicates = 0
        var held = Set<Int>()
        DispatchQueue.concurrentPerform(iterations: threads) { t in
            for r in 0..<rounds {
                guard let slot = TempPathRegistry.register("/tmp/offgrid-race-\(t)-\(r)") else { continue }
                lock.lock()
                if !held.insert(slot).inserted { duplicates += 1 }
                lock.unlock()
                lock.lock()
                held.remove(slot)
                lock.unlock()
                TempPathRegistry.unregister(slot)
            }
        }
        XCTAssertEqual(duplicates, 0, "two threads held the same slot")
        XCTAssertEqual(TempPathRegistry.registeredCount, baseline)
    }
}
