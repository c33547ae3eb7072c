import OffgridCore
import PackRepository
import TestSupport
import TileMath
import XCTest

/// The repository model: deterministic bytes that decode back to the same value, and hostile
/// indexes (absurd sizes and counts, `..`, bad hashes, duplicate keys, oversized files) refused
/// with one line naming the source.
final class RepositoryIndexTests: XCTestCase {
    let hashA = String(repeating: "a", count: 64)
    let hashB = String(repeating: "0123456789abcdef", count: 4)

    func sampleIndex() -> RepositoryIndex {
        RepositoryIndex(
            tilesets: [.init(name: "liechtenstein", versions: [
                .init(version: "2", index: "tilesets/liechtenstein/2.json", sha256: hashA, size: 120),
                .init(version: "1", index: "tilesets/liechtenstein/1.json", sha256: hashB, size: 100)])],
            routing: [.init(profile: "car", versions: [
                .init(version: "2024-01-02-0", index: "routing/car/2024-01-02-0.json", sha256: hashB, size: 99)])],
            styles: [.init(uri: "mapbox://styles/offgrid/basic", sha256: hashA, size: 5000)])
    }

    func sampleTileset() -> TilesetVersionIndex {
        TilesetVersionIndex(name: "liechtenstein", version: "1", tileType: .mvt, tileCompression: .gzip, minZoom: 0, maxZoom: 14,
                            bounds: [9.47, 47.04, 9.64, 47.28], bands: ["0-5", "6-10", "11-14"], tilesetId: "Liechtenstein",
                            attribution: "© OpenStreetMap", metadata: ["vector_layers": [["id": "roads"], ["id": "water"]], "version": "1"],
                            expires: nil, entries: [
                                RepositoryEntry(key: "6-10/6-33-22", sha256: hashA, size: 10),
                                RepositoryEntry(key: "0-5/0-0-0", sha256: hashB, size: 20),
                                RepositoryEntry(key: "11-14/11-1077-719", sha256: hashA, size: 10)])
    }

    func sampleRouting() -> RoutingVersionIndex {
        RoutingVersionIndex(profile: "car", profileHash: hashB, dataVersion: "2024-01-02-0", gridDegrees: 0.25,
                            bbox: [9.25, 47.0, 9.75, 47.5], entries: [
                                RepositoryEntry(key: "1000", sha256: hashA, size: 300),
                                RepositoryEntry(key: "999", sha256: hashB, size: 200)])
    }

    func testRoundTripsAreExactAndDeterministic() throws {
        let index = sampleIndex()
        XCTAssertEqual(try RepositoryIndex.decode(index.encoded(), source: "index.json"), index)
        XCTAssertEqual(try RepositoryIndex.decode(index.encoded(), source: "x").encoded(), index.encoded())
        let text = String(decoding: index.encoded(), as: UTF8.self)
        XCTAssertTrue(text.hasPrefix("{\"format\":\"offgrid-repository\",\"format_version\":1,\"routing\":"), text)
        XCTAssertTrue(text.hasSuffix("}\n"))
        // Newest first is kept as given.
        XCTAssertEqual(try RepositoryIndex.decode(index.encoded(), source: "x").tilesets[0].versions.map(\.version), ["2", "1"])

        let tileset = sampleTileset()
        let decoded = try TilesetVersionIndex.decode(tileset.encoded(), source: "t.json")
        XCTAssertEqual(decoded, tileset)
        XCTAssertEqual(decoded.entries.map(\.key), ["0-5/0-0-0", "11-14/11-1077-719", "6-10/6-33-22"], "sorted by key bytes")
        XCTAssertEqual(decoded.vectorLayers, ["roads", "water"])
        XCTAssertEqual(decoded.packKey(decoded.entries[1]), MapPackKey(minZoom: 11, maxZoom: 14, parent: TileCoordinate(z: 11, x: 1077, y: 719)))

        let routing = sampleRouting()
        let r = try RoutingVersionIndex.decode(routing.encoded(), source: "r.json")
        XCTAssertEqual(r, routing)
        XCTAssertEqual(r.tiles.map(\.id), [999, 1000])
        XCTAssertEqual(r.entries.map(\.key), ["1000", "999"])
    }

