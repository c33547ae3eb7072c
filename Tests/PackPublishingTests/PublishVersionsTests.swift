import Foundation
import OffgridCore
import PackRepository
import TestSupport
import XCTest

/// Publishing the real sample (maps, routing, style), again (a no-op), then its next version
/// (one road and one tile changed): only the touched objects are new.
final class PublishVersionsTests: XCTestCase {
    func testRepublishingIsANoOpAndANewVersionAddsOnlyTouchedObjects() throws {
        let scratch = Scratch("publish-versions")
        defer { scratch.remove() }
        let repo = scratch.path("repo")
        let style = scratch.path("basic.stylepack")
        let built = try TestTools.result("tilepack-build", ["style", "--style", TestTools.path("samples/style/style.json"),
                                                             "--uri", "offgrid://styles/basic", "--output", style, "--progress", "none"])
        XCTAssertEqual(built.status, 0, built.stderr)

        let maps1 = try Publish.run(["maps", "--source", Publish.mbtiles, "--tileset", "liechtenstein", "--repository", repo])
        XCTAssertEqual(maps1["version"], "3.0", "the version comes from the source's metadata")
        XCTAssertEqual(maps1["outcome"], "published")
        XCTAssertEqual(Publish.summaryInt(maps1, "objectsWritten"), Publish.summaryInt(maps1, "objects"))
        let routing1 = try Publish.run(["routing", "--input", Publish.pbf, "--repository", repo])
        XCTAssertEqual(routing1["version"], "2024-03-04-3988")
        try Publish.run(["style", "--stylepack", style, "--repository", repo])
        XCTAssertEqual(try RepositoryVerifier.verify(root: repo).versions, 2)

        // Again, from the PMTiles twin too: nothing written, not even index.json.
        let tree = Publish.treeHash(repo)
        let again = try Publish.run(["maps", "--source", Publish.pmtiles, "--tileset", "liechtenstein", "--repository", repo, "--version", "3.0"])
        XCTAssertEqual(again["outcome"], "unchanged")
        XCTAssertEqual(Publish.summaryInt(again, "objectsWritten"), 0)
        XCTAssertEqual(try Publish.run(["routing", "--input", Publish.pbf, "--repository", repo])["outcome"], "unchanged")
        XCTAssertEqual(try Publish.run(["style", "--stylepack", style, "--repository", repo])["outcome"], "unchanged")
        XCTAssertEqual(Publish.treeHash(repo), tree, "re-publishing changed the repository")

        // The next version: one tile and one road changed.
        let before = Publish.objects(repo)
        let modified = try Publish.modifiedSample(in: scratch)
        let maps2 = try Publish.run(["maps", "--source", modified.mbtiles, "--tileset", "liechtenstein", "--repository", repo])
        let routing2 = try Publish.run(["routing", "--input", modified.pbf, "--repository", repo])
        XCTAssertEqual(maps2["version"], "3.1")
        XCTAssertEqual(routing2["version"], "2024-03-05-3989")
        XCTAssertEqual(Publish.summaryInt(maps2, "objectsWritten"), 1, "one tile changed: one pack")
        XCTAssertEqual(Publish.summaryInt(routing2, "objectsWritten"), 1, "one road changed: one routing tile")

        let index = try RepositoryIndex.load(path: repo + "/index.json")
        XCTAssertEqual(index.tileset(named: "liechtenstein")?.versions.map(\.version), ["3.1", "3.0"])
        XCTAssertEqual(index.routing(profile: "all")?.versions.map(\.version), ["2024-03-05-3989", "2024-03-04-3988"])
        let t1 = try TilesetVersionIndex.decode(FileTools.readFile(repo + "/tilesets/liechtenstein/3.0.json", maxBytes: 1 << 20), source: "3.0")
        let t2 = try TilesetVersionIndex.decode(FileTools.readFile(repo + "/tilesets/liechtenstein/3.1.json", maxBytes: 1 << 20), source: "3.1")
        XCTAssertEqual(t1.entries.map(\.key), t2.entries.map(\.key))
        let changedPacks = zip(t1.entries, t2.entries).filter { $0.sha256 != $1.sha256 }.map(\.0.key)
        XCTAssertEqual(changedPacks, ["11-14/11-1077-719"], "the pack holding 14/8623/5759")
        let r1 = try RoutingVersionIndex.decode(FileTools.readFile(repo + "/routing/all/2024-03-04-3988.json", maxBytes: 1 << 20), source: "r1")
        let r2 = try RoutingVersionIndex.decode(FileTools.readFile(repo + "/routing/all/2024-03-05-3989.json", maxBytes: 1 << 20), source: "r2")
        XCTAssertEqual(r1.entries.map(\.key), r2.entries.map(\.key))
        XCTAssertEqual(zip(r1.entries, r2.entries).filter { $0.sha256 != $1.sha256 }.count, 1)
        let added = Publish.objects(repo).subtracting(before)
        XCTAssertEqual(added, Set(t2.entries.map(\.sha256)).union(r2.entries.map(\.sha256)).subtracting(before))
        XCTAssertEqual(added.count, 2)
        let report = try RepositoryVerifier.verify(root: repo)
        XCTAssertEqual(report.versions, 4)
    }

