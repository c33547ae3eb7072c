import Foundation
import OffgridCore
import PackRepository
import TestSupport
import TileMath
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// `tilestore serve --repository` (the SDK's read-and-update mode) against real servers: nginx on
/// loopback serving a repository published with PackRepository's writer, the fault proxy in front
/// of it, and file://. Every answer is read with URLSession; what crossed the wire is read from
/// nginx's access log and the proxy's log; the store is checked with `tilestore verify/ambient/events`.
final class ServeOnDemandTests: XCTestCase {
    var scratch: Scratch!
    var nginx: NginxServer?
    var servers: [OnDemandServer] = []

    override func setUpWithError() throws {
        scratch = Scratch("offgrid-ondemand")
    }

    override func tearDown() {
        for s in servers { s.stop() }
        nginx?.stop()
        scratch?.remove()
    }

    func start(_ store: String, _ repository: String, _ extra: [String] = []) throws -> OnDemandServer {
        let s = try OnDemandServer(store: store, repository: repository, extra: extra, scratch: scratch)
        servers.append(s)
        return s
    }

    /// The store's name of the fixture tileset (the pack headers' tileset id), from the server.
    func tilesetName(_ server: OnDemandServer) throws -> String {
        let index = try JSONReader.parse(Array(httpGet(server.base + "/index.json").body))
        return try XCTUnwrap(index["tilesets"]?.arrayValue?.first?["name"]?.stringValue)
    }

    func tileURL(_ server: OnDemandServer, _ name: String, _ z: Int, _ x: Int, _ y: Int) -> String {
        "\(server.base)/tiles/\(name.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? name)/\(z)/\(x)/\(y)"
    }

    /// Band 11-12 entries of the fixture's latest version (v2), sorted by key.
    func band11(_ fixture: RepositoryFixture) -> [RepositoryEntry] {
        fixture.v2Entries.filter { $0.key.hasPrefix("11-") }.sorted { $0.key < $1.key }
    }

