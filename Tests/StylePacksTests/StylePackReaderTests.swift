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
        assertThrows(["truncated: file has \(bytes.count - 1) bytes, the pack declares \(bytes.count)"]) {
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
        assertThrows(["x.stylepack at byte \(target.offset): resource \"glyphs/F/256-511.pbf\": content fails its CRC32 check"]) {
            _ = try open(damaged)
        }
        // The same change with a matching CRC32 (a collision, or a careless repair): the SHA-256 catches it.
        var patched = damaged
        let entry = try XCTUnwrap(indexEntry(patched, path: "glyphs/F/256-511.pbf"))
        putU32(&patched, at: entry.fields + 24, CRC32.checksum(Array(patched[target.offset..<(target.offset + target.length)])))
        assertThrows(["resource \"glyphs/F/256-511.pbf\": content fails its SHA-256 check"]) { _ = try open(sealed(patched)) }

        // A flipped byte in the sprite sheet and in the style.
        let sheet = try XCTUnwrap(pack.resource(named: "sprite@2x.png"))
        damaged = bytes
        damaged[sheet.offset + sheet.length - 1] ^= 1
        assertThrows(["resource \"sprite@2x.png\": content fails its CRC32 check"]) { _ = try open(damaged) }
        damaged = bytes
        damaged[pack.resources[0].offset] ^= 1
        assertThrows(["resource \"style.json\": content fails its CRC32 check"]) { _ = try open(damaged) }
    }

    func testFlippedBytesInPreambleHeaderAndIndex() throws {
        let bytes = try smallPack()
        let indexStart = Self.indexStart(bytes)
        var b = bytes
        b[20] ^= 1
        assertThrows(["at byte 0: preamble fails its CRC32 check"]) { _ = try open(b) }
        b = bytes
        b[64 + 2] ^= 1
        assertThrows(["at byte 64: header fails its CRC32 check"]) { _ = try open(b) }
        b = bytes
        b[indexStart + 10] ^= 1
        assertThrows(["at byte \(indexStart): index fails its CRC32 check"]) { _ = try open(b) }
        b = bytes
        b[8] = 3
        assertThrows(["unsupported style pack version 3"]) { _ = try open(b) }
    }

    func testHugeCountsAreRefusedBeforeAllocating() throws {
        let bytes = try smallPack()
        var b = bytes
        putU32(&b, at: 32, 0xFFFF_FFF0)
        assertThrows(["at byte 32: 4294967280 entries exceed the limit"]) { _ = try open(sealed(b)) }
        b = bytes
        putU32(&b, at: 32, 2)
        assertThrows(["at byte 36: index length", "cannot hold 2 entries"]) { _ = try open(sealed(b)) }
        b = bytes
        putU32(&b, at: 24, 0xFFFF_FFFF)
        assertThrows(["at byte 24: header length 4294967295 exceeds"]) { _ = try open(sealed(b)) }
        b = bytes
        putU32(&b, at: 36, 0x7FFF_FFFF)
        assertThrows(["at byte 36: index length 2147483647 cannot hold"]) { _ = try open(sealed(b)) }
        // A font stack count of 2^32 - 1 inside the header (after uri, createdBy, mode, ratios).
        b = bytes
        let uriLength = readU32(b, at: 64)
        let createdByAt = 64 + 4 + uriLength
        let countAt = createdByAt + 4 + readU32(b, at: createdByAt) + 1 + 1 + 2
        putU32(&b, at: countAt, 0xFFFF_FFFF)
        assertThrows(["at byte \(countAt): invalid header: count 4294967295 cannot fit"]) { _ = try open(sealed(b)) }
        // A resource offset far past the end, and lengths that disagree.
        b = bytes
        let entry = try XCTUnwrap(indexEntry(b, path: "sprite.json"))
        for i in 0..<8 { b[entry.fields + i] = 0x7F }
        assertThrows(["resource \"sprite.json\": ", "outside the data section"]) { _ = try open(sealed(b)) }
        b = bytes
        for i in 0..<8 { b[entry.fields + 8 + i] = 0x7F }
        assertThrows(["resource \"sprite.json\": stored length", "differs from content length"]) { _ = try open(sealed(b)) }
        b = bytes
        for i in 0..<8 { b[entry.fields + 8 + i] = 0x7F; b[entry.fields + 16 + i] = 0x7F }
        assertThrows(["resource \"sprite.json\": content length", "exceeds"]) { _ = try open(sealed(b)) }
    }

    func testHostilePathsAndEntriesAreRefused() throws {
        let bytes = try smallPack()
        func renamed(_ from: String, _ to: String) throws -> [UInt8] {
            XCTAssertEqual(from.utf8.count, to.utf8.count)
            let at = try XCTUnwrap(headerPath(bytes, from))
            var b = bytes
            for (i, byte) in to.utf8.enumerated() { b[at + i] = byte }
            return sealed(b)
        }
        // Paths a store would lay out on disk: no escaping the directory, no absolute paths.
        assertThrows(["resource 5 \"../../../0-255.pbf\": not a safe relative path"]) {
            _ = try open(try renamed("glyphs/F/0-255.pbf", "../../../0-255.pbf"))
        }
        assertThrows(["resource 5 \"/lyphs/F/0-255.pbf\": not a safe relative path"]) {
            _ = try open(try renamed("glyphs/F/0-255.pbf", "/lyphs/F/0-255.pbf"))
        }
        assertThrows(["\"glyphs/F/256-511.pbf\": appears twice"]) {
            _ = try open(try renamed("glyphs/F/512-767.pbf", "glyphs/F/256-511.pbf"))
        }
        let sprite = try XCTUnwrap(headerPath(bytes, "sprite.json")) - 4 - 8   // the entry's kind byte
        var b = bytes
        b[sprite] = 9
        assertThrows(["resource 1 \"sprite.json\": unknown kind 9"]) { _ = try open(sealed(b)) }
        b = bytes
        b[sprite] = StyleResourceKind.glyphRange.rawValue
        assertThrows(["resource 1 \"sprite.json\": a glyph range with pixel ratio 1"]) { _ = try open(sealed(b)) }
        b = bytes
        b[sprite + 1] = 3
        assertThrows(["resource 1 \"sprite.json\": pixel ratio 3 is not one of the pack's [1, 2]"]) { _ = try open(sealed(b)) }
        b = bytes
        b[try XCTUnwrap(headerPath(bytes, "style.json")) - 12] = StyleResourceKind.spriteIndex.rawValue
        assertThrows(["resource 0 \"style.json\": resource 0 must be the style"]) { _ = try open(sealed(b)) }
        b = bytes
        b[sprite] = StyleResourceKind.glyphRange.rawValue
        b[sprite + 1] = 0
        assertThrows(["resource 1 \"sprite.json\": unknown font stack \"default\""]) { _ = try open(sealed(b)) }
        // Header and index that disagree: a resource the index does not hold.
        b = bytes
        let key = try XCTUnwrap(indexEntry(bytes, path: "glyphs/F/0-255.pbf"))
        b[key.fields - 2] = UInt8(ascii: "6")   // "…0-256.pbf": still sorted, now unknown to the header
        assertThrows(["invalid header: resource \"glyphs/F/0-255.pbf\" is not in the index"]) { _ = try open(sealed(b)) }
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

    // MARK: - The container layout (docs/FORMATS.md), for surgery on real packs

    private static func indexStart(_ bytes: [UInt8]) -> Int { (64 + readU32(bytes, at: 24) + 7) / 8 * 8 }

    /// Recomputes the header, index and preamble CRC32s, so only content checks can catch a change.
    private func sealed(_ pack: [UInt8]) -> [UInt8] {
        var b = pack
        let headerLength = readU32(b, at: 24), indexLength = readU32(b, at: 36)
        let indexStart = Self.indexStart(b)
        if 64 + headerLength <= b.count { putU32(&b, at: 28, CRC32.checksum(Array(b[64..<(64 + headerLength)]))) }
        if indexStart + indexLength <= b.count { putU32(&b, at: 40, CRC32.checksum(Array(b[indexStart..<(indexStart + indexLength)]))) }
        putU32(&b, at: 60, CRC32.checksum(Array(b[0..<60])))
        return b
    }

    /// The index entry whose key is `path`: where its fixed fields (offset, length, …) start.
    private func indexEntry(_ bytes: [UInt8], path: String) -> (start: Int, fields: Int)? {
        var at = Self.indexStart(bytes)
        for _ in 0..<readU32(bytes, at: 32) {
            let keyLength = Int(bytes[at]) | Int(bytes[at + 1]) << 8
            let key = String(decoding: bytes[(at + 2)..<(at + 2 + keyLength)], as: UTF8.self)
            if key == path { return (at, at + 2 + keyLength) }
            at += 2 + keyLength + 28 + 32
        }
        return nil
    }

    /// Where the header's resource table spells `path` (its first length-prefixed occurrence).
    private func headerPath(_ bytes: [UInt8], _ path: String) -> Int? {
        var needle: [UInt8] = []
        putU32(&needle, at: 0, UInt32(path.utf8.count), growing: true)
        needle += Array(path.utf8)
        let end = 64 + readU32(bytes, at: 24)
        var i = 64
        while i + needle.count <= end {
            if bytes[i..<(i + needle.count)].elementsEqual(needle) { return i + 4 }
            i += 1
        }
        return nil
    }
}

private func putU32(_ bytes: inout [UInt8], at: Int, _ v: UInt32, growing: Bool) {
    if bytes.count < at + 4 { bytes += [UInt8](repeating: 0, count: at + 4 - bytes.count) }
    putU32(&bytes, at: at, v)
}
