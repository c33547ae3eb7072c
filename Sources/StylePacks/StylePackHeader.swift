import OffgridCore

/// The style pack's own header in the pack container: the style's identity and what it names
/// (sources, sprites, font stacks), then the resource table in pack order (the style, sprite
/// files, glyph ranges) with what each resource is. The container's index holds, per resource
/// path, where its bytes are and their CRC32 and SHA-256.
struct StylePackHeader {
    var uri = "", createdBy = ""
    var glyphsMode = GlyphsMode.all
    var pixelRatios: [Int] = []
    var fontStacks: [String] = []
    var sprites: [StyleSprite] = []
    var sources: [StyleSource] = []
    var resources: [StyleResourceInfo] = []

    func encoded() -> [UInt8] {
        var header = ByteWriter()
        header.string(uri)
        header.string(createdBy)
        header.u8(glyphsMode.code)
        header.u8(UInt8(pixelRatios.count))
        for ratio in pixelRatios { header.u8(UInt8(ratio)) }
        header.u32(UInt32(fontStacks.count))
        for stack in fontStacks { header.string(stack) }
        header.u32(UInt32(sprites.count))
        for sprite in sprites {
            header.string(sprite.id)
            header.string(sprite.url)
        }
        header.u32(UInt32(sources.count))
        for source in sources {
            header.string(source.id)
            header.string(source.type)
            header.string(source.url)
            header.u32(UInt32(source.tiles.count))
            for tile in source.tiles { header.string(tile) }
        }
        header.u32(UInt32(resources.count))
        for info in resources {
            header.u8(info.kind.rawValue)
            header.u8(UInt8(info.pixelRatio))
            header.u16(0)
            header.u32(UInt32(info.rangeStart))
            header.string(info.path)
            header.string(info.url)
            header.string(info.group)
        }
        return header.bytes
    }

    /// Parses and checks the header; errors are `BinaryFormatError`s with offsets relative to
    /// the header's start.
    static func decode(_ bytes: [UInt8]) throws -> StylePackHeader {
        var h = ByteReader(bytes)
        func fail(_ at: Int, _ message: String) -> BinaryFormatError { BinaryFormatError(offset: at, message) }
        var hd = StylePackHeader()
        hd.uri = try h.string()
        hd.createdBy = try h.string()
        let modeAt = h.offset
        let modeByte = try h.u8()
        guard let mode = GlyphsMode(code: modeByte) else { throw fail(modeAt, "unknown glyphs mode \(modeByte)") }
        hd.glyphsMode = mode
        let ratioAt = h.offset
        let ratioCount = Int(try h.u8())
        var ratios: [Int] = []
        for _ in 0..<ratioCount { ratios.append(Int(try h.u8())) }
        guard !ratios.isEmpty, ratios.allSatisfy(StylePackFormat.pixelRatioRange.contains),
              zip(ratios, ratios.dropFirst()).allSatisfy({ $0 < $1 }) else {
            throw fail(ratioAt, "pixel ratios \(ratios) are not 1 to 4 distinct ascending values")
        }
        hd.pixelRatios = ratios
        let stacksAt = h.offset
        let stackCount = try count(&h, elementBytes: 4)
        for _ in 0..<stackCount { hd.fontStacks.append(try h.string()) }
        guard zip(hd.fontStacks, hd.fontStacks.dropFirst()).allSatisfy({ utf8Less($0, $1) }),
              hd.fontStacks.allSatisfy({ !$0.isEmpty }) else {
            throw fail(stacksAt, "font stacks are not non-empty, distinct and sorted")
        }
        let spritesAt = h.offset
        let spriteCount = try count(&h, elementBytes: 8)
        for _ in 0..<spriteCount { hd.sprites.append(StyleSprite(id: try h.string(), url: try h.string())) }
        guard Set(hd.sprites.map(\.id)).count == hd.sprites.count else { throw fail(spritesAt, "sprite ids are not distinct") }
        let sourcesAt = h.offset
        let sourceCount = try count(&h, elementBytes: 16)
        for _ in 0..<sourceCount {
            let id = try h.string(), type = try h.string(), url = try h.string()
            let tileCount = try count(&h, elementBytes: 4)
            var tiles: [String] = []
            for _ in 0..<tileCount { tiles.append(try h.string()) }
            hd.sources.append(StyleSource(id: id, type: type, url: url, tiles: tiles))
        }
        guard zip(hd.sources, hd.sources.dropFirst()).allSatisfy({ utf8Less($0.id, $1.id) }) else {
            throw fail(sourcesAt, "source ids are not distinct and sorted")
        }
        let resourceCount = try count(&h, elementBytes: 20)
        var paths = Set<String>()
        let stackSet = Set(hd.fontStacks), spriteIDs = Set(hd.sprites.map(\.id))
        for i in 0..<resourceCount {
            let at = h.offset
            let kindByte = try h.u8(), ratio = Int(try h.u8()), reserved = try h.u16(), rangeStart = Int(try h.u32())
            let path = try h.string(), url = try h.string(), group = try h.string()
            func entryFail(_ message: String) -> BinaryFormatError { fail(at, "resource \(i) \"\(path)\": \(message)") }
            guard let kind = StyleResourceKind(rawValue: kindByte) else { throw entryFail("unknown kind \(kindByte)") }
            guard reserved == 0 else { throw entryFail("reserved field is not zero") }
            let info = StyleResourceInfo(kind: kind, path: path, url: url, group: group, pixelRatio: ratio, rangeStart: rangeStart)
            guard isSafeRelativePath(path) else { throw entryFail("not a safe relative path") }
            guard paths.insert(path).inserted else { throw entryFail("appears twice") }
            if i == 0 {
                guard kind == .style else { throw entryFail("resource 0 must be the style") }
            } else {
                guard kind != .style else { throw entryFail("a second style") }
                guard kind.section >= hd.resources[i - 1].kind.section else {
                    throw entryFail("resources are not in the order style, sprite files, glyph ranges")
                }
            }
            try check(info, in: hd, stacks: stackSet, spriteIDs: spriteIDs, fail: entryFail)
            hd.resources.append(info)
        }
        guard !hd.resources.isEmpty else { throw fail(h.offset, "no resources: a style pack holds at least its style") }
        guard h.isAtEnd else { throw fail(h.offset, "\(h.remaining) unexpected bytes after the last field") }
        return hd
    }