    func testObjectPathsComeFromTheHashOnly() {
        XCTAssertEqual(RepositoryLayout.objectPath(sha256: hashB), "objects/01/\(hashB)")
        XCTAssertNil(RepositoryLayout.objectPath(sha256: "../../etc/passwd"))
        XCTAssertNil(RepositoryLayout.objectPath(sha256: hashA.uppercased()))
        XCTAssertNil(RepositoryLayout.objectPath(sha256: String(hashA.dropLast())))
        XCTAssertNil(RepositoryLayout.tilesetIndexPath(name: "..", version: "1"))
        XCTAssertNil(RepositoryLayout.routingIndexPath(profile: "car", dataVersion: "a/b"))
        XCTAssertEqual(RepositoryLayout.tilesetIndexPath(name: "t", version: "v1.0"), "tilesets/t/v1.0.json")
    }

    func testKeysAreStrict() {
        XCTAssertNotNil(MapPackKey("6-10/6-33-22"))
        for bad in ["6-10/7-33-22", "6-10/6-64-0", "6-10/06-33-22", "6-10/6-33", "6-20/6-0-0", "../6-0-0", "6-10/6-33-22/x", "", "6-10/6--1-0"] {
            XCTAssertNil(MapPackKey(bad), bad)
        }
        XCTAssertEqual(RoutingVersionIndex.tileId(key: "4294967295"), UInt32.max)
        for bad in ["4294967296", "01", "-1", "1.0", "", "1 "] { XCTAssertNil(RoutingVersionIndex.tileId(key: bad), bad) }
    }

    /// Replaces `path` (object keys, array indexes) in `value` by `new`.
    func replacing(_ value: JSONValue, _ path: [String], with new: JSONValue?) -> JSONValue {
        guard let head = path.first else { return new ?? .null }
        if var o = value.objectValue {
            if path.count == 1 && new == nil { o[head] = nil } else { o[head] = replacing(o[head] ?? .null, Array(path.dropFirst()), with: new) }
            return .object(o)
        }
        if var a = value.arrayValue, let i = Int(head) {
            a[i] = replacing(a[i], Array(path.dropFirst()), with: new)
            return .array(a)
        }
        return value
    }

    func bytes(_ v: JSONValue) -> [UInt8] { Array(JSONWriter.string(v, pretty: false).utf8) }

    func testHostileTopLevelIndexesAreRefused() {
        let good = sampleIndex().json
        let cases: [([String], JSONValue?, String)] = [
            (["format"], "something-else", "format is not"),
            (["format_version"], 2, "unsupported format_version 2"),
            (["tilesets", "0", "name"], "..", "is not [A-Za-z0-9._-]"),
            (["tilesets", "0", "name"], "a/b", "is not [A-Za-z0-9._-]"),
            (["tilesets", "0", "name"], .string(String(repeating: "x", count: 129)), "is not [A-Za-z0-9._-]"),
            (["tilesets", "0", "versions", "0", "index"], "../../etc/passwd", "is not tilesets/liechtenstein/2.json"),
            (["tilesets", "0", "versions", "1", "version"], "2", "version 2 is listed twice"),
            (["tilesets", "0", "versions", "0", "sha256"], .string(String(repeating: "A", count: 64)), "is not 64 lowercase hex"),
            (["tilesets", "0", "versions", "0", "size"], 0, "size 0 is not within"),
            (["tilesets", "0", "versions", "0", "size"], .int(1 << 40), "is not within"),
            (["tilesets", "0", "versions", "0", "size"], 1.5, "size missing or not an integer"),
            (["routing", "0", "versions", "0", "data_version"], "", "is not [A-Za-z0-9._-]"),
            (["styles", "0", "uri"], "line\nbreak", "without control characters"),
            (["styles"], nil, "\"styles\" missing"),
        ]
        for (path, value, fragment) in cases {
            let hostile = replacing(good, path, with: value)
            let e = assertInputError(try RepositoryIndex.decode(bytes(hostile), source: "http://127.0.0.1:1/repo/index.json"), contains: fragment)
            XCTAssertTrue(e?.description.hasPrefix("http://127.0.0.1:1/repo/index.json: invalid repository index") ?? false, "\(e.map { "\($0)" } ?? "")")
            XCTAssertFalse(e?.description.contains("\n") ?? true)
        }
        // Duplicate members (the exact reader refuses them), duplicate tilesets, not JSON, empty.
        assertInputError(try RepositoryIndex.decode(Array("{\"format\":\"offgrid-repository\",\"format\":\"x\"}".utf8), source: "i"), contains: "duplicate member")
        let twice = replacing(good, ["tilesets"], with: .array([good["tilesets"]!.arrayValue![0], good["tilesets"]!.arrayValue![0]]))
        assertInputError(try RepositoryIndex.decode(bytes(twice), source: "i"), contains: "tileset liechtenstein is listed twice")
        assertInputError(try RepositoryIndex.decode([], source: "i"), contains: "i at byte 0")
        assertInputError(try RepositoryIndex.decode(Array("[1,2]".utf8), source: "i"), contains: "not a JSON object")
    }

