import Foundation
import ToolSupport
import OffgridCore
import XCTest

/// ProgressReporter, JSONOutput and AtomicFile: the ToolSupport pieces the unpacker is built on.
final class ProgressReporterTests: XCTestCase {
    /// A reporter whose clock the test moves by hand.
    private func reporter(_ mode: ProgressMode, terminal: Bool = false,
                          itemName: String = "tiles") -> (ProgressReporter, () -> [String], (UInt64) -> Void) {
        final class State { var lines: [String] = []; var now: UInt64 = 1_000_000_000 }
        let state = State()
        let r = ProgressReporter(mode: mode, label: "unpack", totalBytes: 5_000_000, totalItems: 10, itemName: itemName,
                                 isTerminal: terminal, sink: { state.lines.append($0) }, clock: { state.now })
        return (r, { state.lines }, { state.now += $0 * 1_000_000 })
    }

    func testJSONLinesAreExactAndThrottledTo500ms() {
        let (r, lines, advance) = reporter(.json)
        r.update(bytesDone: 0, itemsDone: 0)          // first: always
        advance(100); r.update(bytesDone: 1_000, itemsDone: 1)
        advance(300); r.update(bytesDone: 2_000, itemsDone: 2)
        advance(200); r.update(bytesDone: 3_000, itemsDone: 3)  // 600 ms after the first
        advance(499); r.update(bytesDone: 4_000, itemsDone: 4)
        r.finish(extra: ["zeta": "a/b", "alpha": true, "count": 3])
        r.finish()
        r.update(bytesDone: 9, itemsDone: 9)
        XCTAssertEqual(lines(), [
            #"{"event":"progress","totalBytes":5000000,"bytesRemaining":5000000,"tiles":10,"tilesDone":0}"# + "\n",
            #"{"event":"progress","totalBytes":5000000,"bytesRemaining":4997000,"tiles":10,"tilesDone":3}"# + "\n",
            #"{"event":"done","totalBytes":5000000,"bytesRemaining":4996000,"tiles":10,"tilesDone":4,"alpha":true,"count":3,"zeta":"a/b"}"# + "\n",
        ])
    }