    /// What each kind of resource must look like.
    private static func check(_ info: StyleResourceInfo, in hd: StylePackHeader, stacks: Set<String>, spriteIDs: Set<String>,
                              fail: (String) -> BinaryFormatError) throws {
        switch info.kind {
        case .style:
            guard info.path == StylePackFormat.stylePath, info.pixelRatio == 0, info.rangeStart == 0, info.group.isEmpty else {
                throw fail("the style entry must be \"\(StylePackFormat.stylePath)\" with no ratio, range or group")
            }
        case .spriteIndex, .spriteImage:
            guard hd.pixelRatios.contains(info.pixelRatio), info.rangeStart == 0 else {
                throw fail("pixel ratio \(info.pixelRatio) is not one of the pack's \(hd.pixelRatios)")
            }
            guard spriteIDs.contains(info.group) else { throw fail("unknown sprite \"\(info.group)\"") }
        case .glyphRange:
            guard info.pixelRatio == 0 else { throw fail("a glyph range with pixel ratio \(info.pixelRatio)") }
            guard info.rangeStart % 256 == 0, info.rangeStart <= 65280 else {
                throw fail("range start \(info.rangeStart) is not a multiple of 256 up to 65280")
            }
            guard stacks.contains(info.group) else { throw fail("unknown font stack \"\(info.group)\"") }
            if hd.glyphsMode == .localIdeographs && GlyphRanges.isIdeographRange(start: info.rangeStart) {
                throw fail("an ideograph range in a local-ideographs pack")
            }
        }
    }

    /// A u32 count whose elements take at least `elementBytes` each: refused when the rest of the
    /// section could not hold them, before any loop or allocation.
    private static func count(_ r: inout ByteReader, elementBytes: Int) throws -> Int {
        let at = r.offset
        let n = Int(try r.u32())
        guard n <= r.remaining / elementBytes else {
            throw BinaryFormatError(offset: at, "count \(n) cannot fit in the \(r.remaining) bytes left")
        }
        return n
    }
}
