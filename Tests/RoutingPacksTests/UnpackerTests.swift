import OffgridCore
import Foundation
@testable import RoutingPacks
import ToolSupport
import TestSupport
import XCTest

final class UnpackerTests: XCTestCase {
    typealias Manifest = UnpackedRoutingDirectory.Manifest
    var scratch: ScratchDirectory!
    var dir: String { scratch.path("routing") }

    override func setUp() { scratch = ScratchDirectory() }
    override func tearDown() { scratch.remove() }

    @discardableResult
    private func unpack(_ pack: String, replace: Bool = false) throws -> UnpackSummary {
        try RoutingPackUnpacker.unpack(packPath: pack, outputDir: dir, replace: replace, progress: SilentProgress())
    }

    private func corrupt(_ pack: String, tile position: Int) throws -> String {
        let entry = try RoutingPackReader(path: pack).entries[position]
        var bytes = PackFixtures.bytes(pack)
        bytes[Int(entry.offset) + Int(entry.compressedSize) / 2] ^= 0x55
        let path = scratch.path("corrupt.routing.pack")
        PackFixtures.write(bytes, to: path)
        return path
    }

    /// Runs `body`, expecting an InputError, and checks that DIR is exactly as before and that
    /// no partial directory was left behind.
    private func assertFailsLeavingDirectoryUnchanged(_ fragment: String, file: StaticString = #filePath,
                                                      line: UInt = #line, _ body: () throws -> Void) {
        let before = TreeSnapshot(dir)
        assertInputError(try body(), contains: fragment, file: file, line: line)
        let after = TreeSnapshot(dir)
        XCTAssertEqual(before, after, "directory changed:\nbefore\n\(before)\nafter\n\(after)", file: file, line: line)
        XCTAssertEqual(scratch.leftovers(), [], file: file, line: line)
    }

    func testUnpackIntoNewDirectory() throws {
        let geo = #"{"coordinates":[9.52,47.14],"type":"Point"}"#
        let pack = try PackFixtures.writePack(scratch, name: "li.routing.pack", ids: [30, 10, 20],
                                              header: PackFixtures.header(geoJSON: geo))
        let summary = try unpack(pack)
        XCTAssertEqual(summary, UnpackSummary(output: dir, pack: "li.routing.pack", dataVersion: "2024-05-01-1",
                                              tiles: 3, packTiles: 3, tilesAdded: 3, tilesAlreadyPresent: 0,
                                              regions: 1, noop: false, replaced: false))
        let unpacked = try UnpackedRoutingDirectory(path: dir)
        let m = unpacked.manifest
        XCTAssertEqual(m.dataVersion, "2024-05-01-1")
        XCTAssertEqual(m.profileName, "car")
        XCTAssertEqual(m.profileHash, "3fa9c0de")
        XCTAssertEqual(m.gridDegrees, 0.25)
        XCTAssertEqual(m.regions, [Manifest.Region(pack: "li.routing.pack", bbox: [9.47, 47.04, 9.64, 47.28],
                                                   geometry: geo, tiles: 3)])
        XCTAssertEqual(m.tiles.map(\.id), [10, 20, 30])
        for tile in m.tiles {
            XCTAssertEqual(tile.file, "\(tile.id).tile")
            XCTAssertEqual(try unpacked.verifyTile(id: tile.id), PackFixtures.tileBytes(id: tile.id))
        }
        XCTAssertEqual(Set(try FileManager.default.contentsOfDirectory(atPath: dir)),
                       ["manifest.json", "10.tile", "20.tile", "30.tile"])
        XCTAssertEqual(scratch.leftovers(), [])

        // The manifest is the documented JSON, keys sorted.
        let json = String(decoding: PackFixtures.bytes(scratch.path("routing/manifest.json")), as: UTF8.self)
        XCTAssertTrue(json.hasSuffix("}\n"))
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        XCTAssertEqual(object.keys.sorted(), ["dataVersion", "formatVersion", "gridDegrees", "profileHash",
                                              "profileName", "regions", "tiles"])
        let region = try XCTUnwrap((object["regions"] as? [[String: Any]])?.first)
        XCTAssertEqual((region["geometry"] as? [String: Any])?["type"] as? String, "Point")
        let firstTile = try XCTUnwrap((object["tiles"] as? [[String: Any]])?.first)
        XCTAssertEqual(firstTile["crc32"] as? Int, Int(CRC32.checksum(PackFixtures.tileBytes(id: 10))))
        XCTAssertEqual(firstTile["size"] as? Int, PackFixtures.tileBytes(id: 10).count)
    }