    func objectRequests(_ nginx: NginxServer, _ sha: String) -> Int {
        let text = (try? String(contentsOfFile: nginx.accessLog, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").filter { $0.contains("/objects/") && $0.contains(sha) }.count
    }

    func ambient(_ ts: Tilestore) throws -> JSONValue { try ts.run(["ambient"]) }

    // MARK: - Fetching on demand

    func testEmptyStoreFetchesThePackHoldingATileOnceOverHTTP() throws {
        let fixture = try RepositoryFixture.shared.get()
        let nginx = try NginxServer(root: fixture.root, scratch: scratch)
        self.nginx = nginx
        let ts = Tilestore(store: scratch.path("store"))
        let server = try start(ts.store, "http://127.0.0.1:\(nginx.port)/repository")
        let name = try tilesetName(server)
        let entry = try XCTUnwrap(band11(fixture).first)
        let (z, x, y) = parentTile(entry.key)

        let first = httpGet(tileURL(server, name, z, x, y))
        XCTAssertTrue([200, 204].contains(first.status), "\(first.status) \(String(decoding: first.body, as: UTF8.self)) \(server.log)")
        var etags: [String] = []
        var withData: (Int, Int, Int)?
        for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
            let a = httpGet(tileURL(server, name, z + 1, 2 * x + dx, 2 * y + dy))
            XCTAssertTrue([200, 204].contains(a.status), "\(a.status)")
            if a.status == 200 {
                etags.append(a.headers["etag"] ?? "")
                withData = (z + 1, 2 * x + dx, 2 * y + dy)
            }
        }
        XCTAssertFalse(etags.isEmpty, "some z12 tile of the pack has data")
        // Every tile came from the fetched pack (its hash leads the ETag), fetched once.
        for e in etags { XCTAssertTrue(e.hasPrefix("\"\(entry.sha256.prefix(16))-"), e) }
        XCTAssertEqual(objectRequests(nginx, entry.sha256), 1)

        // Not fetched: an unknown tileset, a zoom past the tileset's, a tile where nothing is published.
        XCTAssertEqual(httpGet(tileURL(server, "no-such-tileset", z, x, y)).status, 404)
        XCTAssertEqual(httpGet(tileURL(server, name, 15, 16 * x, 16 * y)).status, 404)
        XCTAssertEqual(httpGet(tileURL(server, name, 11, 1100, 1000)).status, 204)
        let text = (try? String(contentsOfFile: nginx.accessLog, encoding: .utf8)) ?? ""
        XCTAssertEqual(text.split(separator: "\n").filter { $0.contains("/objects/") }.count, 1, text)

        let a = try ambient(ts)
        XCTAssertEqual(a["packs"]?.intValue, 1)
        XCTAssertEqual(a["bytes"]?.int64, Int64(entry.size))
        XCTAssertEqual(a["list"]?.arrayValue?.first?["key"]?.stringValue, entry.key)
        XCTAssertEqual(a["list"]?.arrayValue?.first?["version"]?.stringValue, "2")
        let events = try TestTools.result("tilestore", ["--store", ts.store, "events"])
        XCTAssertTrue(events.stdout.contains("ambient-pack-stored"), events.stdout)
        XCTAssertEqual(server.stop(), 0, "SIGTERM: exit 0")
        try ts.assertConsistent()
        // The same tile from the store, without the server: the ambient pack is an ordinary stored pack.
        let t = try XCTUnwrap(withData)
        let get = try TestTools.result("tilestore", ["--store", ts.store, "get", "\(t.0)", "\(t.1)", "\(t.2)"])
        XCTAssertEqual(get.status, 0, get.stderr)
        XCTAssertFalse(get.stdoutData.isEmpty)
    }

    func testConcurrentRequestsForOnePackFetchItOnce() throws {
        let fixture = try RepositoryFixture.shared.get()
        let nginx = try NginxServer(root: fixture.root, scratch: scratch)
        self.nginx = nginx
        // Every object answer is held back 1 s, so the requests below overlap the fetch.
        let proxy = try FaultProxy(upstream: nginx.port, scratch: scratch)
        defer { proxy.stop() }
        try proxy.set("delay")
        let ts = Tilestore(store: scratch.path("store"))
        let server = try start(ts.store, "http://127.0.0.1:\(proxy.port)/repository")
        let name = try tilesetName(server)
        let entry = band11(fixture)[1]
        let (z, x, y) = parentTile(entry.key)
        let urls = (0..<16).map { i in tileURL(server, name, z + 1, 2 * x + i % 2, 2 * y + (i / 2) % 2) }
        let statuses = LockedValue<[Int]>([])
        DispatchQueue.concurrentPerform(iterations: urls.count) { i in
            let s = httpGet(urls[i]).status
            statuses.update { $0.append(s) }
        }
        XCTAssertEqual(statuses.get().count, 16)
        XCTAssertTrue(statuses.get().allSatisfy { [200, 204].contains($0) }, "\(statuses.get())")
        XCTAssertEqual(proxy.entries().filter { $0.path.contains(entry.sha256) }.count, 1, "16 requests, one fetch")
        XCTAssertEqual(objectRequests(nginx, entry.sha256), 1)
        XCTAssertEqual(server.log.components(separatedBy: "fetched pack").count - 1, 1, server.log)
        try ts.assertConsistent()
    }

    // MARK: - Bad packs are never stored

    func testFileRepositoryCorruptPackIsRefusedInOneLineAndNothingIsStored() throws {
        let fixture = try RepositoryFixture.shared.get()
        let copy = try RepositoryCopy(fixture, scratch: scratch, name: "corrupt")
        let entries = band11(fixture)
        // 1. An object whose bytes no longer match its hash.
        let bad = entries[2]
        var bytes = try FileTools.readFile(copy.objectPath(bad.sha256), maxBytes: 1 << 30)
        bytes[bytes.count / 2] ^= 0xFF
        try Data(bytes).write(to: URL(fileURLWithPath: copy.objectPath(bad.sha256)))
        // 2. A version 3 whose pack has a matching hash but a damaged tile (content check).
        let v2 = try copy.index(version: "2")
        let victim = entries[3]
        var damaged = try FileTools.readFile(copy.objectPath(victim.sha256), maxBytes: 1 << 30)
        damaged[damaged.count - 1] ^= 0xFF
        let damagedSHA = SHA256.hex(SHA256.hash(damaged))
        let objectDir = copy.repository + "/objects/\(damagedSHA.prefix(2))"
        try FileManager.default.createDirectory(atPath: objectDir, withIntermediateDirectories: true)
        try Data(damaged).write(to: URL(fileURLWithPath: copy.objectPath(damagedSHA)))
        var v3 = v2
        v3.version = "3"
        v3 = TilesetVersionIndex(name: v3.name, version: "3", tileType: v3.tileType, tileCompression: v3.tileCompression, minZoom: v3.minZoom,
                                 maxZoom: v3.maxZoom, bounds: v3.bounds, bands: v3.bands, tilesetId: v3.tilesetId, attribution: v3.attribution,
                                 metadata: v3.metadata, expires: v3.expires,
                                 entries: v2.entries.map { $0.key == victim.key ? RepositoryEntry(key: victim.key, sha256: damagedSHA, size: damaged.count) : $0 })
        let v3Bytes = v3.encoded()
        let v3Path = try XCTUnwrap(RepositoryLayout.tilesetIndexPath(name: "liechtenstein", version: "3"))
        try Data(v3Bytes).write(to: URL(fileURLWithPath: copy.repository + "/" + v3Path))
        let indexPath = copy.repository + "/index.json"
        var top = try RepositoryIndex.decode(FileTools.readFile(indexPath, maxBytes: 1 << 20), source: indexPath)
        top.tilesets[0].versions.insert(RepositoryIndex.VersionRef(version: "3", index: v3Path, sha256: SHA256.hex(SHA256.hash(v3Bytes)),
                                                                   size: v3Bytes.count), at: 0)
        try AtomicFile.write(top.encoded(), to: indexPath)

        let ts = Tilestore(store: scratch.path("store"))
        let server = try start(ts.store, "file://" + copy.repository)
        let name = try tilesetName(server)
        for (entry, why) in [(bad, "SHA-256"), (victim, "CRC")] {
            let (z, x, y) = parentTile(entry.key)
            let a = httpGet(tileURL(server, name, z, x, y))
            let body = String(decoding: a.body, as: UTF8.self)
            XCTAssertEqual(a.status, 502, body)
            XCTAssertEqual(body.split(separator: "\n").count, 1, "one line: \(body)")
            XCTAssertTrue(body.contains(why), "\(why): \(body)")
        }
        XCTAssertEqual(httpGet(server.base + "/health").status, 200, "the server keeps serving")
        // A good pack of the same repository still comes.
        let (z, x, y) = parentTile(entries[0].key)
        XCTAssertTrue([200, 204].contains(httpGet(tileURL(server, name, z, x, y)).status), server.log)
        XCTAssertEqual(server.stop(), 0)
        let a = try ambient(ts)
        XCTAssertEqual(a["packs"]?.intValue, 1)
        XCTAssertEqual(a["list"]?.arrayValue?.first?["sha256"]?.stringValue, entries[0].sha256)
        XCTAssertEqual(ts.files(under: "maps").count, 1, "only the good pack is stored")
        try ts.assertConsistent()
    }

    func testFaultsFromTheNetworkNeverStoreABadPackOrStopTheServer() throws {
        let fixture = try RepositoryFixture.shared.get()
        let nginx = try NginxServer(root: fixture.root, scratch: scratch)
        self.nginx = nginx
        let proxy = try FaultProxy(upstream: nginx.port, scratch: scratch)
        defer { proxy.stop() }
        let ts = Tilestore(store: scratch.path("store"))
        let server = try start(ts.store, "http://127.0.0.1:\(proxy.port)/repository")
        let name = try tilesetName(server)
        let entries = band11(fixture)
        for (i, mode) in ["drop", "truncate", "corrupt", "500", "503", "404"].enumerated() {
            try proxy.set(mode)
            let (z, x, y) = parentTile(entries[i % entries.count].key)
            let a = httpGet(tileURL(server, name, z, x, y))
            XCTAssertEqual(a.status, 502, "\(mode): \(String(decoding: a.body, as: UTF8.self))")
            XCTAssertTrue(server.process.isRunning, "\(mode): the server is still running")
            XCTAssertEqual(try ambient(ts)["packs"]?.intValue, 0, mode)
        }
        try proxy.set(nil)
        // A failed pack is tried again after --repository-check (0.2 s here).
        Thread.sleep(forTimeInterval: 0.4)
        let (z, x, y) = parentTile(entries[0].key)
        XCTAssertTrue([200, 204].contains(httpGet(tileURL(server, name, z, x, y)).status))
        XCTAssertEqual(try ambient(ts)["packs"]?.intValue, 1)
        XCTAssertEqual(server.stop(), 0)
        try ts.assertConsistent()
    }

    func testKillDuringAFetchLeavesNothingHalfStored() throws {
        let fixture = try RepositoryFixture.shared.get()
        let nginx = try NginxServer(root: fixture.root, scratch: scratch)
        self.nginx = nginx
        let proxy = try FaultProxy(upstream: nginx.port, scratch: scratch)
        defer { proxy.stop() }
        try proxy.set("slow")
        let ts = Tilestore(store: scratch.path("store"))
        let server = try start(ts.store, "http://127.0.0.1:\(proxy.port)/repository", ["--timeout", "20"])
        let name = try tilesetName(server)
        let (z, x, y) = parentTile(band11(fixture)[0].key)
        let url = tileURL(server, name, z, x, y)
        DispatchQueue.global().async { _ = httpGet(url, timeout: 5) }
        let deadline = Date().addingTimeInterval(10)
        while proxy.entries().filter({ $0.path.contains("/objects/") }).isEmpty, Date() < deadline { usleep(50_000) }
        XCTAssertFalse(proxy.entries().filter { $0.path.contains("/objects/") }.isEmpty, "the fetch started")
        kill(server.process.processIdentifier, SIGKILL)
        server.process.waitUntilExit()
        try ts.assertConsistent()
        XCTAssertEqual(try ambient(ts)["packs"]?.intValue, 0)
        XCTAssertEqual(ts.files(under: "maps").count, 0)
    }

    // MARK: - Read-and-update

    /// Regions loaded at version 1, served while the repository publishes a newer version: the pack
    /// the map uses is replaced (for the region) when next used; with the objects out of reach
    /// it is served as it is.
    func testNewerVersionReplacesTheVisiblePackForTheRegionAndStaleIsServedWhenUnreachable() throws {
        let fixture = try RepositoryFixture.shared.get()
        let copy = try RepositoryCopy(fixture, scratch: scratch, name: "versions")
        try copy.listOnly(versions: ["1"])
        let nginx = try NginxServer(root: copy.root, scratch: scratch)
        self.nginx = nginx
        let proxy = try FaultProxy(upstream: nginx.port, scratch: scratch)
        defer { proxy.stop() }
        let url = "http://127.0.0.1:\(proxy.port)/repository"
        let ts = Tilestore(store: scratch.path("store"))
        let server = try start(ts.store, url)
        let name = try tilesetName(server)

        // Two regions, each inside one pack of band 11 (version 1).
        var tiles: [(z: Int, x: Int, y: Int, key: String, old: String)] = []
        for (i, entry) in fixture.v1Entries.filter({ $0.key.hasPrefix("11-") }).sorted(by: { $0.key < $1.key }).prefix(2).enumerated() {
            let (z, x, y) = parentTile(entry.key)
            let b = WebMercator.bounds(zoom: z, x: x, y: y)
            let w = (b.maxLon - b.minLon) * 0.3, h = (b.maxLat - b.minLat) * 0.3
            try ts.run(["load", "r\(i)", "--from", url, "--bbox", "\(b.minLon + w),\(b.minLat + h),\(b.maxLon - w),\(b.maxLat - h)",
                        "--tileset", "liechtenstein", "--zoom", "11-12", "--quiet"])
            // The server sees the region (it reloads every 0.2 s) before a tile of it is asked for.
            Thread.sleep(forTimeInterval: 0.8)
            // A tile of the pack with data.
            let found = [(0, 0), (1, 0), (0, 1), (1, 1)].map { (z + 1, 2 * x + $0.0, 2 * y + $0.1) }.first { t in
                httpGet(self.tileURL(server, name, t.0, t.1, t.2)).status == 200
            }
            let t = try XCTUnwrap(found, "a z12 tile of \(entry.key) with data")
            tiles.append((t.0, t.1, t.2, entry.key, entry.sha256))
            XCTAssertTrue(httpGet(tileURL(server, name, t.0, t.1, t.2)).headers["etag"]?.hasPrefix("\"\(entry.sha256.prefix(16))") ?? false)
        }
        XCTAssertEqual(tiles.count, 2)
        XCTAssertEqual(try ambient(ts)["packs"]?.intValue, 0, "the regions' packs were not fetched again")

        // A newer version is published: the sample with every tile of zooms 11-14 given other gzip
        // MTIME bytes (the same map, other bytes), so every pack of band 11 differs.
        let changed = scratch.path("changed.mbtiles")
        try FileManager.default.copyItem(atPath: TestTools.path("samples/liechtenstein.mbtiles"), toPath: changed)
        let python = Process()
        python.executableURL = URL(fileURLWithPath: try TestPython.executable())
        python.arguments = ["-c", "import sqlite3, sys; db = sqlite3.connect(sys.argv[1]); db.execute(\"UPDATE tiles SET tile_data = substr(tile_data, 1, 4) || X'01020304' || substr(tile_data, 9) WHERE zoom_level >= 11\"); db.commit()", changed]
        try python.run()
        python.waitUntilExit()
        XCTAssertEqual(python.terminationStatus, 0)
        let publish = try TestTools.result("tilepack-build", ["publish", "maps", "--source", changed,
                                                              "--tileset", "liechtenstein", "--repository", copy.repository, "--quiet"])
        XCTAssertEqual(publish.status, 0, publish.stderr)
        let top = try RepositoryIndex.decode(FileTools.readFile(copy.repository + "/index.json", maxBytes: 1 << 20), source: "index.json")
        let latestRef = try XCTUnwrap(top.tilesets.first?.versions.first)
        let latest = try TilesetVersionIndex.decode(FileTools.readFile(copy.repository + "/" + latestRef.index, maxBytes: 64 << 20), source: latestRef.index)
        let newSHA = Dictionary(latest.entries.map { ($0.key, $0.sha256) }, uniquingKeysWith: { a, _ in a })
        for t in tiles { XCTAssertNotEqual(newSHA[t.key], t.old, "version \(latest.version) changes \(t.key)") }

        // The first region's pack is replaced when next used.
        let t0 = tiles[0], new0 = try XCTUnwrap(newSHA[t0.key])
        XCTAssertTrue(waitFor { httpGet(self.tileURL(server, name, t0.z, t0.x, t0.y)).headers["etag"]?.hasPrefix("\"\(new0.prefix(16))") ?? false },
                      "the visible pack is replaced by the newest version's: \(server.log)")
        let events = try TestTools.result("tilestore", ["--store", ts.store, "events"]).stdout
        XCTAssertTrue(events.contains("pack-refreshed") && events.contains("\"r0\""), events)
        XCTAssertEqual(try ts.run(["show", "r0"])["complete"]?.boolValue, true)
        XCTAssertFalse(ts.files(under: "maps").contains { $0.contains(t0.old) }, "the outdated pack is gone")
        XCTAssertTrue(ts.files(under: "maps").contains { $0.contains(new0) }, "the new pack is stored")

        // The objects out of reach: the second region's outdated pack is served as it is.
        try proxy.set("503")
        let t1 = tiles[1]
        let stale = httpGet(tileURL(server, name, t1.z, t1.x, t1.y))
        XCTAssertEqual(stale.status, 200)
        XCTAssertTrue(stale.headers["etag"]?.hasPrefix("\"\(t1.old.prefix(16))") ?? false, "served as it is: \(stale.headers)")
        XCTAssertEqual(stale.headers["cache-control"], "no-cache", "stale, and the region has no expiry: revalidate")
        nginx.stop()
        proxy.stop()
        XCTAssertEqual(httpGet(tileURL(server, name, t1.z, t1.x, t1.y)).status, 200, "no network: the stored pack is served")
        XCTAssertEqual(server.stop(), 0)
        try ts.assertConsistent()
        XCTAssertEqual(try ambient(ts)["packs"]?.intValue, 0, "region packs are not ambient")
    }

    // MARK: - The ambient cache

    func testAmbientLimitEvictsLeastRecentlyUsedAndNeverARegionsPack() throws {
        let fixture = try RepositoryFixture.shared.get()
        let nginx = try NginxServer(root: fixture.root, scratch: scratch)
        self.nginx = nginx
        let url = "http://127.0.0.1:\(nginx.port)/repository"
        let a = try XCTUnwrap(band11(fixture).first)
        let others = fixture.v2Entries.filter { $0.key != a.key }
        XCTAssertGreaterThanOrEqual(others.count, 4, "the fixture publishes at least 5 packs")
        guard others.count >= 4 else { return }
        let ts = Tilestore(store: scratch.path("store"))
        // A region holding pack A.
        let (az, ax, ay) = parentTile(a.key)
        let ab = WebMercator.bounds(zoom: az, x: ax, y: ay)
        let w = (ab.maxLon - ab.minLon) * 0.3, h = (ab.maxLat - ab.minLat) * 0.3
        try ts.run(["load", "home", "--from", url, "--bbox", "\(ab.minLon + w),\(ab.minLat + h),\(ab.maxLon - w),\(ab.maxLat - h)",
                    "--tileset", "liechtenstein", "--zoom", "11-12", "--quiet"])
        // B smallest, E next, then D, C largest: evicting C alone makes room for E.
        let four = Array(others.sorted { $0.key < $1.key }.prefix(4)).sorted { ($0.size, $0.key) < ($1.size, $1.key) }
        let (b, e, d, c) = (four[0], four[1], four[2], four[3])
        let limit = b.size + c.size + d.size
        let server = try start(ts.store, url, ["--ambient-limit", String(limit)])
        let name = try tilesetName(server)
        func use(_ entry: RepositoryEntry) {
            let (z, x, y) = parentTile(entry.key)
            _ = httpGet(tileURL(server, name, z, x, y))
            _ = httpGet(tileURL(server, name, z + 1, 2 * x, 2 * y))
            usleep(30_000)
        }
        for p in [b, c, d] { use(p) }
        XCTAssertEqual(try ambient(ts)["packs"]?.intValue, 3)
        use(b)          // B is used again: C is now the least recently used
        use(a)          // the region's pack, whatever its use, is never ambient nor evicted
        use(e)
        let list = try ambient(ts)["list"]?.arrayValue?.compactMap { $0["sha256"]?.stringValue } ?? []
        XCTAssertEqual(Set(list), Set([b.sha256, d.sha256, e.sha256]), "C evicted, least recently used")
        XCTAssertLessThanOrEqual(try ambient(ts)["bytes"]?.int64 ?? .max, Int64(limit))
        XCTAssertEqual(try ts.run(["show", "home"])["complete"]?.boolValue, true)
        let events = try TestTools.result("tilestore", ["--store", ts.store, "events"]).stdout
        XCTAssertTrue(events.contains("ambient-evicted") && events.contains(c.sha256), events)
        XCTAssertEqual(server.stop(), 0)
        // Cleared: the ambient packs go, the region's stays.
        let cleared = try ts.run(["ambient", "clear"])
        XCTAssertEqual(cleared["packs"]?.intValue, 0)
        XCTAssertEqual(cleared["cleared"]?["packsRemoved"]?.intValue, 3)
        XCTAssertEqual(try ts.run(["show", "home"])["complete"]?.boolValue, true)
        try ts.assertConsistent()
    }

    func waitFor(_ seconds: Double = 10, _ body: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if body() { return true }
            usleep(100_000)
        }
        return false
    }
}
