import Foundation
import ToolSupport
import OffgridCore
import XCTest

/// The progress bar and NDJSON events executables print.
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
