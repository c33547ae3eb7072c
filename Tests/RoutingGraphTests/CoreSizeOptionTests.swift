import ContractionHierarchy
import Foundation
import RoutingGraph
import TestSupport
import XCTest

/// `route-graph --core-size`: the table's size is the user's (0 for none), the summary says it,
/// and travel times from `route-query` do not depend on it.
final class CoreSizeOptionTests: XCTestCase {
    func testCoreSizeChangesTheTableNotTheAnswers() throws {
        let (dir, defaultGraph, summary) = try GraphFileTests.sampleGraph()
        XCTAssertEqual(summary.coreRanks, CHCoreTable.defaultSize(nodeCount: summary.edgeBasedNodes))
        XCTAssertGreaterThan(summary.coreRanks, 0)
        let tiles = dir.appendingPathComponent("tiles").path
        var rng = SplitMix64(seed: 21)
        let queries = (0..<300).map { i -> String in
            func point() -> String { String(format: "[%.5f,%.5f]", rng.uniform(9.48, 9.62), rng.uniform(47.06, 47.26)) }
            return "{\"id\":\(i),\"from\":\(point()),\"to\":\(point())}"
        }.joined(separator: "\n") + "\n"
        let reference = try TestTools.run("route-query", ["batch", "--graph", defaultGraph, "--duration-only"], stdin: queries)
        XCTAssertEqual(reference.status, 0, reference.stderr)
        XCTAssertGreaterThan(reference.stdout.components(separatedBy: "\"code\":\"Ok\"").count - 1, 250)
        for size in [0, 7] {
            let graph = dir.appendingPathComponent("core-\(size).chg").path
            let built = try TestTools.run("route-graph", [tiles, "--output", graph, "--core-size", "\(size)"])
            XCTAssertEqual(built.status, 0, built.stderr)
            let json = try JSONSerialization.jsonObject(with: Data(built.stdout.utf8)) as? [String: Any]
            XCTAssertEqual(json?["coreRanks"] as? Int, size)
            let file = try GraphFile(path: graph)
            XCTAssertEqual(file.hierarchy.core?.size ?? 0, size)
            let answers = try TestTools.run("route-query", ["batch", "--graph", graph, "--duration-only"], stdin: queries)
            XCTAssertEqual(answers.status, 0, answers.stderr)
            XCTAssertEqual(answers.stdout, reference.stdout, "core of \(size) ranks")
        }
        let refused = try TestTools.run("route-graph", [tiles, "--output", dir.appendingPathComponent("bad.chg").path, "--core-size", "20000"])
        XCTAssertNotEqual(refused.status, 0)
        XCTAssertTrue(refused.stderr.contains("--core-size must be 0...16384"), refused.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.appendingPathComponent("bad.chg").path))
    }
}
