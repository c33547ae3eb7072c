import OffgridCore
import Foundation
@testable import StylePacks
import XCTest

/// Hostile and damaged packs: every one is refused with an error naming the problem.
final class StylePackReaderTests: XCTestCase {
    /// A small but complete pack: style, sprite at 1x and 2x, one font stack.
    private func smallPack() throws -> [UInt8] {
        let dir = try temporaryDirectory(self)
        try writeSprite(base: dir + "/sprite", ratio: 1)
        try writeSprite(base: dir + "/sprite", ratio: 2)
        try writeGlyphRanges(stack: "F", in: dir + "/glyphs")
        try write(#"""
            {"version": 8, "name": "small", "sprite": "sprite", "glyphs": "glyphs/{fontstack}/{range}.pbf",
             "sources": {"s": {"type": "vector", "tiles": ["mbtiles://small/{z}/{x}/{y}"]}},
             "layers": [{"id": "l", "type": "symbol", "source": "s", "source-layer": "p", "layout": {"text-field": "x", "text-font": ["F"], "icon-image": "icon"}}]}
            """#, to: dir + "/style.json")
        let build = try StylePackBuilder.build(style: dir + "/style.json", resources: dir, options: StylePackOptions(pixelRatios: [1, 2]))
        return try StylePackWriter.encode(build.contents)
    }

    private func open(_ bytes: [UInt8]) throws -> StylePack { try StylePack(bytes: bytes, name: "x.stylepack") }

    func testSmallPackReadsBack() throws {
        let pack = try open(try smallPack())
        XCTAssertEqual(pack.uri, "small")
        XCTAssertEqual(pack.resources.count, 1 + 4 + 256)
        XCTAssertEqual(pack.sources, [StyleSource(id: "s", type: "vector", url: "", tiles: ["mbtiles://small/{z}/{x}/{y}"])])
        XCTAssertEqual(pack.bytes(named: "glyphs/F/512-767.pbf"), emptyGlyphRange(name: "F", start: 512))
    }

    func testEveryTruncationIsRefused() throws {
        let bytes = try smallPack()
        let cuts = [0, 1, 7, 8, 63, 64, 65, 100, bytes.count / 2, bytes.count - 1]
        for cut in cuts {
            assertThrows(["x.stylepack"]) { _ = try open(Array(bytes[0..<cut])) }
        }
        assertThrows(["x.stylepack at byte 0: empty file"]) { _ = try open([]) }
        assertThrows(["truncated: the file has \(bytes.count - 1) bytes, the preamble declares \(bytes.count)"]) {
            _ = try open(Array(bytes.dropLast()))
        }
        assertThrows(["unexpected bytes after the declared end"]) { _ = try open(bytes + [0]) }
    }

    func testFlippedByteInAResourceNamesTheResource() throws {
        let bytes = try smallPack()
        let pack = try open(bytes)
        let target = try XCTUnwrap(pack.resource(named: "glyphs/F/256-511.pbf"))
        var damaged = bytes
        damaged[target.offset + 3] ^= 0x40
        assertThrows(["x.stylepack at byte \(target.offset): resource \"glyphs/F/256-511.pbf\" fails its CRC32 check"]) {
            _ = try open(damaged)
        }
        // The same change with a matching CRC32 (a collision, or a careless repair): the SHA-256 catches it.
        let indexStart = 64 + readU32(bytes, at: 24)
        var patched = damaged
        let entry = try XCTUnwrap(indexEntryOffset(patched, path: "glyphs/F/256-511.pbf"))
        putU32(&patched, at: indexStart + entry + 24, CRC32.checksum(Array(patched[target.offset..<(target.offset + target.length)])))
        assertThrows(["resource \"glyphs/F/256-511.pbf\" fails its SHA-256 check"]) { _ = try open(resealed(patched)) }

        // A flipped byte in the sprite sheet and in the style.
        let sheet = try XCTUnwrap(pack.resource(named: "sprite@2x.png"))
        damaged = bytes
        damaged[sheet.offset + sheet.length - 1] ^= 1
        assertThrows(["resource \"sprite@2x.png\" fails its CRC32 check"]) { _ = try open(damaged) }
        damaged = bytes
        damaged[pack.resources[0].offset] ^= 1
        assertThrows(["resource \"style.json\" fails its CRC32 check"]) { _ = try open(damaged) }
    }

    func testFlippedBytesInPreambleHeaderAndIndex() throws {
        let bytes = try smallPack()
        let headerLength = readU32(bytes, at: 24)
        var b = bytes
        b[20] ^= 1
        assertThrows(["at byte 60: preamble fails its CRC32 check"]) { _ = try open(b) }
        b = bytes
        b[64 + 2] ^= 1
        assertThrows(["at byte 64: header fails its CRC32 check"]) { _ = try open(b) }
        b = bytes
        b[64 + headerLength + 10] ^= 1
        assertThrows(["at byte \(64 + headerLength): index fails its CRC32 check"]) { _ = try open(b) }
        b = bytes
        b[8] = 2
        assertThrows(["unsupported style pack version 2"]) { _ = try open(b) }
    }

    func testHugeCountsAreRefusedBeforeAllocating() throws {
        let bytes = try smallPack()
        // Resource count far beyond what the index can hold.
        var b = bytes
        putU32(&b, at: 32, 0xFFFF_FFF0)
        assertThrows(["at byte 32: resource count 4294967280 cannot fit in an index of"]) { _ = try open(resealed(b)) }
        // Header and index lengths beyond their limits.
        b = bytes
        putU32(&b, at: 24, 0xFFFF_FFFF)
        assertThrows(["at byte 24: header length 4294967295 over the 16 MiB limit"]) { _ = try open(resealed(b)) }
        b = bytes
        putU32(&b, at: 36, 0x7FFF_FFFF)
        assertThrows(["at byte 36: index length 2147483647 over the 64 MiB limit"]) { _ = try open(resealed(b)) }
        // A font stack count of 2^32 - 1 inside the header (after uri, createdBy, mode, ratios).
        b = bytes
        let uriLength = readU32(b, at: 64)
        let createdByAt = 64 + 4 + uriLength
        let countAt = createdByAt + 4 + readU32(b, at: createdByAt) + 1 + 1 + 2
        putU32(&b, at: countAt, 0xFFFF_FFFF)
        assertThrows(["at byte \(countAt): header: count 4294967295 cannot fit"]) { _ = try open(resealed(b)) }
        // A resource length running past the end (index entry 1's length field).
        b = bytes
        let indexStart = 64 + readU32(b, at: 24)
        let entry1 = try XCTUnwrap(indexEntryOffset(b, path: "sprite.json"))
        for i in 0..<8 { b[indexStart + entry1 + 16 + i] = 0x7F }
        assertThrows(["index entry 1: resource \"sprite.json\": ", "run past the end of the file"]) { _ = try open(resealed(b)) }
    }

    func testHostilePathsAndEntriesAreRefused() throws {
        let bytes = try smallPack()
        let indexStart = 64 + readU32(bytes, at: 24)
        func renamed(_ from: String, _ to: String) throws -> [UInt8] {
            XCTAssertEqual(from.utf8.count, to.utf8.count)
            let entry = try XCTUnwrap(indexEntryOffset(bytes, path: from))
            var b = bytes
            for (i, byte) in to.utf8.enumerated() { b[indexStart + entry + 64 + i] = byte }
            return resealed(b)
        }
        // Paths a store would lay out on disk: no escaping the directory, no absolute paths.
        assertThrows(["index entry 5: resource \"../../../0-255.pbf\": not a safe relative path"]) {
            _ = try open(try renamed("glyphs/F/0-255.pbf", "../../../0-255.pbf"))
        }
        assertThrows(["resource \"/lyphs/F/0-255.pbf\": not a safe relative path"]) {
            _ = try open(try renamed("glyphs/F/0-255.pbf", "/lyphs/F/0-255.pbf"))
        }
        assertThrows(["resource \"glyphs/F/256-511.pbf\" appears twice"]) {
            _ = try open(try renamed("glyphs/F/512-767.pbf", "glyphs/F/256-511.pbf"))
        }
        let e1 = try XCTUnwrap(indexEntryOffset(bytes, path: "sprite.json"))
        var b = bytes
        b[indexStart + e1] = 9
        assertThrows(["index entry 1: unknown kind 9"]) { _ = try open(resealed(b)) }
        b = bytes
        b[indexStart + e1] = StyleResourceKind.glyphRange.rawValue
        assertThrows(["index entry 1: resource \"sprite.json\": a glyph range with pixel ratio 1"]) { _ = try open(resealed(b)) }
        b = bytes
        b[indexStart + e1 + 1] = 3
        assertThrows(["index entry 1: resource \"sprite.json\": pixel ratio 3 is not one of the pack's [1, 2]"]) { _ = try open(resealed(b)) }
        b = bytes
        b[indexStart] = StyleResourceKind.spriteIndex.rawValue
        assertThrows(["index entry 0: resource \"style.json\": entry 0 must be the style"]) { _ = try open(resealed(b)) }
        // A glyph range between the sprite files: out of order.
        b = bytes
        let e4 = try XCTUnwrap(indexEntryOffset(bytes, path: "sprite@2x.png"))
        b[indexStart + e1] = StyleResourceKind.glyphRange.rawValue
        b[indexStart + e1 + 1] = 0
        _ = e4
        assertThrows(["index entry 1: resource \"sprite.json\": unknown font stack \"default\""]) { _ = try open(resealed(b)) }
    }

    func testOtherFilesAreNamed() throws {
        assertThrows(["not a style pack: this is a routing pack"]) { _ = try open(Array("OGRPACK\0".utf8) + [UInt8](repeating: 0, count: 100)) }
        assertThrows(["not a style pack: this looks like JSON"]) { _ = try open(Array("{\"version\": 8}".utf8)) }
        assertThrows(["not a style pack: this is an SQLite file"]) { _ = try open(Array("SQLite format 3\0".utf8)) }
        assertThrows(["not a style pack (no \"OGSTYLE\" magic at byte 0)"]) { _ = try open([1, 2, 3]) }
        let dir = try temporaryDirectory(self)
        assertThrows(["\(dir)/none.stylepack: cannot open"]) { _ = try StylePack(path: dir + "/none.stylepack") }
        assertThrows(["\(dir): not a regular file"]) { _ = try StylePack(path: dir) }
    }

    /// Offset (from the index start) of the entry whose path is `path`.
    private func indexEntryOffset(_ bytes: [UInt8], path: String) -> Int? {
        let indexStart = 64 + readU32(bytes, at: 24)
        let count = readU32(bytes, at: 32)
        var at = 0
        for _ in 0..<count {
            let pathLength = readU32(bytes, at: indexStart + at + 60)
            let p = String(decoding: bytes[(indexStart + at + 64)..<(indexStart + at + 64 + pathLength)], as: UTF8.self)
            if p == path { return at }
            var next = at + 64 + pathLength
            next += 4 + readU32(bytes, at: indexStart + next)   // url
            next += 4 + readU32(bytes, at: indexStart + next)   // group
            at = next
        }
        return nil
    }
}
