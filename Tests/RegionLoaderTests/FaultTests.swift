import Foundation
import OffgridCore
import PackRepository
import TestSupport
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// Faults between the client and nginx (Tests/python/fault_proxy.py): each one fails the load
/// with one line naming the URL and leaves the store as it was; the next attempt completes
/// without fetching again what it already has.
final class FaultTests: XCTestCase {
    var scratch: Scratch!
    var nginx: NginxServer!
    var proxy: FaultProxy!

    override func setUpWithError() throws {
        scratch = Scratch("offgrid-faults")
        let fixture = try RepositoryFixture.shared.get()
        nginx = try NginxServer(root: fixture.root, scratch: scratch)
        proxy = try FaultProxy(upstream: nginx.port, scratch: scratch)
    }

    override func tearDown() {
        proxy?.stop()
        nginx?.stop()
        scratch?.remove()
    }

    var url: String { "http://127.0.0.1:\(proxy.port)/repository" }

    func loadArgs(_ id: String, _ extra: [String] = []) -> [String] {
        ["load", id, "--from", url, "--bbox", "9.50,47.10,9.56,47.16", "--tileset", "liechtenstein", "--zoom", "0-12",
         "--routing", "--connections", "2", "--retries", "1", "--timeout", "1.5"] + extra
    }

    /// Each fault once, each on a fresh store.
    func testEveryFaultFailsCleanlyAndTheNextAttemptCompletes() throws {
        for mode in ["drop", "truncate", "corrupt", "404", "500", "slow", "redirect-loop"] {
            let ts = Tilestore(store: scratch.path("store-\(mode)"))
            try proxy.set(mode)
            proxy.clearLog()
            let r = try TestTools.result("tilestore", ["--store", ts.store] + loadArgs("r"))
            XCTAssertNotEqual(r.status, 0, "\(mode): the load should fail")
            let lines = r.stderr.split(separator: "\n").filter { !$0.hasPrefix("tilestore: waiting") }
            XCTAssertEqual(lines.count, 1, "\(mode): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains("http://127.0.0.1:\(proxy.port)/repository/objects/"), "\(mode): \(r.stderr)")
            try ts.assertConsistent()
            XCTAssertEqual(try ts.regionIds(), [], "\(mode): nothing installed")
            let keptBytes = ts.files(under: "partial").filter { $0.hasSuffix(".part") }
                .reduce(Int64(0)) { $0 + Int64(FileTools.regularFileSize(ts.store + "/partial/" + $1) ?? 0) }

            try proxy.set(nil)
            proxy.clearLog()
            let report = try ts.run(loadArgs("r"))
            try ts.assertConsistent()
            XCTAssertEqual(try ts.regionIds(), ["r"], mode)
            // A request of the failed attempt may still be answered (and logged) after clearLog:
            // it carries its fault, so only fault-free answers count for this attempt.
            let objects = proxy.entries().filter { $0.path.contains("/objects/") && $0.fault == nil }
            let sent = objects.reduce(Int64(0)) { $0 + $1.bytes }
            XCTAssertEqual(sent, report["bytesFetched"]?.int64, mode)
            // Nothing fetched twice: what came now plus what was kept is exactly what the region
            // needs — except an object whose kept part came from the corrupting server: it is
            // resumed (206), fails its hash, and is fetched once more whole (200).
            let resumedPaths = Set(objects.filter { $0.status == 206 }.map(\.path))
            let redone = objects.filter { $0.status == 200 && resumedPaths.contains($0.path) }.reduce(Int64(0)) { $0 + $1.bytes }
            if mode != "corrupt" { XCTAssertEqual(redone, 0, "\(mode): an object was fetched twice") }
            XCTAssertEqual(sent + keptBytes - redone, report["bytesRequired"]?.int64, mode)
            XCTAssertEqual(report["bytesResumed"]?.int64, keptBytes, mode)
            if mode == "drop" || mode == "truncate" {
                XCTAssertGreaterThan(keptBytes, 0, "\(mode): the bytes received were kept")
                XCTAssertTrue(objects.contains { $0.range != nil && $0.status == 206 }, "\(mode): resumed with a Range request")
            }
        }
    }

    func test503ThenSuccessIsRetriedWithinOneLoad() throws {
        let ts = Tilestore(store: scratch.path("store"))
        try proxy.set("503", remaining: 2)
        let report = try ts.run(loadArgs("r", ["--retries", "3"]))
        XCTAssertEqual(proxy.entries().filter { $0.status == 503 }.count, 2)
        XCTAssertGreaterThan(report["objectsFetched"]?.intValue ?? 0, 0)
        try ts.assertConsistent()
    }

    func testServerIgnoringRangeRestartsTheObject() throws {
        let ts = Tilestore(store: scratch.path("store"))
        try proxy.set("truncate", remaining: 1)
        _ = try TestTools.result("tilestore", ["--store", ts.store] + loadArgs("r", ["--retries", "0"]))
        try proxy.set("norange")
        proxy.clearLog()
        let report = try ts.run(loadArgs("r"))
        try ts.assertConsistent()
        // The range was asked for, answered with 200, and the object fetched whole.
        XCTAssertTrue(proxy.entries().contains { $0.range != nil && $0.status == 200 })
        XCTAssertEqual(report["bytesFetched"]?.int64, proxy.entries().filter { $0.path.contains("/objects/") }.reduce(0) { $0 + $1.bytes })
    }

    /// kill -9 at random moments of a load: verify passes every time; the last load completes.
    func testKillNineAtRandomMoments() throws {
        var rng = SplitMix64(seed: 11)
        let ts = Tilestore(store: scratch.path("store"))
        let args = ["--store", ts.store] + loadArgs("k", ["--connections", "4"])
        for _ in 0..<10 {
            let p = try TestTools.start("tilestore", args)
            usleep(UInt32(20_000 + rng.next() % 400_000))
            kill(p.processIdentifier, SIGKILL)
            p.waitUntilExit()
            try ts.assertConsistent()
        }
        let report = try ts.run(Array(args.dropFirst(2)))
        try ts.assertConsistent()
        XCTAssertEqual(try ts.regionIds(), ["k"])
        XCTAssertEqual(report["install"]?["routingTiles"]?.intValue.map { $0 > 0 }, true)
    }

    /// SIGINT cancels: the process dies of SIGINT (exit status 130 in a shell), the partial bytes stay.
    func testInterruptKeepsPartialBytes() throws {
        let ts = Tilestore(store: scratch.path("store"))
        try proxy.set("slow", remaining: 1)
        let p = try TestTools.start("tilestore", ["--store", ts.store] + loadArgs("i", ["--timeout", "20"]))
        usleep(1_500_000)
        p.interrupt()
        p.waitUntilExit()
        XCTAssertEqual(p.terminationReason, .uncaughtSignal)
        XCTAssertEqual(p.terminationStatus, SIGINT)
        try ts.assertConsistent()
        XCTAssertEqual(try ts.regionIds(), [])
        try proxy.set(nil)
        _ = try ts.run(loadArgs("i"))
    }
}