    func testSecondPackOfSameVersionMerges() throws {
        let west = try PackFixtures.writePack(scratch, name: "west.routing.pack", ids: [1, 2, 3],
                                              header: PackFixtures.header(bbox: (9.4, 47.0, 9.55, 47.3)))
        let east = try PackFixtures.writePack(scratch, name: "east.routing.pack", ids: [3, 4],
                                              header: PackFixtures.header(bbox: (9.55, 47.0, 9.7, 47.3)))
        try unpack(west)
        let tile1Before = TreeSnapshot(dir).entries["1.tile"]
        let summary = try unpack(east)
        XCTAssertEqual(summary.tiles, 4)
        XCTAssertEqual(summary.tilesAdded, 1)
        XCTAssertEqual(summary.tilesAlreadyPresent, 1)
        XCTAssertEqual(summary.regions, 2)
        XCTAssertFalse(summary.noop)
        let unpacked = try UnpackedRoutingDirectory(path: dir)
        XCTAssertEqual(unpacked.manifest.tiles.map(\.id), [1, 2, 3, 4])
        XCTAssertEqual(unpacked.manifest.regions.map(\.pack), ["east.routing.pack", "west.routing.pack"])
        for id: UInt32 in 1...4 { XCTAssertEqual(try unpacked.verifyTile(id: id), PackFixtures.tileBytes(id: id)) }
        // Unchanged tiles are hard-linked, not rewritten.
        XCTAssertEqual(TreeSnapshot(dir).entries["1.tile"], tile1Before)

        // Merging in the other order gives the same manifest bytes.
        let other = scratch.path("routing2")
        _ = try RoutingPackUnpacker.unpack(packPath: east, outputDir: other, progress: SilentProgress())
        _ = try RoutingPackUnpacker.unpack(packPath: west, outputDir: other, progress: SilentProgress())
        XCTAssertEqual(PackFixtures.bytes(dir + "/manifest.json"), PackFixtures.bytes(other + "/manifest.json"))
    }

    func testConflictingTileIsRefusedAndDirectoryUnchanged() throws {
        try unpack(try PackFixtures.writePack(scratch, name: "a.routing.pack", ids: [1, 2]))
        let conflicting = scratch.path("b.routing.pack")
        try RoutingPackWriter.write(header: PackFixtures.header(), tiles: [(id: 2, raw: [1, 2, 3]), (id: 9, raw: [4])],
                                    to: conflicting)
        assertFailsLeavingDirectoryUnchanged("tile 2 differs between \(dir) and b.routing.pack") {
            try unpack(conflicting)
        }
    }

    func testDifferentVersionIsRefusedUnlessReplace() throws {
        try unpack(try PackFixtures.writePack(scratch, name: "old.routing.pack", ids: [1, 2]))
        let newer = try PackFixtures.writePack(scratch, name: "new.routing.pack", ids: [2, 3],
                                               header: PackFixtures.header(dataVersion: "2024-06-01-2"))
        let otherProfile = try PackFixtures.writePack(scratch, name: "p.routing.pack", ids: [5],
                                                      header: PackFixtures.header(profileHash: "beef"))
        let otherGrid = try PackFixtures.writePack(scratch, name: "g.routing.pack", ids: [5],
                                                   header: PackFixtures.header(gridDegrees: 0.5))
        assertFailsLeavingDirectoryUnchanged("data version 2024-06-01-2") { try unpack(newer) }
        assertFailsLeavingDirectoryUnchanged("profile") { try unpack(otherProfile) }
        assertFailsLeavingDirectoryUnchanged("grid") { try unpack(otherGrid) }

        let summary = try unpack(newer, replace: true)
        XCTAssertTrue(summary.replaced)
        XCTAssertEqual(summary.tilesAdded, 2)
        let m = try UnpackedRoutingDirectory.load(dir)
        XCTAssertEqual(m.dataVersion, "2024-06-01-2")
        XCTAssertEqual(m.tiles.map(\.id), [2, 3])
        XCTAssertEqual(m.regions.map(\.pack), ["new.routing.pack"])
        XCTAssertEqual(Set(try FileManager.default.contentsOfDirectory(atPath: dir)), ["manifest.json", "2.tile", "3.tile"])
        XCTAssertEqual(scratch.leftovers(), [])
    }

