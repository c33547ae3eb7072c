import OffgridCore
import Foundation
import MapPacks
@testable import TileStore
import TileSources
import TestSupport
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// The real `tilestore` binary: CLI contract, kill -9 at random points, two processes at once.
final class ProcessTests: XCTestCase {
    var scratch: Scratch!
    var store: String { scratch.path("store") }
    override func setUp() { scratch = Scratch() }
    override func tearDown() { scratch.remove() }

    func testCommandLine() throws {
        let packs = [FixturePack.at(0), .at(1)]
        try makeRegion(scratch.path("a"), id: "a", packs: packs, expires: "2035-01-01T00:00:00Z", metadata: ["name": "A"])
        let install = try runTilestore(["--store", store, "install", scratch.path("a"), "--progress", "json"])
        XCTAssertEqual(install.status, 0, install.stderr)
        XCTAssertEqual(install.json["region"] as? String, "a")
        XCTAssertEqual(install.json["packsCopied"] as? Int, 2)
        XCTAssertTrue(install.stderr.contains("\"event\":\"done\""), install.stderr)

        let list = try runTilestore(["list", "--store", store])
        XCTAssertEqual(list.status, 0, list.stderr)
        let region = try XCTUnwrap((list.json["regions"] as? [[String: Any]])?.first)
        XCTAssertEqual(region["id"] as? String, "a")
        XCTAssertEqual((region["metadata"] as? [String: Any])?["name"] as? String, "A")
        XCTAssertEqual(region["expires"] as? String, "2035-01-01T00:00:00Z")
        XCTAssertEqual(region["bbox"] as? [Double], [9.49, 47.12, 9.55, 47.16])
        XCTAssertEqual(region["complete"] as? Bool, true)

        // get: the tile's bytes on stdout, exactly.
        let (c, bytes) = packs[1].tiles[2]
        let get = try runTilestore(["--store", store, "get", "\(c.z)", "\(c.x)", "\(c.y)", "--tileset", "fixture"])
        XCTAssertEqual(get.status, 0, get.stderr)
        XCTAssertEqual([UInt8](get.stdoutData), bytes)
        let toFile = try runTilestore(["--store", store, "get", "\(c.z)", "\(c.x)", "\(c.y)", "--output", scratch.path("t.bin")])
        XCTAssertEqual(toFile.status, 0, toFile.stderr)
        XCTAssertEqual(toFile.json["bytes"] as? Int, bytes.count)
        XCTAssertEqual([UInt8](FileManager.default.contents(atPath: scratch.path("t.bin"))!), bytes)

        // Errors: one line, exit 1; usage errors exit 2.
        let missing = try runTilestore(["--store", store, "get", "14", "0", "0", "--tileset", "fixture"])
        XCTAssertEqual(missing.status, 1)
        XCTAssertEqual(missing.stderr.split(separator: "\n").count, 1, missing.stderr)
        XCTAssertTrue(missing.stderr.hasPrefix("tilestore: error: tile 14/0/0"), missing.stderr)
        let noRegion = try runTilestore(["--store", store, "show", "nope"])
        XCTAssertEqual(noRegion.status, 1)
        XCTAssertTrue(noRegion.stderr.contains("no region \"nope\""), noRegion.stderr)
        let noStore = try runTilestore(["--store", scratch.path("none"), "list"])
        XCTAssertEqual(noStore.status, 1)
        XCTAssertEqual(try runTilestore(["list"]).status, 2, "--store is required")
        XCTAssertEqual(try runTilestore(["--store", store, "quota", "lots"]).status, 2)
        XCTAssertEqual(try runTilestore(["--store", store, "frobnicate"]).status, 2)
        let notAStore = try runTilestore(["--store", scratch.path("a"), "install", scratch.path("a")])
        XCTAssertEqual(notAStore.status, 1)
        XCTAssertTrue(notAStore.stderr.contains("is not a tile store"), notAStore.stderr)

        // quota with units; verify exits 1 on a corrupt store, 0 after --repair.
        let quota = try runTilestore(["--store", store, "quota", "2GiB"])
        XCTAssertEqual(quota.json["quota"] as? Int, 2 << 30)
        XCTAssertEqual(try runTilestore(["--store", store, "quota"]).json["quota"] as? Int, 2 << 30)
        XCTAssertEqual(try runTilestore(["--store", store, "quota", "none"]).json["quota"] is NSNull, true)
        let file = storedPath(store, packs[0])
        var data = [UInt8](FileManager.default.contents(atPath: file)!)
        data[100] ^= 0xff
        try Data(data).write(to: URL(fileURLWithPath: file))
        let bad = try runTilestore(["--store", store, "verify"])
        XCTAssertEqual(bad.status, 1)
        XCTAssertEqual(bad.json["consistent"] as? Bool, false)
        XCTAssertTrue(bad.stderr.contains("1 corrupt"), bad.stderr)
        let repair = try runTilestore(["--store", store, "verify", "--repair"])
        XCTAssertEqual(repair.status, 0, repair.stderr)
        XCTAssertEqual(repair.json["regionsIncomplete"] as? [String], ["a"])
        XCTAssertEqual(try runTilestore(["--store", store, "verify"]).status, 0)
        let removed = try runTilestore(["--store", store, "remove", "a"])
        XCTAssertEqual(removed.status, 0, removed.stderr)
        XCTAssertEqual(try runTilestore(["--store", store, "evict", "--all"]).json["evictedFiles"] as? Int, 1)
    }

