import OffgridCore
import Foundation
@testable import RoutingPacks
import XCTest
import TestSupport

/// Damaged, foreign and hostile files must give one clear `InputError` naming the file and a
/// byte offset — never a crash, a hang or a huge allocation.
final class RoutingPackReaderErrorTests: XCTestCase {
    var scratch: ScratchDirectory!
    var good: [UInt8] = []
    var layout = (indexOffset: 0, dataOffset: 0, entries: [RoutingPackIndexEntry]())

    override func setUpWithError() throws {
        scratch = ScratchDirectory()
        let path = try PackFixtures.writePack(scratch, name: "good.routing.pack", ids: [10, 11, 12, 500, 501])
        good = PackFixtures.bytes(path)
        let reader = try RoutingPackReader(path: path)
        layout = (reader.indexOffset, reader.dataOffset, reader.entries)
    }

    override func tearDown() { scratch.remove() }

    /// Writes `bytes` as a pack file and opens it, returning the error.
    @discardableResult
    private func openError(_ bytes: [UInt8], contains fragment: String = "",
                           file: StaticString = #filePath, line: UInt = #line) -> InputError? {
        let path = scratch.path("bad.routing.pack")
        PackFixtures.write(bytes, to: path)
        let error = assertInputError(try RoutingPackReader(path: path), contains: fragment, file: file, line: line)
        XCTAssertEqual(error?.file, path, file: file, line: line)
        XCTAssertNotNil(error?.offset, "error should give a byte offset", file: file, line: line)
        return error
    }