    func testCorruptOrTruncatedPackLeavesDirectoryExactlyAsItWas() throws {
        let first = try PackFixtures.writePack(scratch, name: "a.routing.pack", ids: [1, 2, 3])
        try unpack(first)
        let second = try PackFixtures.writePack(scratch, name: "b.routing.pack", ids: [3, 4, 5, 6])
        let corrupted = try corrupt(second, tile: 3)  // the last tile: all others were fine
        assertFailsLeavingDirectoryUnchanged("tile 6:") { try unpack(corrupted) }

        let truncated = scratch.path("t.routing.pack")
        PackFixtures.write(Array(PackFixtures.bytes(second).dropLast(10)), to: truncated)
        assertFailsLeavingDirectoryUnchanged("truncated") { try unpack(truncated) }
        // Also with --replace, and onto a directory that does not exist yet.
        assertFailsLeavingDirectoryUnchanged("tile 6:") { try unpack(corrupted, replace: true) }
        let fresh = scratch.path("fresh")
        assertInputError(try RoutingPackUnpacker.unpack(packPath: corrupted, outputDir: fresh, progress: SilentProgress()))
        XCTAssertEqual(FileTools.kind(fresh), .missing)
        XCTAssertEqual(scratch.leftovers(), [])
    }

    func testRerunIsANoop() throws {
        let pack = try PackFixtures.writePack(scratch, name: "a.routing.pack", ids: [1, 2, 3])
        try unpack(pack)
        let before = TreeSnapshot(dir)
        usleep(20_000)  // so a rewrite would show in the mtimes
        let summary = try unpack(pack)
        XCTAssertTrue(summary.noop)
        XCTAssertEqual(summary.tilesAdded, 0)
        XCTAssertEqual(summary.tilesAlreadyPresent, 3)
        XCTAssertEqual(TreeSnapshot(dir), before)
        XCTAssertEqual(scratch.leftovers(), [])

        // A second pack merged in, then the first again: still a no-op.
        try unpack(try PackFixtures.writePack(scratch, name: "b.routing.pack", ids: [3, 4]))
        let merged = TreeSnapshot(dir)
        XCTAssertTrue(try unpack(pack).noop)
        XCTAssertEqual(TreeSnapshot(dir), merged)
    }

    func testDamagedTileFileIsRepairedByRerun() throws {
        let pack = try PackFixtures.writePack(scratch, name: "a.routing.pack", ids: [1, 2])
        try unpack(pack)
        PackFixtures.write([1, 2, 3], to: dir + "/2.tile")
        assertInputError(try UnpackedRoutingDirectory(path: dir).verifyTile(id: 2), contains: "has 3 bytes")
        XCTAssertFalse(try unpack(pack).noop)
        XCTAssertEqual(try UnpackedRoutingDirectory(path: dir).verifyTile(id: 2), PackFixtures.tileBytes(id: 2))

        // Same size, different bytes: only the CRC32 notices.
        var bytes = PackFixtures.tileBytes(id: 1)
        bytes[0] ^= 1
        PackFixtures.write(bytes, to: dir + "/1.tile")
        assertInputError(try UnpackedRoutingDirectory(path: dir).verifyTile(id: 1), contains: "CRC32")
        assertInputError(try UnpackedRoutingDirectory(path: dir).verifyTile(id: 77), contains: "not in manifest.json")
    }

    func testRefusesDirectoriesThatAreNotOurs() throws {
        let pack = try PackFixtures.writePack(scratch, name: "a.routing.pack", ids: [1])
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        PackFixtures.write([1], to: dir + "/precious.txt")
        assertFailsLeavingDirectoryUnchanged("not an unpacked routing directory") { try unpack(pack, replace: true) }
        try FileManager.default.removeItem(atPath: dir)
        PackFixtures.write([1], to: dir)
        assertInputError(try unpack(pack), contains: "not a directory")
        try FileManager.default.removeItem(atPath: dir)

        // An existing empty directory is fine.
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        XCTAssertEqual(try unpack(pack).tiles, 1)

        // A damaged manifest is an error, or replaced with --replace.
        PackFixtures.write(Array("{\"formatVersion\": 1}".utf8), to: dir + "/manifest.json")
        assertFailsLeavingDirectoryUnchanged("invalid manifest") { try unpack(pack) }
        XCTAssertTrue(try unpack(pack, replace: true).replaced)
        XCTAssertEqual(try UnpackedRoutingDirectory.load(dir).tiles.map(\.id), [1])
    }