    /// Installs, updates and removals killed with SIGKILL at random moments: after each, `verify`
    /// must find the index and the files consistent (orphans allowed: files whose index commit
    /// never happened), and every region the index lists must be complete.
    func testKillNineAtRandomPointsLeavesAConsistentStore() throws {
        // Two versions of a region of 60 packs sharing 30, and a second region: enough work that
        // kills land while copying, while committing and while evicting.
        let v1 = (0..<60).map { FixturePack.at($0, tileBytes: 10_000) }
        let v2 = (0..<30).map { FixturePack.at($0, tileBytes: 10_000) } + (30..<60).map { FixturePack.at($0, seed: UInt64(5000 + $0), tileBytes: 10_000) }
        let other = (40..<80).map { FixturePack.at($0, tileBytes: 10_000) }
        try makeRegion(scratch.path("v1"), id: "r", packs: v1)
        try makeRegion(scratch.path("v2"), id: "r", packs: v2)
        try makeRegion(scratch.path("other"), id: "other", packs: other)
        let commands: [[String]] = [
            ["install", scratch.path("v1"), "--quiet"],
            ["install", scratch.path("v2"), "--quiet"],
            ["install", scratch.path("other"), "--quiet"],
            ["install", scratch.path("v1"), "--quiet"],
            ["install", scratch.path("v2"), "--quiet"],
            ["remove", "other", "--quiet"],
            ["evict", "--all", "--quiet"],
            ["quota", "\(evictionMargin + 300_000)", "--quiet"],
        ]
        XCTAssertEqual(try runTilestore(["--store", store, "install", scratch.path("v1"), "--quiet"]).status, 0)

        // Kill delays adapt to how long each command takes on this machine right now (shared
        // cores make that vary): a run that finished before its kill shortens that command's
        // window, a killed run widens it, so about half the runs are killed, at points spread
        // over their work.
        var windows = [Double](repeating: 0.2, count: commands.count)
        var rng = SplitMix(seed: 20240501)
        var killed = 0, roundsWithLeftovers = 0
        let rounds = 48
        for round in 0..<rounds {
            if round % 2 == 0 {
                // Unused packs out and no quota, so the next install has copying to do.
                _ = try runTilestore(["--store", store, "quota", "none", "--quiet"])
                _ = try runTilestore(["--store", store, "evict", "--all", "--quiet"])
            }
            let c = Int(rng.next() % UInt64(commands.count))
            let command = commands[c]
            let process = try startTilestore(["--store", store] + command)
            let delay = Double(rng.next() % 1000) / 1000 * windows[c]
            usleep(UInt32(delay * 1e6))
            if process.isRunning {
                kill(process.processIdentifier, SIGKILL)
                killed += 1
                windows[c] = min(2, windows[c] * 1.2)
            } else {
                windows[c] = max(0.01, windows[c] * 0.8)
            }
            process.waitUntilExit()
            let verify = try runTilestore(["--store", store, "verify", "--quiet"])
            XCTAssertEqual(verify.status, 0, "round \(round) after \(command): \(verify.text)\(verify.stderr)")
            XCTAssertEqual(verify.json["consistent"] as? Bool, true, "round \(round)")
            XCTAssertEqual(verify.json["regionsIncomplete"] as? [String], [], "round \(round): a listed region misses packs")
            if !((verify.json["orphans"] as? [String]) ?? []).isEmpty || !((verify.json["temporaryFiles"] as? [String]) ?? []).isEmpty {
                roundsWithLeftovers += 1
            }
            if verify.status != 0 { break }
        }
        print("kill test: \(killed) of \(rounds) runs killed (\(roundsWithLeftovers) left orphan or temporary files); kill windows \(windows.map { Int($0 * 1000) }) ms")
        XCTAssertGreaterThanOrEqual(killed, rounds / 5, "many runs should have been killed mid-way")

        // Finish: the store still works, repair removes the leftovers, every tile reads back.
        XCTAssertEqual(try runTilestore(["--store", store, "quota", "none"]).status, 0)
        XCTAssertEqual(try runTilestore(["--store", store, "install", scratch.path("v2"), "--quiet"]).status, 0)
        _ = try runTilestore(["--store", store, "remove", "other", "--quiet"])   // it has other versions of packs 40-59
        let repaired = try runTilestore(["--store", store, "verify", "--repair"])
        XCTAssertEqual(repaired.status, 0, repaired.stderr)
        let clean = try runTilestore(["--store", store, "verify"])
        XCTAssertEqual(clean.json["orphans"] as? [String], [])
        XCTAssertEqual(clean.json["temporaryFiles"] as? [String], [])
        try withStore(store, access: .read) { s in
            for p in v2 {
                let (c, bytes) = p.tiles[1]
                XCTAssertTrue(try s.tile(z: c.z, x: c.x, y: c.y, tileset: "fixture").map { Array($0.bytes) == bytes } ?? false, "\(c)")
            }
        }
    }