    /// Patches a field and recomputes every CRC32, so only the structural checks can catch it.
    private func withValidCRCs(_ patch: (inout [UInt8]) -> Void) -> [UInt8] {
        var bytes = good
        patch(&bytes)
        func u32(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) << 16 | Int(bytes[at + 3]) << 24 }
        func put(_ v: UInt32, _ at: Int) { for i in 0..<4 { bytes[at + i] = UInt8(truncatingIfNeeded: v >> (8 * UInt32(i))) } }
        let headerLength = u32(24)
        if 64 + headerLength <= bytes.count { put(CRC32.checksum(bytes[64..<64 + headerLength]), 28) }
        let indexStart = (64 + headerLength + 7) / 8 * 8, indexEnd = indexStart + u32(36)
        if indexEnd <= bytes.count { put(CRC32.checksum(bytes[indexStart..<indexEnd]), 40) }
        put(CRC32.checksum(bytes[0..<60]), 60)
        return bytes
    }

    private func put32(_ bytes: inout [UInt8], _ v: UInt32, at: Int) {
        for i in 0..<4 { bytes[at + i] = UInt8(truncatingIfNeeded: v >> (8 * UInt32(i))) }
    }

    private func put64(_ bytes: inout [UInt8], _ v: UInt64, at: Int) {
        for i in 0..<8 { bytes[at + i] = UInt8(truncatingIfNeeded: v >> (8 * UInt64(i))) }
    }

    func testEmptyFile() {
        let error = openError([], contains: "empty file")
        XCTAssertEqual(error?.offset, 0)
    }

    func testTruncatedAtEveryInterestingPoint() {
        let cuts = [1, 7, 8, 40, 63, 64, 70, layout.indexOffset, layout.indexOffset + 13, layout.dataOffset,
                    layout.dataOffset + 1, Int(layout.entries[2].offset) + 5, good.count - 1]
        for cut in cuts {
            let error = openError(Array(good[0..<cut]), contains: "truncated")
            XCTAssertEqual(error?.offset, cut, "cut at \(cut)")
        }
    }

    func testTrailingBytesAreRefused() {
        openError(good + [0, 0, 0], contains: "unexpected bytes after the declared end")
    }

    func testFlippedByteInPreambleHeaderAndIndex() {
        for at in [9, 20, 30, 33, 41, 57] {
            var bytes = good
            bytes[at] ^= 0x40
            // The version field is checked before the CRC so that future versions are named.
            openError(bytes, contains: at == 9 ? "unsupported routing pack version" : "preamble fails its CRC32 check")
        }
        var header = good
        header[64 + 45] ^= 0x01
        XCTAssertEqual(openError(header, contains: "header fails its CRC32 check")?.offset, 64)
        var index = good
        index[layout.indexOffset + 34 + 5] ^= 0x80
        XCTAssertEqual(openError(index, contains: "index fails its CRC32 check")?.offset, layout.indexOffset)
    }

    func testFlippedByteInATileNamesTheTile() throws {
        for (position, flipAt) in [(0, 0), (3, 7), (4, -1)] {
            let entry = layout.entries[position]
            var bytes = good
            let at = flipAt >= 0 ? Int(entry.offset) + flipAt : Int(entry.offset) + Int(entry.compressedSize) - 1
            bytes[at] ^= 0x10
            let path = scratch.path("tile.routing.pack")
            PackFixtures.write(bytes, to: path)
            let reader = try RoutingPackReader(path: path)  // structure is fine…
            for i in 0..<reader.tileCount where i != position { _ = try reader.tileBytes(at: i) }
            let error = assertInputError(try reader.tileBytes(at: position), contains: "tile \(entry.tileID):")
            XCTAssertEqual(error?.offset, Int(entry.offset))
        }
    }

    func testRawCRCMismatchIsCaughtEvenWhenTheCompressedCRCIsConsistent() throws {
        // An index whose raw CRC32 disagrees with what the intact stream inflates to.
        let entry = layout.entries[0]
        let bytes = withValidCRCs { put32(&$0, entry.rawCRC32 ^ 1, at: layout.indexOffset + 30) }
        let path = scratch.path("raw.routing.pack")
        PackFixtures.write(bytes, to: path)
        let error = assertInputError(try RoutingPackReader(path: path).tileBytes(at: 0),
                                     contains: "tile 10: content fails its CRC32")
        XCTAssertEqual(error?.offset, Int(entry.offset))
    }

    func testWrongRawSizeIsCaught() throws {
        for delta: Int64 in [-1, 1] {
            let entry = layout.entries[2]
            let bytes = withValidCRCs { put64(&$0, UInt64(Int64(entry.rawSize) + delta), at: layout.indexOffset + 2 * 34 + 22) }
            let path = scratch.path("size.routing.pack")
            PackFixtures.write(bytes, to: path)
            assertInputError(try RoutingPackReader(path: path).tileBytes(at: 2), contains: "tile \(entry.tileID): ")
        }
    }

    func testForeignFiles() {
        let pbf = Array(PackFixtures.sampleBytes.prefix(100_000))
        openError(pbf, contains: "OSM PBF")
        openError([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3] + Array(repeating: 0, count: 100), contains: "gzip")
        openError(Array("SQLite format 3\0".utf8) + Array(repeating: 0, count: 200), contains: "SQLite")
        openError(Array("hello\n".utf8), contains: "not a routing pack")
    }

    func testRandomBytesNeverCrash() {
        var rng = TestRandom(seed: 42)
        for size in [1, 8, 63, 64, 65, 200, 4096, 70_000] {
            openError(rng.bytes(size))
            // The magic followed by noise: passes the first check only.
            openError(Array(good[0..<8]) + rng.bytes(size))
            openError(Array(good[0..<12]) + rng.bytes(size))
        }
    }

    func testHostileCountsAndOffsetsWithValidChecksums() {
        openError(withValidCRCs { put32(&$0, UInt32.max, at: 32) }, contains: "exceed the limit")
        openError(withValidCRCs { put32(&$0, 3, at: 32) }, contains: "index length")
        openError(withValidCRCs { put32(&$0, UInt32.max, at: 36) }, contains: "index length")
        openError(withValidCRCs { put32(&$0, UInt32.max, at: 24) }, contains: "header length")
        openError(withValidCRCs { put64(&$0, 1 << 62, at: 48) }, contains: "index offset")
        openError(withValidCRCs { put32(&$0, 5, at: 12) }, contains: "unknown flags")
        openError(withValidCRCs { put32(&$0, 7, at: 56) }, contains: "reserved")
        openError(withValidCRCs { put32(&$0, 7, at: 44) }, contains: "reserved")

        let e1 = layout.indexOffset + 34  // second entry
        let base = layout.entries[1]
        // Overlapping the first tile, past the end, and huge offsets and lengths.
        openError(withValidCRCs { put64(&$0, base.offset - 4, at: e1 + 6) }, contains: "neither the next blob")
        openError(withValidCRCs { put64(&$0, UInt64(layout.indexOffset), at: e1 + 6) }, contains: "outside the data section")
        openError(withValidCRCs { put64(&$0, UInt64.max, at: e1 + 6) }, contains: "outside the data section")
        openError(withValidCRCs { put64(&$0, UInt64.max, at: e1 + 14) }, contains: "outside the data section")
        openError(withValidCRCs { put64(&$0, 3, at: e1 + 14) }, contains: "too small for a zlib stream")
        openError(withValidCRCs { put64(&$0, UInt64.max, at: e1 + 22) }, contains: "exceeds")
        openError(withValidCRCs { put64(&$0, UInt64(base.compressedSize) * 2000, at: e1 + 22) }, contains: "impossible")
        openError(withValidCRCs { put16(&$0, 0, at: e1) }, contains: "key length")
        // Ids out of order or repeated.
        openError(withValidCRCs { put32BE(&$0, 10, at: e1 + 2) }, contains: "strictly ascending")
        // The header's own fields.
        openError(withValidCRCs { put32(&$0, UInt32.max, at: 64 + 40) }, contains: "malformed header")
        openError(withValidCRCs { $0[64 + 44] = UInt8(ascii: "x") }, contains: "yyyy-MM-dd-N")
    }

    private func put16(_ bytes: inout [UInt8], _ v: UInt16, at: Int) {
        bytes[at] = UInt8(truncatingIfNeeded: v)
        bytes[at + 1] = UInt8(truncatingIfNeeded: v >> 8)
    }

    private func put32BE(_ bytes: inout [UInt8], _ v: UInt32, at: Int) {
        for i in 0..<4 { bytes[at + i] = UInt8(truncatingIfNeeded: v >> (8 * UInt32(3 - i))) }
    }

    func testNonRegularAndMissingFiles() {
        assertInputError(try RoutingPackReader(path: scratch.root), contains: "not a regular file")
        assertInputError(try RoutingPackReader(path: scratch.path("missing.routing.pack")), contains: "cannot open")
    }
}
