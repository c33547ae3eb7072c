#if canImport(Glibc)
import Glibc
#endif
import Foundation
import OffgridCore
@testable import RouteQuery
import TestSupport
import XCTest

/// The byte-level batch loop answers exactly what the per-line answers written by the string
/// writer say, in input order, whatever the chunking; its number spelling is the exact writer's.
final class BatchRunnerTests: XCTestCase {
    func data() throws -> RoutingData { try RoutingData(path: try SampleGraphFixture.graphPath()) }

    /// Runs `runner` on `input` through real files; returns stdout's bytes.
    func run(_ runner: BatchRunner, _ input: String) throws -> String {
        let dir = FileManager.default.temporaryDirectory
        let inPath = dir.appendingPathComponent("batch-in-\(getpid()).ndjson").path
        let outPath = dir.appendingPathComponent("batch-out-\(getpid()).ndjson").path
        defer { unlink(inPath); unlink(outPath) }
        try Data(input.utf8).write(to: URL(fileURLWithPath: inPath))
        let inFD = open(inPath, O_RDONLY), outFD = open(outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        XCTAssertGreaterThanOrEqual(inFD, 0)
        XCTAssertGreaterThanOrEqual(outFD, 0)
        let report = try runner.run(input: inFD, output: outFD)
        close(inFD)
        close(outFD)
        XCTAssertEqual(report.queries, report.latenciesMicros.count)
        return try String(contentsOfFile: outPath, encoding: .utf8)
    }

    func testAnswersEqualThePerLineWriterInOrder() throws {
        let d = try data()
        var rng = FixtureRandom(seed: 5)
        func coordinate() -> String {
            String(9.47 + Double(rng.next() % 100_000) / 100_000 * 0.16) + "," + String(47.05 + Double(rng.next() % 100_000) / 100_000 * 0.2)
        }
        // Plain lines (over several groups and chunks), odd ids, other keys, bad lines, blank lines, CRLF.
        var lines: [String] = []
        for i in 0..<500 {
            switch i % 23 {
            case 3: lines.append("not json")
            case 5: lines.append(#"{"id":"x\"y","from":[\#(coordinate())],"to":[\#(coordinate())]}"#)
            case 7: lines.append(#"{"id":\#(i).5,"from":[\#(coordinate())],"to":[\#(coordinate())],"steps":false}"#)
            case 11: lines.append(#"{"id":\#(i),"from":[\#(coordinate())],"to":[200,47]}"#)
            case 13: lines.append(#"{"id":[1,{"a":null}],"from":[\#(coordinate())],"to":[\#(coordinate())]}"#)
            case 17: lines.append("{\"id\":\(i),\"from\":[\(coordinate())],\"to\":[\(coordinate())]}\r")
            default: lines.append(#"{"id":\#(i),"from":[\#(coordinate())],"to":[\#(coordinate())]}"#)
            }
        }
        var input = ""
        for (i, line) in lines.enumerated() {
            input += line + "\n"
            if i % 100 == 99 { input += "  \t\n" }   // blank: no answer
        }
        input.removeLast()   // the last line without its newline
        for durationOnly in [false, true] {
            var runner = BatchRunner(data: d, defaults: RouteRequest(coordinates: []), full: false, durationOnly: durationOnly, threads: 2)
            runner.groupLines = 96   // several groups, chunks and a last short one
            runner.chunkLines = 7
            let service = try RouteService(data: d)
            var expected = ""
            for line in lines {
                runner.answer(service, Substring(line)).writeJSON(to: &expected)
                expected += "\n"
            }
            let got = try run(runner, input)
            XCTAssertEqual(got.split(separator: "\n").count, lines.count)
            XCTAssertTrue(got == expected, "durationOnly \(durationOnly): the byte loop differs from the per-line writer")
            XCTAssertGreaterThan(got.components(separatedBy: "\"code\":\"Ok\"").count, lines.count / 2)
        }
        // Full routes go through the string writer too.
        var full = BatchRunner(data: d, defaults: RouteRequest(coordinates: []), full: true, threads: 2)
        full.groupLines = 40
        full.chunkLines = 3
        let service = try RouteService(data: d)
        var expected = ""
        for line in lines.prefix(100) { full.answer(service, Substring(line)).writeJSON(to: &expected); expected += "\n" }
        XCTAssertTrue(try run(full, lines.prefix(100).joined(separator: "\n") + "\n") == expected)
        // Groups sized by the answers' bytes (here the smallest group, 4 chunks a thread, each
        // time): the same answers in the same order.
        full.groupBytes = 1
        XCTAssertTrue(try run(full, lines.prefix(100).joined(separator: "\n") + "\n") == expected, "groups cut by bytes")
        XCTAssertEqual(try run(full, ""), "", "no input, no answers")
    }

    func testNumbersAreSpelledAsTheExactWriter() {
        var rng = FixtureRandom(seed: 9)
        var values: [Double] = [0, -0.0, 0.1, 0.05, 0.15, -0.5, 1.5, 9.95, 99_999_999_999_999.9, 1e14, 1e15, 1e16, 123.456, 1e-7, -3,
                                Double(Int64.max), 5e-324, 1.7976931348623157e308]
        for _ in 0..<20_000 {
            let tenths = Int64(rng.next() % 100_000_000)
            values.append(Double(tenths) / 10)
            values.append((Double(rng.next() % 1_000_000_000) / 1_000 * 10).rounded() / 10)
            values.append(-Double(tenths) / 10)
            values.append(Double(bitPattern: rng.next() & 0x7FEF_FFFF_FFFF_FFFF))
            // Millionths (coordinates): near zero, in degrees, and up to the 1e9 bound.
            let millionths = Int64(rng.next() % 1_000_000_000_000_000)
            values.append(Double(millionths) / 1e6)
            values.append(-Double(millionths % 400_000_000) / 1e6)
            values.append(Double(millionths % 200_000) / 1e6)
        }
        values += [0.099999, 0.100001, 999_999_999.999999, 1e9 + 0.5, 1e9 - 1e-6, 47.000001, -9.000010, 0.25]
        for v in values {
            var text = "", bytes: [UInt8] = [], buffer = JSONBuffer(capacity: 1)
            JSONWriter.writeDouble(v, to: &text)
            JSONBytes.writeDouble(v, to: &bytes)
            JSONBytes.writeDouble(v, to: &buffer)
            XCTAssertEqual(String(decoding: bytes, as: UTF8.self), text, "\(v.bitPattern)")
            XCTAssertEqual(String(decoding: buffer.bytes, as: UTF8.self), text, "\(v.bitPattern)")
        }
        for v in [Int64.min, Int64.max, 0, -1, 7, 1_000_000] {
            var bytes: [UInt8] = []
            JSONBytes.writeInt(v, to: &bytes)
            XCTAssertEqual(String(decoding: bytes, as: UTF8.self), String(v))
        }
    }
}