    func testStalePartialDirectoriesAreCleanedUp() throws {
        // A pid that is certainly not running: above the kernel's maximum.
        let stale = dir + ".partial-99999999"
        try FileManager.default.createDirectory(atPath: stale, withIntermediateDirectories: true)
        PackFixtures.write([1, 2, 3], to: stale + "/5.tile")
        let ours = dir + ".partial-\(getpid())"
        try FileManager.default.createDirectory(atPath: ours, withIntermediateDirectories: true)
        try unpack(try PackFixtures.writePack(scratch, name: "a.routing.pack", ids: [1]))
        XCTAssertEqual(scratch.leftovers(), [])
    }

    func testOutputPathSpellings() throws {
        let pack = try PackFixtures.writePack(scratch, name: "a.routing.pack", ids: [1])
        _ = try RoutingPackUnpacker.unpack(packPath: pack, outputDir: dir + "/", progress: SilentProgress())
        XCTAssertTrue(try RoutingPackUnpacker.unpack(packPath: pack, outputDir: dir + "/./", progress: SilentProgress()).noop)
        XCTAssertEqual(RoutingPackUnpacker.absoluteDirectory("/a/b/../c/"), "/a/c")
        // Through a symlink: the target directory is updated, the link stays a link.
        let link = scratch.path("link")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: dir)
        let other = try PackFixtures.writePack(scratch, name: "b.routing.pack", ids: [2])
        XCTAssertEqual(try RoutingPackUnpacker.unpack(packPath: other, outputDir: link, progress: SilentProgress()).tiles, 2)
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: link), dir)
        XCTAssertEqual(try UnpackedRoutingDirectory.load(dir).tiles.map(\.id), [1, 2])
        // Missing parents are created, as `mkdir -p` would; a parent that is a file is an error.
        XCTAssertEqual(try RoutingPackUnpacker.unpack(packPath: pack, outputDir: scratch.path("no/such/dir"), progress: SilentProgress()).tiles, 1)
        _ = FileManager.default.createFile(atPath: scratch.path("afile"), contents: Data([1]))
        assertInputError(try RoutingPackUnpacker.unpack(packPath: pack, outputDir: scratch.path("afile/dir"),
                                                        progress: SilentProgress()), contains: "is not a directory")
    }

    func testUnpackReportsProgressAsJSONLines() throws {
        let pack = try PackFixtures.writePack(scratch, name: "a.routing.pack", ids: Array(1...20))
        var lines: [String] = []
        let reader = try RoutingPackReader(path: pack)
        let reporter = ProgressReporter(mode: .json, label: "unpack", totalBytes: reader.totalCompressedBytes,
                                        totalItems: reader.tileCount, sink: { lines.append($0) })
        _ = try RoutingPackUnpacker.unpack(reader, outputDir: dir, progress: reporter)
        let total = reader.totalCompressedBytes
        XCTAssertEqual(lines.first, "{\"event\":\"progress\",\"totalBytes\":\(total),\"bytesRemaining\":\(total),\"tiles\":20,\"tilesDone\":0}\n")
        XCTAssertEqual(lines.last, "{\"event\":\"done\",\"totalBytes\":\(total),\"bytesRemaining\":0,\"tiles\":20,\"tilesDone\":20,\"noop\":false,\"tilesAdded\":20}\n")
    }

    func testManifestDecodingRejectsHostileContent() {
        let path = "/x/manifest.json"
        let cases: [(String, String)] = [
            ("[]", "not a JSON object"),
            (#"{"formatVersion":2}"#, "unsupported formatVersion"),
            (manifestJSON(tiles: #"[{"id":1,"file":"../../etc/passwd","size":1,"crc32":0}]"#), "expected \"1.tile\""),
            (manifestJSON(tiles: #"[{"id":2,"file":"2.tile","size":1,"crc32":0},{"id":1,"file":"1.tile","size":1,"crc32":0}]"#), "out of order"),
            (manifestJSON(tiles: #"[{"id":-1,"file":"-1.tile","size":1,"crc32":0}]"#), "malformed"),
            (manifestJSON(tiles: #"[{"id":1,"file":"1.tile","size":1,"crc32":4294967296}]"#), "malformed"),
        ]
        for (json, fragment) in cases {
            assertInputError(try Manifest.decode(Array(json.utf8), path: path), contains: fragment)
        }
        XCTAssertEqual(try Manifest.decode(Array(manifestJSON(tiles: "[]").utf8), path: path).tiles, [])
    }

    private func manifestJSON(tiles: String) -> String {
        #"{"formatVersion":1,"dataVersion":"2024-05-01-1","profileName":"car","profileHash":"ab","gridDegrees":0.25,"regions":[],"tiles":"#
            + tiles + "}"
    }
}
