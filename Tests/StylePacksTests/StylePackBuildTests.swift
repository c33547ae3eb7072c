import OffgridCore
import Foundation
@testable import StylePacks
import XCTest

final class StylePackBuildTests: XCTestCase {
    // MARK: - The sample style

    func testSampleStylePackReadsBackByteForByte() throws {
        let out = try temporaryDirectory(self) + "/basic.stylepack"
        let (build, size) = try StylePackBuilder.write(
            style: sampleStyle, resources: sampleDirectory, options: StylePackOptions(pixelRatios: [1, 2]), output: out)
        XCTAssertEqual(try fileBytes(out).count, size)
        XCTAssertEqual(build.warnings, [])

        let pack = try StylePack(path: out)
        XCTAssertEqual(pack.uri, "Offgrid Basic")
        XCTAssertEqual(pack.glyphsMode, .all)
        XCTAssertEqual(pack.pixelRatios, [1, 2])
        XCTAssertEqual(pack.fontStacks, ["DejaVu Sans Bold", "DejaVu Sans Book"])
        XCTAssertEqual(pack.sprites, [StyleSprite(id: "default", url: "sprite")])
        XCTAssertEqual(pack.sources, [StyleSource(id: "openmaptiles", type: "vector", url: "mbtiles://liechtenstein", tiles: [])])
        XCTAssertEqual(pack.styleJSON, try fileBytes(sampleStyle))

        // The style, 2 ratios × (json + png), 2 font stacks × 256 ranges.
        XCTAssertEqual(pack.resources.count, 1 + 4 + 2 * 256)
        XCTAssertEqual(pack.resources.filter { $0.kind == .spriteIndex }.map(\.path), ["sprite.json", "sprite@2x.json"])
        XCTAssertEqual(pack.resources.filter { $0.kind == .spriteImage }.map(\.path), ["sprite.png", "sprite@2x.png"])
        XCTAssertEqual(pack.glyphRanges(of: "DejaVu Sans Book").map(\.info.rangeStart), Array(stride(from: 0, to: 65536, by: 256)))
        XCTAssertEqual(pack.resource(named: "glyphs/DejaVu Sans Book/0-255.pbf")?.url, "glyphs/DejaVu Sans Book/0-255.pbf")
        XCTAssertEqual(pack.resource(named: "sprite@2x.png")?.url, "sprite@2x.png")
        XCTAssertEqual(pack.resource(named: "style.json")?.url, "Offgrid Basic")
        XCTAssertNil(pack.resource(named: "glyphs/DejaVu Sans Book/0-256.pbf"))

        for r in pack.resources {
            let onDisk = try fileBytes(r.kind == .style ? sampleStyle : sampleDirectory + "/" + r.path)
            XCTAssertEqual(pack.bytes(of: r), onDisk, r.path)
            XCTAssertEqual(r.contentHash, SHA256.hex(SHA256.hash(onDisk)), r.path)
            XCTAssertEqual(r.crc32, CRC32.checksum(onDisk), r.path)
        }
        // The rasterised ranges hold glyphs; the pack's glyph bytes are the directory's.
        XCTAssertGreaterThan(pack.bytes(named: "glyphs/DejaVu Sans Bold/0-255.pbf")!.count, 10_000)
    }

    func testSampleStyleUsesOnlyItsTwoFontStacksIncludingExpressions() throws {
        let doc = try StyleDocument(path: sampleStyle)
        XCTAssertEqual(doc.fontStackKeys, ["DejaVu Sans Bold", "DejaVu Sans Book"])
        XCTAssertEqual(doc.unresolvedFonts, [])
        XCTAssertEqual(doc.glyphs, "glyphs/{fontstack}/{range}.pbf")
    }