    func testHostileVersionIndexesAreRefused() {
        let t = sampleTileset().json
        let tileCases: [([String], JSONValue?, String)] = [
            (["entries", "0", "0"], "0-5/../0-0-0", "is not a valid key"),
            (["entries", "1", "0"], "0-5/0-0-0", "key 0-5/0-0-0 is listed twice"),
            (["entries", "0", "0"], "15-16/15-0-0", "is not a valid key"),  // band not in bands
            (["entries", "2"], .array(["6-10/6-33-23", .string(hashA)]), "is not [key, sha256, size]"),
            (["entries", "1", "1"], "zz", "is not 64 lowercase hex"),
            (["entries", "1", "2"], .int(3 << 30), "is not within"),
            (["entries", "1", "2"], -5, "is not within"),
            (["tile_type"], "exe", "unknown tile_type"),
            (["maxzoom"], 99, "minzoom/maxzoom"),
            (["bands", "0"], "0-50", "band 0 is not"),
            (["metadata"], nil, "metadata missing"),
        ]
        for (path, value, fragment) in tileCases {
            assertInputError(try TilesetVersionIndex.decode(bytes(replacing(t, path, with: value)), source: "t.json"), contains: fragment)
        }
        let r = sampleRouting().json
        let routingCases: [([String], JSONValue?, String)] = [
            (["entries", "0", "0"], "abc", "is not a valid key"),
            (["entries", "0", "0"], "999", "is listed twice"),
            (["entries", "0", "2"], .int(1 << 30), "more than the"),
            (["grid_degrees"], 0, "grid_degrees"),
            (["profile_hash"], "x", "profile_hash"),
            (["data_version"], "../x", "is not [A-Za-z0-9._-]"),
        ]
        for (path, value, fragment) in routingCases {
            assertInputError(try RoutingVersionIndex.decode(bytes(replacing(r, path, with: value)), source: "r.json"), contains: fragment)
        }
        // Out of order entries.
        let swapped = replacing(r, ["entries"], with: .array(r["entries"]!.arrayValue!.reversed()))
        assertInputError(try RoutingVersionIndex.decode(bytes(swapped), source: "r.json"), contains: "out of order")
    }

    func testOversizedFilesAreRefusedBeforeReading() throws {
        let scratch = Scratch("repo-index")
        defer { scratch.remove() }
        let path = scratch.path("index.json")
        // A sparse file over the bound: refused from its size, without reading 256 MiB.
        let fd = open(path, O_WRONLY | O_CREAT, 0o644)
        XCTAssertEqual(ftruncate(fd, off_t(RepositoryRules.maxIndexBytes + 1)), 0)
        close(fd)
        assertInputError(try RepositoryIndex.load(path: path), contains: "\(path): has \(RepositoryRules.maxIndexBytes + 1) bytes")
        assertInputError(try RepositoryIndex.decode([UInt8](repeating: 0x20, count: RepositoryRules.maxIndexBytes + 1), source: "u"),
                         contains: "more than the")
    }
}
