import Foundation
import OffgridCore
import PackRepository
import TestSupport
import XCTest

/// Concurrent publishers and interrupted publishes never leave a repository a reader cannot use.
final class PublishSafetyTests: XCTestCase {
    /// Publishers started together into one repository: the lock runs them one after the other,
    /// every version ends up listed, and the repository verifies.
    func testConcurrentPublishersLoseNothing() throws {
        let scratch = Scratch("publish-concurrent")
        defer { scratch.remove() }
        let repo = scratch.path("repo")
        let runs: [[String]] = (0..<4).map { i in
            ["publish", "maps", "--source", i % 2 == 0 ? Publish.mbtiles : Publish.pmtiles, "--tileset", "t\(i % 2)",
             "--version", "v\(i)", "--repository", repo, "--progress", "none", "--threads", "1"]
        } + [["publish", "routing", "--input", Publish.pbf, "--repository", repo, "--progress", "none"]]
        let results = LockedValue<[Int32]>([])
        DispatchQueue.concurrentPerform(iterations: runs.count) { i in
            let r = try? TestTools.result("tilepack-build", runs[i])
            results.update { $0.append(r?.status ?? -1) }  // get-then-set lost concurrent appends
        }
        XCTAssertEqual(results.get(), Array(repeating: 0, count: runs.count))
        let index = try RepositoryIndex.load(path: repo + "/index.json")
        XCTAssertEqual(Set(index.tileset(named: "t0")?.versions.map(\.version) ?? []), ["v0", "v2"])
        XCTAssertEqual(Set(index.tileset(named: "t1")?.versions.map(\.version) ?? []), ["v1", "v3"])
        XCTAssertEqual(index.routing(profile: "all")?.versions.count, 1)
        let report = try RepositoryVerifier.verify(root: repo)
        XCTAssertEqual(report.versions, 5)
        XCTAssertEqual(report.objects, 6 + 3, "the packs are shared by every version and both containers")
    }

    /// A publish stopped at each step (SIGINT or kill -9) leaves the previous index.json byte for
    /// byte, a repository that verifies, and no temporary files after SIGINT; the next run
    /// completes and reuses the objects already written.
    func testInterruptedPublishKeepsThePreviousIndex() throws {
        let scratch = Scratch("publish-interrupt")
        defer { scratch.remove() }
        let repo = scratch.path("repo")
        let modified = try Publish.modifiedSample(in: scratch)
        try Publish.run(["maps", "--source", Publish.mbtiles, "--tileset", "li", "--repository", repo])
        try Publish.run(["routing", "--input", Publish.pbf, "--repository", repo])
        let indexBytes = try FileTools.readFile(repo + "/index.json", maxBytes: 1 << 20)

        let points = ["publish-objects-written:INT", "publish-version-index-written", "publish-before-index-rename:INT",
                      "publish-before-index-rename"]
        for (i, point) in points.enumerated() {
            let args = i % 2 == 0 ? ["maps", "--source", modified.mbtiles, "--tileset", "li", "--repository", repo]
                                  : ["routing", "--input", modified.pbf, "--repository", repo]
            let r = try TestTools.result("tilepack-build", ["publish"] + args + ["--progress", "none"], environment: ["OFFGRID_FAULT_AT": point])
            XCTAssertTrue(r.signaled, "\(point): \(r.status) \(r.stderr)")
            XCTAssertEqual(try FileTools.readFile(repo + "/index.json", maxBytes: 1 << 20), indexBytes, point)
            XCTAssertEqual(try RepositoryVerifier.verify(root: repo).versions, 2, point)
            if point.hasSuffix(":INT") {
                XCTAssertEqual(temporaryFiles(repo), [], "\(point) left temporary files")
            }
        }
        // kill -9 can leave a temporary file behind; it is never listed, the next run removes it and completes.
        let maps = try Publish.run(["maps", "--source", modified.mbtiles, "--tileset", "li", "--repository", repo])
        XCTAssertEqual(Publish.summaryInt(maps, "objectsWritten"), 0, "the changed pack was written before the interrupt")
        let routing = try Publish.run(["routing", "--input", modified.pbf, "--repository", repo])
        XCTAssertEqual(Publish.summaryInt(routing, "objectsWritten"), 0)
        XCTAssertEqual(try RepositoryVerifier.verify(root: repo).versions, 4)
        XCTAssertEqual(temporaryFiles(repo), [], "the next publish removes what a killed one left")
    }

    private func temporaryFiles(_ root: String) -> [String] {
        (FileManager.default.enumerator(atPath: root)?.compactMap { $0 as? String } ?? []).filter { $0.contains(".tmp-") }.sorted()
    }
}
