import Foundation
import OffgridCore
import PackRepository
import TestSupport
import XCTest

/// Repositories we do not control: absurd sizes and counts, `..` paths, objects whose bytes do
/// not match their hash. Each is refused in one line, allocates nothing unbounded, installs
/// nothing and writes nothing outside the store.
final class HostileRepositoryTests: XCTestCase {
    var scratch: Scratch!

    override func setUpWithError() throws { scratch = Scratch("offgrid-hostile") }
    override func tearDown() { scratch?.remove() }

    /// A copy of the fixture repository to spoil.
    func copyRepository() throws -> String {
        let fixture = try RepositoryFixture.shared.get()
        let dir = scratch.path("repo-\(UUID().uuidString)")
        try FileManager.default.copyItem(atPath: fixture.repository, toPath: dir)
        return dir
    }

    func load(_ repo: String, _ store: String) throws -> ToolResult {
        try TestTools.result("tilestore", ["--store", store, "load", "h", "--from", "file://" + repo, "--bbox", "9.50,47.10,9.56,47.16",
                                           "--tileset", "liechtenstein", "--zoom", "0-12", "--routing", "--retries", "0"])
    }

    func assertRefused(_ repo: String, containing text: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let before = Set(FileManager.default.enumerator(atPath: scratch.root)?.allObjects as? [String] ?? [])
        let store = scratch.path("store-\(UUID().uuidString)")
        let r = try load(repo, store)
        XCTAssertEqual(r.status, 1, r.stderr, file: file, line: line)
        XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr, file: file, line: line)
        XCTAssertTrue(r.stderr.contains(text), r.stderr, file: file, line: line)
        let ts = Tilestore(store: store)
        try ts.assertConsistent(file: file, line: line)
        XCTAssertEqual(try ts.regionIds(), [], file: file, line: line)
        let after = Set(FileManager.default.enumerator(atPath: scratch.root)?.allObjects as? [String] ?? [])
        let outside = after.subtracting(before).filter { !$0.hasPrefix((store as NSString).lastPathComponent) }
        XCTAssertEqual(outside, [], "written outside the store", file: file, line: line)
    }

    func writeIndex(_ repo: String, _ index: RepositoryIndex) throws {
        try index.encoded().withUnsafeBytes { try Data($0).write(to: URL(fileURLWithPath: repo + "/index.json")) }
    }

    func testAbsurdIndexSizeIsRefusedBeforeFetching() throws {
        let repo = try copyRepository()
        var index = try RepositoryIndex.load(path: repo + "/index.json")
        index.tilesets[0].versions[0].size = 1 << 30   // a valid object size, over the index limit
        try writeIndex(repo, index)
        try assertRefused(repo, containing: "limit")
    }

    func testOversizedIndexFileIsRefusedBeforeReading() throws {
        let repo = try copyRepository()
        let path = repo + "/index.json"
        XCTAssertEqual(truncate(path, 300 << 20), 0)   // sparse: no memory, no disk
        try assertRefused(repo, containing: "index.json")
    }

    func testAbsurdEntrySizeIsRefused() throws {
        let repo = try copyRepository()
        var index = try RepositoryIndex.load(path: repo + "/index.json")
        let ref = index.tilesets[0].versions[0]
        var text = try String(contentsOfFile: repo + "/" + ref.index, encoding: .utf8)
        let first = try TilesetVersionIndex.decode(Array(text.utf8), source: "x").entries[0]
        text = text.replacingOccurrences(of: "\"\(first.sha256)\",\(first.size)]", with: "\"\(first.sha256)\",3000000000]")
        let bytes = Array(text.utf8)
        try Data(bytes).write(to: URL(fileURLWithPath: repo + "/" + ref.index))
        index.tilesets[0].versions[0].size = bytes.count
        index.tilesets[0].versions[0].sha256 = SHA256.hex(SHA256.hash(bytes))
        try writeIndex(repo, index)
        try assertRefused(repo, containing: ref.index)
    }

    func testDotDotNamesAreRefused() throws {
        let repo = try copyRepository()
        var text = try String(contentsOfFile: repo + "/index.json", encoding: .utf8)
        text = text.replacingOccurrences(of: "\"name\":\"liechtenstein\"", with: "\"name\":\"..\"")
        try text.write(toFile: repo + "/index.json", atomically: true, encoding: .utf8)
        try assertRefused(repo, containing: "index.json")
    }

    func testObjectWithWrongBytesIsRefusedAndNothingInstalled() throws {
        let repo = try copyRepository()
        let fixture = try RepositoryFixture.shared.get()
        // Spoil every routing tile object: whichever the region needs fails its hash.
        for e in fixture.routingEntries {
            let path = repo + "/" + e.objectPath
            try? FileManager.default.removeItem(atPath: path)
            try Data(repeating: 0x41, count: e.size).write(to: URL(fileURLWithPath: path))
        }
        try assertRefused(repo, containing: "SHA-256 does not match")
    }
}
