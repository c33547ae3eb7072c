import Foundation
import OffgridCore
import PackRepository
import TestSupport
import XCTest

/// `tilestore versions/load/update/events` against a real nginx on loopback serving a repository
/// published with PackRepository's writer.
final class LoadOverHTTPTests: XCTestCase {
    var scratch: Scratch!
    var nginx: NginxServer!

    override func setUpWithError() throws {
        scratch = Scratch("offgrid-load")
        let fixture = try RepositoryFixture.shared.get()
        nginx = try NginxServer(root: fixture.root, scratch: scratch)
    }

    override func tearDown() {
        nginx?.stop()
        scratch?.remove()
    }

    var url: String { "http://127.0.0.1:\(nginx.port)/repository" }

    func testVersionsLoadOverlappingRegionsRouteAndUpdate() throws {
        let fixture = try RepositoryFixture.shared.get()
        let versions = try TestTools.result("tilestore", ["versions", "--from", url])
        XCTAssertEqual(versions.status, 0, versions.stderr)
        let v = try JSONReader.parse(Array(versions.stdoutData))
        XCTAssertEqual(v["tilesets"]?.arrayValue?.first?["versions"]?.arrayValue?.compactMap(\.stringValue), ["2", "1"])
        XCTAssertEqual(v["routing"]?.arrayValue?.count, 1)

        let ts = Tilestore(store: scratch.path("store"))
        // Two overlapping regions at once, both with routing, into one fresh store.
        let west = ["load", "west", "--from", url, "--bbox", "9.47,47.05,9.56,47.27", "--tileset", "liechtenstein",
                    "--tileset-version", "1", "--zoom", "0-12", "--routing", "--connections", "4"]
        let east = ["load", "east", "--from", url, "--bbox", "9.52,47.05,9.64,47.27", "--tileset", "liechtenstein",
                    "--tileset-version", "1", "--zoom", "0-12", "--routing", "--metadata", "{\"name\":\"east\"}"]
        let results = LockedValue<[ToolResult]>([])
        DispatchQueue.concurrentPerform(iterations: 2) { i in
            if let r = try? TestTools.result("tilestore", ["--store", ts.store] + (i == 0 ? west : east)) { results.update { $0.append(r) } }
        }
        XCTAssertEqual(results.get().count, 2)
        for r in results.get() { XCTAssertEqual(r.status, 0, r.stderr) }
        try ts.assertConsistent()
        XCTAssertEqual(try ts.regionIds(), ["east", "west"])
        // Shared objects stored once: one file per distinct hash.
        let mapFiles = ts.files(under: "maps")
        XCTAssertEqual(Set(mapFiles.map { ($0 as NSString).lastPathComponent }).count, mapFiles.count)
        XCTAssertLessThanOrEqual(mapFiles.count, Set(fixture.v1Entries.map(\.sha256)).count)
        XCTAssertGreaterThan(mapFiles.count, 0)
        let show = try ts.run(["show", "east"])
        XCTAssertEqual(show["metadata"]?["name"]?.stringValue, "east")
        XCTAssertEqual(show["complete"]?.boolValue, true)

        // The loaded routing tiles compile as they are and answer a route.
        let routingDir = ts.store + "/routing-dirs/west"
        let graph = scratch.path("west.graph")
        let rg = try TestTools.result("route-graph", [routingDir, "--output", graph])
        XCTAssertEqual(rg.status, 0, rg.stderr)

        // Events: progress, finished, metadata change.
        _ = try ts.run(["set-metadata", "west", "{\"name\":\"west\"}"])
        let events = try TestTools.result("tilestore", ["--store", ts.store, "events"]).stdout.split(separator: "\n")
            .compactMap { try? JSONReader.parse(String($0)) }
        let types = events.compactMap { $0["type"]?.stringValue }
        XCTAssertTrue(types.contains("region-load-progress"))
        XCTAssertEqual(types.filter { $0 == "region-load-finished" }.count, 2)
        XCTAssertTrue(types.contains("region-metadata-changed"))
        let seqs = events.compactMap { $0["seq"]?.intValue }
        XCTAssertEqual(seqs, seqs.sorted())
        let since = seqs[seqs.count - 2]
        XCTAssertEqual(try TestTools.result("tilestore", ["--store", ts.store, "events", "--since", String(since)]).stdout
            .split(separator: "\n").count, 1)

        // Update west to version 2: only the objects the store lacks cross the wire.
        let before = nginx.bytesSent()
        let stored = Set(ts.files(under: "maps").map { String(($0 as NSString).lastPathComponent.prefix(64)) })
        let update = try ts.run(["update", "west"])
        XCTAssertEqual(update["versions"]?["tilesetVersion"]?.stringValue, "2")
        let fetched = nginx.bytesSent() - before
        XCTAssertEqual(fetched, update["bytesFetched"]?.int64)
        let newObjects = Set(ts.files(under: "maps").map { String(($0 as NSString).lastPathComponent.prefix(64)) }).subtracting(stored)
        let expected = fixture.v2Entries.filter { newObjects.contains($0.sha256) }
        XCTAssertEqual(fetched, RepositoryFixture.uniqueBytes(expected))
        try ts.assertConsistent()
        // A second update fetches nothing (the index comes back 304).
        let again = try ts.run(["update", "west"])
        XCTAssertEqual(again["bytesFetched"]?.int64, 0)
        XCTAssertEqual(again["indexNotModified"]?.boolValue, true)

        // Removing a region journals it and removes its routing directory.
        _ = try ts.run(["remove", "west"])
        XCTAssertFalse(FileManager.default.fileExists(atPath: routingDir))
        XCTAssertTrue(try TestTools.result("tilestore", ["--store", ts.store, "events", "--since", String(since)]).stdout.contains("region-removed"))
    }

    func testRefusedBeforeDownloadWhenOverTheLimits() throws {
        let ts = Tilestore(store: scratch.path("store"))
        let err = try ts.fail(["load", "big", "--from", url, "--bbox", "9.47,47.05,9.64,47.27", "--tileset", "liechtenstein",
                               "--zoom", "0-12", "--max-packs", "5"])
        XCTAssertTrue(err.contains("too many packs"), err)
        XCTAssertTrue(err.contains("split the region"), err)
        XCTAssertEqual(err.split(separator: "\n").count, 1, err)
        let routing = try ts.fail(["load", "big", "--from", url, "--bbox", "5,45,15,50", "--routing", "--max-routing-tiles", "10"])
        XCTAssertTrue(routing.lowercased().contains("tiles"), routing)
        XCTAssertEqual(nginx.bytesSent(), 0, "nothing fetched before the refusal")
        try ts.assertConsistent()
        XCTAssertEqual(try ts.regionIds(), [])
    }
}