    /// SIGKILL at each named point of an install (after the copies, after the renames, after the
    /// index commit, between evicted rows and their files): the store is consistent each time, in
    /// the state before the change until the commit and after it from then on, and the same
    /// command run again completes it.
    func testKillNineAtEachCrashPoint() throws {
        let v1 = (0..<8).map { FixturePack.at($0, tileBytes: 3_000) }
        let v2 = (0..<4).map { FixturePack.at($0, tileBytes: 3_000) } + (4..<8).map { FixturePack.at($0, seed: UInt64(900 + $0), tileBytes: 3_000) }
        try makeRegion(scratch.path("v1"), id: "r", packs: v1)
        try makeRegion(scratch.path("v2"), id: "r", packs: v2)
        let v2Bytes = v2.reduce(0) { $0 + $1.bytes.count }
        for point in ["copied", "published", "committed", "evicted-rows"] {
            try? FileManager.default.removeItem(atPath: store)
            XCTAssertEqual(try runTilestore(["--store", store, "install", scratch.path("v1"), "--quiet"]).status, 0)
            // A quota that makes the update evict v1's replaced packs right after its commit.
            XCTAssertEqual(try runTilestore(["--store", store, "quota", "\(evictionMargin + Int64(v2Bytes) + 10)"]).status, 0)
            let process = try startTilestore(["--store", store, "install", scratch.path("v2"), "--quiet"], crashAt: point)
            process.waitUntilExit()
            XCTAssertEqual(process.terminationReason, .uncaughtSignal, point)
            XCTAssertEqual(process.terminationStatus, SIGKILL, point)
            let verify = try runTilestore(["--store", store, "verify"])
            XCTAssertEqual(verify.json["consistent"] as? Bool, true, "\(point): \(verify.text)")
            XCTAssertEqual(verify.json["regionsIncomplete"] as? [String], [], point)
            let shown = try runTilestore(["--store", store, "show", "r"]).json
            let listed = Set((shown["packList"] as? [[String: Any]] ?? []).compactMap { $0["sha256"] as? String })
            let committed = point == "committed" || point == "evicted-rows"
            XCTAssertEqual(listed, Set((committed ? v2 : v1).map(sha)), point)
            let leftovers = (verify.json["orphans"] as? [String] ?? []) + (verify.json["temporaryFiles"] as? [String] ?? [])
            switch point {
            case "copied": XCTAssertEqual((verify.json["temporaryFiles"] as? [String])?.count, 4, point)
            case "published": XCTAssertEqual((verify.json["orphans"] as? [String])?.count, 4, point)
            case "evicted-rows": XCTAssertEqual((verify.json["orphans"] as? [String])?.count, 4, "evicted files not deleted yet")
            default: XCTAssertEqual(leftovers, [], point)
            }
            // Run again: completes; repair leaves nothing behind.
            let again = try runTilestore(["--store", store, "install", scratch.path("v2"), "--quiet"])
            XCTAssertEqual(again.status, 0, again.stderr)
            XCTAssertEqual(try runTilestore(["--store", store, "verify", "--repair"]).status, 0)
            let clean = try runTilestore(["--store", store, "verify"]).json
            XCTAssertEqual(clean["orphans"] as? [String], [], point)
            XCTAssertEqual(clean["temporaryFiles"] as? [String], [], point)
            XCTAssertEqual(clean["regionsIncomplete"] as? [String], [], point)
        }
    }

