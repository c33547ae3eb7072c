import OffgridCore
import Foundation
import TileSources
import TestSupport
import XCTest

/// Hostile and broken inputs: every one is an `InputError` naming the file, never a crash.
final class CorruptSourceTests: XCTestCase {
    var scratch: Scratch!
    override func setUp() { scratch = Scratch() }
    override func tearDown() { scratch.remove() }

    func expectError(_ bytes: [UInt8], _ fragment: String, name: String = "bad.pmtiles", readAll: Bool = true,
                     file: StaticString = #filePath, line: UInt = #line) {
        let path = try! scratch.write(name, bytes)
        do {
            let s = try TileSources.open(path: path)
            if readAll {
                for t in try s.allTiles() { _ = try s.tile(t.coordinate) }
            }
            XCTFail("no error for \(fragment)", file: file, line: line)
        } catch let e as InputError {
            XCTAssertEqual(e.file, path, file: file, line: line)
            XCTAssertTrue(e.description.contains(fragment), "\(e.description) lacks \(fragment)", file: file, line: line)
        } catch {
            XCTFail("not an InputError: \(error)", file: file, line: line)
        }
    }

    func u64(_ v: UInt64) -> [UInt8] { withUnsafeBytes(of: v.littleEndian) { Array($0) } }

    func patched(_ bytes: [UInt8], at offset: Int, _ value: [UInt8]) -> [UInt8] {
        var b = bytes
        b.replaceSubrange(offset..<(offset + value.count), with: value)
        return b
    }

    func testNotATileset() {
        expectError([], "empty file")
        expectError(Array("hello world, not tiles".utf8), "not an MBTiles or PMTiles tileset")
        expectError([0x1f, 0x8b, 8, 0, 0, 0], "gzip")
        expectError(Array("{\"type\":\"Feature\"}".utf8), "JSON")
        let pbf = fileBytes(repositoryRoot.appendingPathComponent("samples/liechtenstein.osm.pbf").path)
        expectError(Array(pbf.prefix(4096)), "OSM PBF")
    }

    func testPMTilesHeaderProblems() {
        let good = PMTilesFixture.build(tiles: [.init(id: 0, bytes: [1, 2, 3]), .init(id: 1, bytes: [4])])
        expectError(Array(good.prefix(100)), "truncated PMTiles header")
        expectError(patched(good, at: 7, [2]), "unsupported PMTiles version 2")
        expectError(patched(good, at: 97, [3]), "unsupported internal compression brotli")
        expectError(patched(good, at: 97, [9]), "unknown internal compression")
        expectError(patched(good, at: 98, [7]), "unknown tile compression")
        expectError(patched(good, at: 100, [9, 3]), "bad zoom range")
        expectError(patched(good, at: 16, u64(1 << 40)), "extends past the end of the file")
        expectError(patched(good, at: 56, u64(UInt64.max - 3)), "extends past the end of the file")
        expectError(Array(good.dropLast(1)), "extends past the end of the file")
    }

    func testPMTilesDirectoryProblems() {
        func withRoot(_ dir: [UInt8], gzip: Bool = false) -> [UInt8] {
            // Header for an uncompressed archive whose root is `dir`, no metadata, 16 data bytes.
            var base = PMTilesFixture.build(tiles: [.init(id: 0, bytes: Array(repeating: 7, count: 16))], gzipInternal: false, metadata: [:])
            let rootLength = Int(base[16])
            let old = Array(base[127..<(127 + rootLength)])
            _ = old
            let data = Array(base.suffix(16))
            base = Array(base.prefix(127))
            let meta: [UInt8] = Array("{}".utf8)
            let rootOffset: UInt64 = 127, metaOffset = rootOffset + UInt64(dir.count), dataOffset = metaOffset + UInt64(meta.count)
            base = patched(base, at: 8, u64(rootOffset) + u64(UInt64(dir.count)) + u64(metaOffset) + u64(UInt64(meta.count))
                                  + u64(dataOffset) + u64(0) + u64(dataOffset) + u64(16))
            if gzip { base[97] = 2 }
            return base + dir + meta + data
        }
        var v: [UInt8] = []
        func entries(_ ids: [UInt64], runs: [UInt64], lengths: [UInt64], offsets: [UInt64], count: UInt64? = nil) -> [UInt8] {
            var out: [UInt8] = []
            PMTilesFixture.varint(count ?? UInt64(ids.count), &out)
            for x in ids { PMTilesFixture.varint(x, &out) }
            for x in runs { PMTilesFixture.varint(x, &out) }
            for x in lengths { PMTilesFixture.varint(x, &out) }
            for x in offsets { PMTilesFixture.varint(x, &out) }
            return out
        }
        // A sane root decodes.
        XCTAssertNoThrow(try TileSources.open(path: try scratch.write("ok.pmtiles", withRoot(entries([0], runs: [1], lengths: [16], offsets: [1])))))
        expectError(withRoot([0x80, 0x80]), "truncated varint")
        expectError(withRoot(entries([0], runs: [1], lengths: [16], offsets: [1], count: 1_000_000)), "claims 1000000 entries")
        expectError(withRoot([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]), "varint")
        expectError(withRoot(entries([0], runs: [1], lengths: [17], offsets: [1])), "points past the tile data")
        expectError(withRoot(entries([0], runs: [1], lengths: [4], offsets: [UInt64.max])), "points past")
        expectError(withRoot(entries([0, 0], runs: [1, 1], lengths: [4, 4], offsets: [1, 0])), "not strictly ascending")
        expectError(withRoot(entries([0], runs: [1], lengths: [0], offsets: [1])), "bad length")
        expectError(withRoot(entries([0, 1], runs: [5, 1], lengths: [4, 4], offsets: [1, 0])), "overlaps the next entry")
        expectError(withRoot(entries([0], runs: [1], lengths: [16], offsets: [0])), "relative offset")
        expectError(withRoot(entries([0], runs: [1], lengths: [16], offsets: [1]), gzip: true), "gzip")
        v = entries([UInt64.max / 2], runs: [1], lengths: [16], offsets: [1])
        expectError(withRoot(v), "beyond zoom 30")
        // A leaf entry pointing at a leaf section of size 0.
        expectError(withRoot(entries([0], runs: [0], lengths: [8], offsets: [1])), "leaf directories")
    }

