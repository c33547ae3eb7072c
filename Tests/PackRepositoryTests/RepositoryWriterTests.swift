import Foundation
import OffgridCore
import PackRepository
import TestSupport
import TileMath
import XCTest

/// The writer on a real directory: objects stored once by hash, versions immutable, index.json
/// written last and only when it changes, the verifier catching a damaged object.
final class RepositoryWriterTests: XCTestCase {
    func object(_ text: String) -> (bytes: [UInt8], sha: String) {
        let b = Array(text.utf8)
        return (b, SHA256.hex(SHA256.hash(b)))
    }

    func tileset(version: String, _ objects: [(String, (bytes: [UInt8], sha: String))]) -> TilesetVersionIndex {
        TilesetVersionIndex(name: "demo", version: version, tileType: .png, tileCompression: .none, minZoom: 0, maxZoom: 5,
                            bounds: nil, bands: ["0-5", "6-10"], tilesetId: "demo", attribution: nil, metadata: [:], expires: nil,
                            entries: objects.map { RepositoryEntry(key: $0.0, sha256: $0.1.sha, size: $0.1.bytes.count) })
    }

    func testPublishingTwiceIsANoOpAndVersionsAreImmutable() throws {
        let scratch = Scratch("repo-writer")
        defer { scratch.remove() }
        let root = scratch.path("repo")
        let a = object("pack a"), b = object("pack b"), c = object("pack c")

        let w = try RepositoryWriter(root: root)
        XCTAssertTrue(try w.putObject(parts: [a.bytes[...]], sha256: a.sha))
        XCTAssertTrue(try w.putObject(parts: [b.bytes[0..<2], b.bytes[2...]], sha256: b.sha))
        XCTAssertFalse(try w.putObject(parts: [a.bytes[...]], sha256: a.sha))
        XCTAssertEqual(try w.commit(tileset(version: "1", [("0-5/0-0-0", a), ("6-10/6-1-0", b)])), .published)
        XCTAssertEqual(w.counts.objectsWritten, 2)
        XCTAssertEqual(w.counts.objectsReused, 1)
        w.close()
        XCTAssertEqual(try FileTools.readFile(root + "/objects/\(b.sha.prefix(2))/\(b.sha)", maxBytes: 100), b.bytes)

        let indexBefore = try FileTools.readFile(root + "/index.json", maxBytes: 1 << 20)
        var st1 = stat(); stat(root + "/index.json", &st1)
        let again = try RepositoryWriter(root: root)
        XCTAssertEqual(try again.commit(tileset(version: "1", [("0-5/0-0-0", a), ("6-10/6-1-0", b)])), .unchanged)
        var st2 = stat(); stat(root + "/index.json", &st2)
        XCTAssertEqual(st1.st_ino, st2.st_ino, "index.json is not rewritten when nothing changed")
        assertInputError(try again.commit(tileset(version: "1", [("0-5/0-0-0", c)])), contains: "is not stored")
        assertInputError(try again.commit(tileset(version: "3", [("0-5/1-0-0", a)])), contains: "is not a valid key")
        XCTAssertTrue(try again.putObject(parts: [c.bytes[...]], sha256: c.sha))
        assertInputError(try again.commit(tileset(version: "1", [("0-5/0-0-0", c)])), contains: "already published with other content")
        XCTAssertEqual(try FileTools.readFile(root + "/index.json", maxBytes: 1 << 20), indexBefore)

        XCTAssertEqual(try again.commit(tileset(version: "2", [("0-5/0-0-0", c), ("6-10/6-1-0", b)])), .published)
        let index = try RepositoryIndex.load(path: root + "/index.json")
        XCTAssertEqual(index.tileset(named: "demo")?.versions.map(\.version), ["2", "1"], "newest first")
        XCTAssertEqual(try RepositoryVerifier.verify(root: root), .init(versions: 2, objects: 3, bytes: 18))

        // A damaged object is caught.
        try Array("pack x".utf8).withUnsafeBytes { try Data($0).write(to: URL(fileURLWithPath: root + "/objects/\(c.sha.prefix(2))/\(c.sha)")) }
        assertInputError(try RepositoryVerifier.verify(root: root), contains: "do not have the listed SHA-256")
    }

    func testStylesAndRoutingShareTheIndex() throws {
        let scratch = Scratch("repo-writer")
        defer { scratch.remove() }
        let root = scratch.path("repo")
        let s = object("style pack"), t = object("tile")
        let w = try RepositoryWriter(root: root)
        try w.putObject(parts: [s.bytes[...], t.bytes[...]], sha256: SHA256.hex(SHA256.hash(s.bytes + t.bytes)))
        assertInputError(try w.commitStyle(uri: "mapbox://x", sha256: s.sha, size: s.bytes.count), contains: "is not stored")
        try w.putObject(parts: [s.bytes[...]], sha256: s.sha)
        try w.putObject(parts: [t.bytes[...]], sha256: t.sha)
        XCTAssertEqual(try w.commitStyle(uri: "mapbox://x", sha256: s.sha, size: s.bytes.count), .published)
        XCTAssertEqual(try w.commitStyle(uri: "mapbox://x", sha256: s.sha, size: s.bytes.count), .unchanged)
        let routing = RoutingVersionIndex(profile: "car", profileHash: String(repeating: "c", count: 64), dataVersion: "2024-01-01-0",
                                          gridDegrees: 0.25, bbox: [0, 0, 0.25, 0.25],
                                          entries: [RepositoryEntry(key: "7", sha256: t.sha, size: t.bytes.count)])
        XCTAssertEqual(try w.commit(routing), .published)
        let index = try w.currentIndex()
        XCTAssertEqual(index.styles.map(\.uri), ["mapbox://x"])
        XCTAssertEqual(index.routing(profile: "car")?.versions.first?.index, "routing/car/2024-01-01-0.json")
        XCTAssertEqual(try RepositoryVerifier.verify(root: root).versions, 1)
    }
}