    /// Two processes installing at once (regions sharing packs): both succeed, one after the other,
    /// and the store holds each pack once.
    func testConcurrentInstallsFromTwoProcesses() throws {
        let a = (0..<30).map { FixturePack.at($0, tileBytes: 5_000) }
        let b = (15..<45).map { FixturePack.at($0, tileBytes: 5_000) }
        try makeRegion(scratch.path("a"), id: "a", packs: a)
        try makeRegion(scratch.path("b"), id: "b", packs: b)
        try makeRegion(scratch.path("a2"), id: "a", packs: (0..<30).map { FixturePack.at($0, seed: UInt64(7000 + $0), tileBytes: 5_000) })
        for round in 0..<3 {
            let first = round == 1 ? "a2" : "a"
            let results = Locked<[ToolResult?]>([nil, nil])
            let group = DispatchGroup()
            for (i, dir) in [first, "b"].enumerated() {
                group.enter()
                DispatchQueue.global().async {
                    let r = try? runTilestore(["--store", self.store, "install", self.scratch.path(dir), "--quiet"])
                    results.update { $0[i] = r }
                    group.leave()
                }
            }
            group.wait()
            for r in results.get() {
                XCTAssertEqual(r?.status, 0, "round \(round): \(r?.stderr ?? "did not run")")
            }
            let verify = try runTilestore(["--store", store, "verify"])
            XCTAssertEqual(verify.json["consistent"] as? Bool, true, verify.text)
            XCTAssertEqual(verify.json["orphans"] as? [String], [])
            let list = try runTilestore(["--store", store, "list"])
            let regions = try XCTUnwrap(list.json["regions"] as? [[String: Any]])
            XCTAssertEqual(regions.map { $0["id"] as? String }, ["a", "b"])
            XCTAssertTrue(regions.allSatisfy { $0["complete"] as? Bool == true })
        }
        // a (v1) and a2 and b: 30 + 30 + 15 unique packs, each stored once.
        let summary = try withStore(store, access: .read) { try $0.summary() }
        XCTAssertEqual(summary.mapPacks, 75)
        XCTAssertEqual(summary.mapPacksInRegions, 45)
    }
}