    func testItemNameNamesTheCountFields() {
        let (r, lines, _) = reporter(.json, itemName: "packs")
        r.update(bytesDone: 1, itemsDone: 1)
        XCTAssertEqual(lines(), [#"{"event":"progress","totalBytes":5000000,"bytesRemaining":4999999,"packs":10,"packsDone":1}"# + "\n"])
    }

    func testNoneAndAutoOffATerminalAreSilent() {
        for (mode, terminal) in [(ProgressMode.none, true), (.auto, false)] {
            let (r, lines, advance) = reporter(mode, terminal: terminal)
            r.update(bytesDone: 1, itemsDone: 1)
            advance(1000)
            r.update(bytesDone: 2, itemsDone: 2)
            r.finish(extra: ["x": 1])
            XCTAssertEqual(lines(), [], "\(mode)")
        }
    }

    func testBarOnATerminalIsRedrawnAtMostTenTimesASecond() {
        let (r, lines, advance) = reporter(.auto, terminal: true)
        r.update(bytesDone: 0, itemsDone: 0)
        for i in 1...10 {
            advance(20)
            r.update(bytesDone: Int64(i) * 250_000, itemsDone: i / 2)
        }
        XCTAssertEqual(lines().count, 3, "frames at 0, 100 and 200 ms of updates every 20 ms")
        advance(1000)
        r.update(bytesDone: 2_500_000, itemsDone: 5)
        let frame = lines().last ?? ""
        XCTAssertTrue(frame.hasPrefix("\runpack 50% 2.5 MB/5.0 MB 5/10 tiles"), frame)
        XCTAssertTrue(frame.contains("tiles/s") && frame.contains("MB/s"), frame)
        XCTAssertFalse(frame.contains("\n"))
        r.finish()
        XCTAssertEqual(lines().last, "\n")
    }

    func testCancelEndsTheBarLineWithoutADoneEvent() {
        let (bar, barLines, _) = reporter(.auto, terminal: true)
        bar.update(bytesDone: 1, itemsDone: 1)
        bar.cancel()
        XCTAssertEqual(barLines().last, "\n")
        let (json, jsonLines, _) = reporter(.json)
        json.update(bytesDone: 1, itemsDone: 1)
        json.cancel()
        json.finish()
        XCTAssertEqual(jsonLines().count, 1)
    }

    func testHumanBytes() {
        XCTAssertEqual(ProgressReporter.humanBytes(999), "999 B")
        XCTAssertEqual(ProgressReporter.humanBytes(1_500), "1.5 kB")
        XCTAssertEqual(ProgressReporter.humanBytes(2_345_678), "2.3 MB")
        XCTAssertEqual(ProgressReporter.humanBytes(7_000_000_000), "7.0 GB")
    }

    func testProgressModeParsesLikeAnArgument() {
        XCTAssertEqual(ProgressMode(argument: "json"), .json)
        XCTAssertNil(ProgressMode(argument: "JSON!"))
        XCTAssertEqual(ProgressMode.allCases.map(\.rawValue), ["auto", "json", "none"])
    }
}

final class JSONOutputTests: XCTestCase {
    func testSortedKeysUnescapedSlashesAndDeterminism() {
        let value: [String: Any] = ["z": 1, "a": ["path": "out/routing", "b": [true, NSNull()]], "m": 0.25]
        XCTAssertEqual(JSONOutput.string(value, pretty: false),
                       #"{"a":{"b":[true,null],"path":"out/routing"},"m":0.25,"z":1}"#)
        let pretty = JSONOutput.string(value)
        XCTAssertTrue(pretty.contains("\n"))
        XCTAssertTrue(pretty.contains("out/routing"))
        XCTAssertEqual(pretty, JSONOutput.string(value))
        XCTAssertEqual(JSONOutput.string("a\"b", pretty: false), #""a\"b""#)
        XCTAssertEqual(JSONOutput.string(UInt32.max, pretty: false), "4294967295")
    }
}

final class AtomicFileTests: XCTestCase {
    var scratch: ScratchDirectory!
    override func setUp() { scratch = ScratchDirectory() }
    override func tearDown() { scratch.remove() }

    func testWriteReplacesTheTargetAndLeavesNoTemporaryFile() throws {
        let path = scratch.path("out.bin")
        try AtomicFile.write([1, 2, 3], to: path)
        try AtomicFile.write([4, 5], to: path)
        XCTAssertEqual(PackFixtures.bytes(path), [4, 5])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: scratch.root), ["out.bin"])
    }

    func testStreamingWriterCommitAbandonAndDrop() throws {
        let path = scratch.path("out.bin")
        try AtomicFile.write([9], to: path)
        let baseline = TempPathRegistry.registeredCount

        let writer = try AtomicFile.create(path)
        XCTAssertTrue((writer.temporaryPath as NSString).lastPathComponent.hasPrefix(".out.bin.tmp-\(getpid())-"))
        XCTAssertEqual(TempPathRegistry.registeredCount, baseline + 1)
        try writer.write([1, 2])
        try writer.write([3])
        XCTAssertEqual(PackFixtures.bytes(path), [9], "target untouched until commit")
        try writer.commit()
        XCTAssertEqual(PackFixtures.bytes(path), [1, 2, 3])
        XCTAssertThrowsError(try writer.write([4]))

        let abandoned = try AtomicFile.create(path)
        try abandoned.write([7, 7, 7])
        abandoned.abandon()
        abandoned.abandon()
        do {
            let dropped = try AtomicFile.create(path)
            try dropped.write([8])
        }
        XCTAssertEqual(PackFixtures.bytes(path), [1, 2, 3])
        XCTAssertEqual(scratch.leftovers(), [])
        XCTAssertEqual(TempPathRegistry.registeredCount, baseline)
    }

    func testFailureNamesThePathAndLeavesNothing() {
        assertInputError(try AtomicFile.write([1], to: scratch.path("missing/out.bin")), contains: "missing/out.bin")
        // Renaming a file over a directory fails after the temporary file was written.
        try? FileManager.default.createDirectory(atPath: scratch.path("dir"), withIntermediateDirectories: true)
        PackFixtures.write([0], to: scratch.path("dir/keep"))
        assertInputError(try AtomicFile.write([1], to: scratch.path("dir")), contains: "cannot rename")
        XCTAssertEqual(scratch.leftovers(), [])
    }

    func testSignalTimeCleanupRemovesRegisteredFiles() throws {
        let writer = try AtomicFile.create(scratch.path("out.bin"))
        try writer.write([1])
        XCTAssertTrue(FileManager.default.fileExists(atPath: writer.temporaryPath))
        // What the SIGINT/SIGTERM handler runs before re-raising the signal.
        TempPathRegistry.removeRegisteredPaths()
        XCTAssertFalse(FileManager.default.fileExists(atPath: writer.temporaryPath))
        writer.abandon()
        XCTAssertNil(TempPathRegistry.register(String(repeating: "x", count: TempPathRegistry.maxPathBytes)))
    }
}