    func testBadInputIsOneLineAndWritesNothing() throws {
        let scratch = Scratch("publish-bad")
        defer { scratch.remove() }
        let repo = scratch.path("repo")
        XCTAssertTrue(try Publish.failure(["maps", "--source", Publish.mbtiles, "--tileset", "../etc", "--repository", repo]).contains("--tileset \"../etc\" is not"))
        XCTAssertTrue(try Publish.failure(["maps", "--source", Publish.mbtiles, "--tileset", "t", "--version", "a/b", "--repository", repo]).contains("--version"))
        XCTAssertTrue(try Publish.failure(["maps", "--source", Publish.pbf, "--tileset", "t", "--repository", repo]).contains("not an MBTiles or PMTiles"))
        XCTAssertEqual(FileTools.kind(repo), .missing, "nothing is created for bad input")
        // A source without a version needs --version.
        let noVersion = scratch.path("noversion.mbtiles")
        try FileManager.default.copyItem(atPath: Publish.mbtiles, toPath: noVersion)
        let db = Process()
        db.executableURL = URL(fileURLWithPath: try TestPython.executable())
        db.arguments = ["-c", "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute(\"delete from metadata where name='version'\"); c.commit()", noVersion]
        try db.run(); db.waitUntilExit()
        XCTAssertTrue(try Publish.failure(["maps", "--source", noVersion, "--tileset", "t", "--repository", repo]).contains("\(noVersion): the tileset's metadata has no version: give --version"))
        XCTAssertEqual(try Publish.run(["maps", "--source", noVersion, "--tileset", "t", "--version", "7", "--repository", repo])["version"], "7")

        // A damaged index.json in the repository: refused, named, left as it is.
        let index = repo + "/index.json"
        try Data("{\"format\":\"offgrid-repository\",\"format_version\":1,\"tilesets\":[{\"name\":\"..\"}]}".utf8).write(to: URL(fileURLWithPath: index))
        let message = try Publish.failure(["maps", "--source", Publish.mbtiles, "--tileset", "t", "--repository", repo])
        XCTAssertTrue(message.contains("\(index): invalid repository index"), message)
        // Versions are immutable.
        try FileManager.default.removeItem(atPath: index)
        try Publish.run(["maps", "--source", noVersion, "--tileset", "t", "--version", "7", "--repository", repo])
        XCTAssertTrue(try Publish.failure(["maps", "--source", Publish.mbtiles, "--tileset", "t", "--version", "7", "--repository", repo, "--bands", try scratch.write("b.json", "{\"bands\":[[0,4],[5,9],[10,14]]}")])
            .contains("already published with other content"))
    }
}
