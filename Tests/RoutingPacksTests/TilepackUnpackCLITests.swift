import Foundation
@testable import RoutingPacks
import TestSupport
import XCTest

/// Runs the built `tilepack-unpack` binary: exit codes, one-line errors, stdout JSON.
final class TilepackUnpackCLITests: XCTestCase {
    var scratch: ScratchDirectory!
    override func setUp() { scratch = ScratchDirectory() }
    override func tearDown() { scratch.remove() }

    private func run(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        try TestTools.run("tilepack-unpack", arguments)
    }

    func testSuccessPrintsSummaryAndRerunIsNoop() throws {
        let pack = try PackFixtures.writePack(scratch, name: "li.routing.pack", ids: [1, 2, 3])
        let dir = scratch.path("routing")
        let first = try run([pack, "--output", dir, "--progress", "json"])
        XCTAssertEqual(first.status, 0, first.stderr)
        let summary = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(first.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(summary["tiles"] as? Int, 3)
        XCTAssertEqual(summary["tilesAdded"] as? Int, 3)
        XCTAssertEqual(summary["dataVersion"] as? String, "2024-05-01-1")
        XCTAssertEqual(summary["output"] as? String, dir)
        XCTAssertEqual(summary["noop"] as? Bool, false)
        let events = first.stderr.split(separator: "\n").map {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
        }
        XCTAssertFalse(events.isEmpty)
        XCTAssertTrue(events.allSatisfy { $0 != nil }, first.stderr)
        XCTAssertEqual(events.last??["event"] as? String, "done")

        let second = try run([pack, "--output", dir, "--quiet"])
        XCTAssertEqual(second.status, 0)
        XCTAssertEqual(second.stderr, "")
        XCTAssertTrue(second.stdout.contains("\"noop\" : true"), second.stdout)
    }

    func testCorruptPackExitsOneWithOneLineNamingTheFile() throws {
        let pack = try PackFixtures.writePack(scratch, name: "li.routing.pack", ids: [1, 2, 3])
        var bytes = PackFixtures.bytes(pack)
        bytes[bytes.count - 3] ^= 0xFF
        let corrupt = scratch.path("broken.routing.pack")
        PackFixtures.write(bytes, to: corrupt)
        let dir = scratch.path("routing")
        let result = try run([corrupt, "--output", dir, "--progress", "none"])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stdout, "")
        let lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.isEmpty }
        XCTAssertEqual(lines.count, 1, result.stderr)
        XCTAssertTrue(result.stderr.hasPrefix("tilepack-unpack: error: "), result.stderr)
        XCTAssertTrue(result.stderr.contains("broken.routing.pack"), result.stderr)
        XCTAssertTrue(result.stderr.contains("tile 3"), result.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir))
        XCTAssertEqual(scratch.leftovers(), [])

        let pbf = try run([PackFixtures.samplePBF, "--output", dir])
        XCTAssertEqual(pbf.status, 1)
        XCTAssertTrue(pbf.stderr.contains("OSM PBF"), pbf.stderr)
    }

    func testUsageErrorsExitTwo() throws {
        XCTAssertEqual(try run([]).status, 2)
        XCTAssertEqual(try run(["x.routing.pack"]).status, 2, "missing --output")
        XCTAssertEqual(try run(["x.routing.pack", "--output", "d", "--progress", "loud"]).status, 2)
    }

    func testHelpShowsUsageAndAnExample() throws {
        let help = try run(["--help"])
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(help.stdout.contains("USAGE: tilepack-unpack <pack> --output <dir>"), help.stdout)
        XCTAssertTrue(help.stdout.contains("tilepack-unpack liechtenstein.routing.pack --output"), help.stdout)
    }
}

extension TilepackUnpackCLITests {
    /// SIGINT in the middle of an unpack, at the named point where the new tree is complete but
    /// not yet swapped in: the process dies of the signal (the handler removes the partial tree
    /// and re-raises it), DIR is untouched, and the next run leaves nothing behind.
    func testInterruptLeavesDirectoryIntact() throws {
        let dir = scratch.path("routing")
        let small = try PackFixtures.writePack(scratch, name: "a.routing.pack", ids: [1, 2])
        XCTAssertEqual(try run([small, "--output", dir]).status, 0)
        let before = TreeSnapshot(dir)
        let big = try PackFixtures.writePack(scratch, name: "big.routing.pack", ids: Array(100..<400))

        let process = try TestTools.start("tilepack-unpack", [big, "--output", dir, "--progress", "none"],
                                          environment: ["OFFGRID_FAULT_AT": "unpack-partial-written:INT"])
        process.waitUntilExit()
        XCTAssertEqual(process.terminationReason, .uncaughtSignal)
        XCTAssertEqual(process.terminationStatus, SIGINT)
        XCTAssertEqual(TreeSnapshot(dir), before)
        // A full partial tree cannot be removed from a signal handler (rmdir only, async-signal-safe):
        // it waits for the next run.
        XCTAssertEqual(scratch.leftovers().count, 1)

        // The next run (here a no-op) clears what the killed one left.
        let rerun = try run([small, "--output", dir])
        XCTAssertEqual(rerun.status, 0)
        XCTAssertTrue(rerun.stdout.contains("\"noop\" : true"), rerun.stdout)
        XCTAssertEqual(scratch.leftovers(), [])
        XCTAssertEqual(TreeSnapshot(dir), before)
    }
}