    func testLeafCycleIsStopped() throws {
        // Root → leaf at offset 0 whose only entry is a leaf pointing at itself.
        var leaf: [UInt8] = []
        PMTilesFixture.varint(1, &leaf); PMTilesFixture.varint(0, &leaf); PMTilesFixture.varint(0, &leaf)
        var probe = leaf
        PMTilesFixture.varint(UInt64(leaf.count + 2), &probe)
        let leafLength = UInt64(probe.count - leaf.count + leaf.count + 1)
        _ = leafLength
        // Build the self-referencing leaf: [count=1][delta=0][run=0][length=L][offset=0+1], L = its own size.
        var selfLeaf: [UInt8] = []
        for candidate in 4...8 {
            var b: [UInt8] = []
            PMTilesFixture.varint(1, &b); PMTilesFixture.varint(0, &b); PMTilesFixture.varint(0, &b)
            PMTilesFixture.varint(UInt64(candidate), &b); PMTilesFixture.varint(1, &b)
            if b.count == candidate { selfLeaf = b; break }
        }
        XCTAssertFalse(selfLeaf.isEmpty)
        var root: [UInt8] = []
        PMTilesFixture.varint(1, &root); PMTilesFixture.varint(0, &root); PMTilesFixture.varint(0, &root)
        PMTilesFixture.varint(UInt64(selfLeaf.count), &root); PMTilesFixture.varint(1, &root)
        let meta = Array("{}".utf8)
        let rootOffset: UInt64 = 127, metaOffset = rootOffset + UInt64(root.count), leafOffset = metaOffset + UInt64(meta.count)
        let dataOffset = leafOffset + UInt64(selfLeaf.count)
        var header = Array("PMTiles".utf8) + [3]
        for v in [rootOffset, UInt64(root.count), metaOffset, UInt64(meta.count), leafOffset, UInt64(selfLeaf.count), dataOffset, 0, 0, 0, 0] {
            header += u64(v)
        }
        header += [1, 1, 2, 1, 0, 14] + [UInt8](repeating: 0, count: 16) + [0] + [UInt8](repeating: 0, count: 8)
        XCTAssertEqual(header.count, 127)
        expectError(header + root + meta + selfLeaf, "nested deeper")
    }

    func testTruncatedPMTilesSample() {
        let sample = fileBytes(samplePMTiles)
        expectError(Array(sample.prefix(sample.count / 2)), "extends past the end of the file")
        expectError(Array(sample.prefix(126)), "truncated PMTiles header")
    }

    func testMBTilesProblems() throws {
        let sample = fileBytes(sampleMBTiles)
        expectError(Array(sample.prefix(sample.count / 3)), "MBTiles", name: "cut.mbtiles")
        // Garbage in the middle of the database: SQLite reports corruption when the pages are read.
        var garbled = sample
        for i in stride(from: 8192, to: garbled.count - 4096, by: 1) { garbled[i] = UInt8(truncatingIfNeeded: i &* 31) }
        expectError(garbled, "MBTiles", name: "garbled.mbtiles")
        // An SQLite database that is not MBTiles.
        let path = scratch.path("other.sqlite")
        try sqlite3(path, "CREATE TABLE t (a int); INSERT INTO t VALUES (1);", what: "sqlite3 made the database")
        do {
            _ = try TileSources.open(path: path)
            XCTFail("an unrelated database opened as MBTiles")
        } catch let e as InputError {
            XCTAssertTrue(e.description.contains("not an MBTiles tileset"), e.description)
        }
    }
}