    func testBytesAreDeterministic() throws {
        let dir = try temporaryDirectory(self)
        let options = StylePackOptions(pixelRatios: [2, 1, 2])
        _ = try StylePackBuilder.write(style: sampleStyle, resources: sampleDirectory, options: options, output: dir + "/a.stylepack")
        _ = try StylePackBuilder.write(style: sampleStyle, resources: sampleDirectory, options: options, output: dir + "/b.stylepack")
        XCTAssertEqual(try fileBytes(dir + "/a.stylepack"), try fileBytes(dir + "/b.stylepack"))
        // A copy of the directory elsewhere gives the same bytes: no path or time goes in.
        let copy = try copyOfSample(self)
        _ = try StylePackBuilder.write(style: copy + "/style.json", resources: copy, options: options, output: dir + "/c.stylepack")
        XCTAssertEqual(try fileBytes(dir + "/a.stylepack"), try fileBytes(dir + "/c.stylepack"))
        // Leftover temporary files: none.
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir).sorted(), ["a.stylepack", "b.stylepack", "c.stylepack"])
    }

    // MARK: - Missing resources

    func testMissingGlyphRangeIsRefusedByNameAndNothingIsWritten() throws {
        let dir = try copyOfSample(self)
        try FileManager.default.removeItem(atPath: dir + "/glyphs/DejaVu Sans Book/256-511.pbf")
        let out = try temporaryDirectory(self) + "/x.stylepack"
        assertThrows([dir + "/style.json: ", "glyph range \"DejaVu Sans Book/256-511.pbf\" missing in \(dir)/glyphs"]) {
            _ = try StylePackBuilder.write(style: dir + "/style.json", resources: dir, options: StylePackOptions(), output: out)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: out))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: (out as NSString).deletingLastPathComponent), [])

        // Several missing: the first is named, the others counted.
        try FileManager.default.removeItem(atPath: dir + "/glyphs/DejaVu Sans Bold/65280-65535.pbf")
        try FileManager.default.removeItem(atPath: dir + "/glyphs/DejaVu Sans Bold/0-255.pbf")
        assertThrows(["glyph range \"DejaVu Sans Bold/0-255.pbf\" missing", "(and 2 more missing resources)"]) {
            _ = try StylePackBuilder.write(style: dir + "/style.json", resources: dir, options: StylePackOptions(), output: out)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: out))
    }

    func testMissingSprite2xIsRefusedOnlyWhenRatio2IsAsked() throws {
        let dir = try copyOfSample(self)
        try FileManager.default.removeItem(atPath: dir + "/sprite@2x.png")
        let out = try temporaryDirectory(self) + "/x.stylepack"
        assertThrows(["sprite file \"sprite@2x.png\" (pixel ratio 2) missing in \(dir)"]) {
            _ = try StylePackBuilder.write(style: dir + "/style.json", resources: dir,
                                           options: StylePackOptions(pixelRatios: try StylePackOptions.parsePixelRatios("1,2")), output: out)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: out))
        let (build, _) = try StylePackBuilder.write(style: dir + "/style.json", resources: dir,
                                                    options: StylePackOptions(pixelRatios: [1]), output: out)
        XCTAssertEqual(build.contents.resources.filter { $0.info.kind != .glyphRange }.map(\.info.path),
                       ["style.json", "sprite.json", "sprite.png"])
    }

    func testPixelRatioParsing() throws {
        XCTAssertEqual(try StylePackOptions.parsePixelRatios("1,2"), [1, 2])
        XCTAssertEqual(try StylePackOptions.parsePixelRatios("2x, @1x,2"), [1, 2])
        XCTAssertThrowsError(try StylePackOptions.parsePixelRatios("1.5"))
        XCTAssertThrowsError(try StylePackOptions.parsePixelRatios("0"))
        XCTAssertThrowsError(try StylePackOptions.parsePixelRatios("1,,2"))
    }

    // MARK: - Glyph modes

    func testLocalIdeographsLeavesOutExactlyTheCJKUnifiedIdeographRanges() throws {
        let excluded = Set(stride(from: 0, to: 65536, by: 256)).subtracting(GlyphRanges.starts(for: .localIdeographs))
        let extensionA = Set(stride(from: 0x3400, through: 0x4C00, by: 256))   // 13312-13567 … 19456-19711
        let main = Set(stride(from: 0x4E00, through: 0x9F00, by: 256))         // 19968-20223 … 40704-40959
        XCTAssertEqual(extensionA.count, 25)
        XCTAssertEqual(main.count, 82)
        XCTAssertEqual(excluded, extensionA.union(main))
        XCTAssertEqual(GlyphRanges.starts(for: .localIdeographs).count, 149)
        XCTAssertEqual(GlyphRanges.starts(for: .all).count, 256)
        // Mixed or neighbouring blocks stay: U+4D00 (Yijing hexagrams), U+3300 (compatibility),
        // U+A000 (Yi), U+AC00 (Hangul), U+F900 (compatibility ideographs).
        for kept in [0x4D00, 0x3300, 0xA000, 0xAC00, 0xF900, 0] {
            XCTAssertFalse(GlyphRanges.isIdeographRange(start: kept), "\(kept)")
        }

        // A directory without the ideograph ranges: refused in `all` mode, packed in local-ideographs.
        let dir = try temporaryDirectory(self)
        try writeGlyphRanges(stack: "Noto Sans Regular", in: dir + "/fonts", skip: GlyphRanges.isIdeographRange)
        try write("""
            {"version": 8, "name": "cjk", "sources": {}, "glyphs": "https://example.com/fonts/{fontstack}/{range}.pbf",
             "layers": [{"id": "l", "type": "symbol", "source": "s", "layout": {"text-field": "x", "text-font": ["Noto Sans Regular"]}}]}
            """, to: dir + "/style.json")
        assertThrows(["glyph range \"Noto Sans Regular/13312-13567.pbf\" missing in \(dir)/fonts", "(and 106 more missing resources)"]) {
            _ = try StylePackBuilder.build(style: dir + "/style.json", resources: dir + "/fonts", options: StylePackOptions())
        }
        let out = dir + "/cjk.stylepack"
        _ = try StylePackBuilder.write(style: dir + "/style.json", resources: dir + "/fonts",
                                       options: StylePackOptions(glyphsMode: .localIdeographs), output: out)
        let pack = try StylePack(path: out)
        XCTAssertEqual(pack.glyphsMode, .localIdeographs)
        XCTAssertEqual(pack.glyphRanges(of: "Noto Sans Regular").map(\.info.rangeStart), GlyphRanges.starts(for: .localIdeographs))
        XCTAssertEqual(pack.resource(named: "Noto Sans Regular/40960-41215.pbf")?.url,
                       "https://example.com/fonts/Noto Sans Regular/40960-41215.pbf")
    }

    // MARK: - URL resolution, sources, names

    func testAbsoluteURLsKeepTheirTailAndQueries() throws {
        let dir = try temporaryDirectory(self)
        try writeSprite(base: dir + "/res/basic", ratio: 1)
        try writeSprite(base: dir + "/res/basic", ratio: 2)
        try writeSprite(base: dir + "/res/signs/sheet", ratio: 1)
        try writeSprite(base: dir + "/res/signs/sheet", ratio: 2)
        try writeGlyphRanges(stack: "Open Sans Regular,Arial Unicode MS Regular", in: dir + "/res")
        try write("""
            {"version": 8, "name": "urls",
             "sprite": [{"id": "default", "url": "https://example.com/styles/v1/basic?key=abc"},
                        {"id": "signs", "url": "signs/sheet"}],
             "glyphs": "mapbox://fonts/me/{fontstack}/{range}.pbf?key=abc",
             "sources": {
               "z": {"type": "vector", "url": "mbtiles://liechtenstein"},
               "b-raster": {"type": "raster", "tiles": ["https://a.example.com/{z}/{x}/{y}.png", "https://b.example.com/{z}/{x}/{y}.png"], "tileSize": 256},
               "a-points": {"type": "geojson", "data": "https://example.com/points.geojson"},
               "inline": {"type": "geojson", "data": {"type": "FeatureCollection", "features": []}}
             },
             "layers": [{"id": "label", "type": "symbol", "source": "z", "source-layer": "place", "layout": {"text-field": ["get", "name"]}}]}
            """, to: dir + "/style.json")
        let build = try StylePackBuilder.build(style: dir + "/style.json", resources: dir + "/res",
                                               options: StylePackOptions(pixelRatios: [1, 2], uri: "mapbox://styles/me/urls"))
        let infos = build.contents.resources.map(\.info)
        XCTAssertEqual(build.contents.uri, "mapbox://styles/me/urls")
        XCTAssertEqual(build.contents.fontStacks, ["Open Sans Regular,Arial Unicode MS Regular"])  // the GL default stack
        XCTAssertEqual(infos.filter { $0.kind != .glyphRange }.map(\.path), [
            "style.json", "basic.json", "basic.png", "basic@2x.json", "basic@2x.png",
            "signs/sheet.json", "signs/sheet.png", "signs/sheet@2x.json", "signs/sheet@2x.png",
        ])
        XCTAssertEqual(infos[3].url, "https://example.com/styles/v1/basic@2x.json?key=abc")
        XCTAssertEqual(infos[3].group, "default")
        XCTAssertEqual(infos[8].url, "signs/sheet@2x.png")
        XCTAssertEqual(infos[8].group, "signs")
        let range = try XCTUnwrap(infos.first { $0.kind == .glyphRange && $0.rangeStart == 256 })
        XCTAssertEqual(range.path, "Open Sans Regular,Arial Unicode MS Regular/256-511.pbf")
        XCTAssertEqual(range.url, "mapbox://fonts/me/Open Sans Regular,Arial Unicode MS Regular/256-511.pbf?key=abc")
        XCTAssertEqual(build.contents.sources, [
            StyleSource(id: "a-points", type: "geojson", url: "https://example.com/points.geojson", tiles: []),
            StyleSource(id: "b-raster", type: "raster", url: "",
                        tiles: ["https://a.example.com/{z}/{x}/{y}.png", "https://b.example.com/{z}/{x}/{y}.png"]),
            StyleSource(id: "inline", type: "geojson", url: "", tiles: []),
            StyleSource(id: "z", type: "vector", url: "mbtiles://liechtenstein", tiles: []),
        ])
        // And back through the reader.
        let pack = try StylePack(bytes: try StylePackWriter.encode(build.contents), name: "urls.stylepack")
        XCTAssertEqual(pack.sources, build.contents.sources)
        XCTAssertEqual(pack.sprites.map(\.id), ["default", "signs"])
        XCTAssertEqual(pack.resources.map(\.info), infos)
    }

    func testStyleWithoutNameNeedsURI() throws {
        let dir = try temporaryDirectory(self)
        try write(#"{"version": 8, "sources": {}, "layers": [{"id": "bg", "type": "background"}]}"#, to: dir + "/style.json")
        assertThrows(["style.json: the style has no \"name\" to use as its URI; give --uri"]) {
            _ = try StylePackBuilder.build(style: dir + "/style.json", resources: dir, options: StylePackOptions())
        }
        let build = try StylePackBuilder.build(style: dir + "/style.json", resources: dir, options: StylePackOptions(uri: "local://bg"))
        XCTAssertEqual(build.contents.resources.count, 1)
        XCTAssertEqual(try StylePack(bytes: try StylePackWriter.encode(build.contents), name: "bg").uri, "local://bg")
    }

    func testBadStylesAndResourcesAreRefused() throws {
        let dir = try temporaryDirectory(self)
        let style = dir + "/style.json"
        func build(_ text: String, ratios: [Int] = [1]) throws {
            try write(text, to: style)
            _ = try StylePackBuilder.build(style: style, resources: dir, options: StylePackOptions(pixelRatios: ratios))
        }
        let symbol = #""layers": [{"id": "l", "type": "symbol", "source": "s", "layout": {"text-field": "x", "text-font": ["F"]}}]"#
        assertThrows(["not valid JSON"]) { try build("{") }
        assertThrows(["\"version\" must be 8"]) { try build(#"{"version": 7, "name": "n", "sources": {}, "layers": []}"#) }
        assertThrows(["\"layers\" is not an array"]) { try build(#"{"version": 8, "name": "n", "sources": {}}"#) }
        assertThrows(["but the style has no \"glyphs\" URL"]) { try build(#"{"version": 8, "name": "n", "sources": {}, "# + symbol + "}") }
        assertThrows(["must contain {fontstack} and {range}"]) {
            try build(#"{"version": 8, "name": "n", "sources": {}, "glyphs": "fonts/{fontstack}.pbf", "# + symbol + "}")
        }
        assertThrows(["is not a plain relative path"]) {
            try build(#"{"version": 8, "name": "n", "sources": {}, "glyphs": "../fonts/{fontstack}/{range}.pbf", "# + symbol + "}")
        }
        assertThrows(["font stack \"../../etc\" cannot be a directory name"]) {
            try build(#"{"version": 8, "name": "n", "sources": {}, "glyphs": "{fontstack}/{range}.pbf", "layers": [{"id": "l", "type": "symbol", "layout": {"text-font": ["../../etc"]}}]}"#)
        }
        assertThrows(["sprite URL \"../sprite\" is not a plain relative path"]) {
            try build(#"{"version": 8, "name": "n", "sources": {}, "sprite": "../sprite", "layers": []}"#)
        }

        // Content checks name the file.
        try writeGlyphRanges(stack: "F", in: dir)
        try write(emptyGlyphRange(name: "F", start: 0), to: dir + "/F/256-511.pbf")
        assertThrows(["\(dir)/F/256-511.pbf: glyph range file says range \"0-255\", expected \"256-511\""]) {
            try build(#"{"version": 8, "name": "n", "sources": {}, "glyphs": "{fontstack}/{range}.pbf", "# + symbol + "}")
        }
        try write([0x0A, 0x05, 0x01], to: dir + "/F/256-511.pbf")
        assertThrows(["\(dir)/F/256-511.pbf: not a glyph range protobuf"]) {
            try build(#"{"version": 8, "name": "n", "sources": {}, "glyphs": "{fontstack}/{range}.pbf", "# + symbol + "}")
        }
        try writeSprite(base: dir + "/sprite", ratio: 1)
        try write(#"{"icon": {"x": 5, "y": 0, "width": 10, "height": 10, "pixelRatio": 1}}"#, to: dir + "/sprite.json")
        assertThrows(["\(dir)/sprite.json: icon \"icon\" (5,0 10×10) lies outside the 10×10 sheet"]) {
            try build(#"{"version": 8, "name": "n", "sources": {}, "sprite": "sprite", "layers": []}"#)
        }
        try write(#"{"icon": {"x": 0, "y": 0, "width": 10, "height": 10, "pixelRatio": 2}}"#, to: dir + "/sprite.json")
        assertThrows(["\(dir)/sprite.json: icon \"icon\": pixelRatio 2 in the @1x sprite"]) {
            try build(#"{"version": 8, "name": "n", "sources": {}, "sprite": "sprite", "layers": []}"#)
        }
        try writeSprite(base: dir + "/sprite", ratio: 1)
        try write(Array("not a png".utf8), to: dir + "/sprite.png")
        assertThrows(["\(dir)/sprite.png: not a PNG image"]) {
            try build(#"{"version": 8, "name": "n", "sources": {}, "sprite": "sprite", "layers": []}"#)
        }
        assertThrows(["resources directory not found"]) {
            _ = try StylePackBuilder.build(style: sampleStyle, resources: dir + "/nowhere", options: StylePackOptions())
        }
    }
}
