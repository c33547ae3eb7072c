import PackContainer

/// A style pack in the shared pack container (docs/FORMATS.md, "Style pack"), version 2: one
/// file holding a GL style and every resource it needs offline (sprite sheets, glyph ranges).
/// The header is `StylePackHeader`; each entry is one resource keyed by its path (UTF-8), with
/// the CRC32 and SHA-256 of its bytes. Written by `StylePackWriter`, read by `StylePack`.
public enum StylePackFormat {
    /// `OGSTYLE\0`.
    public static let magic: [UInt8] = Array("OGSTYLE".utf8) + [0]
    public static let version: UInt32 = 2

    /// Bounds a reader enforces before allocating anything.
    public static let maxHeaderLength = 16 << 20
    public static let maxResources = 1 << 20
    public static let maxPathLength = 4096
    /// Whole packs are read into memory; style packs are megabytes, not gigabytes.
    public static let maxFileSize = 1 << 30
    /// One resource (a sprite sheet, a glyph range, the style).
    public static let maxResourceLength = 256 << 20
    /// Sprite pixel ratios a pack may hold (`@2x`, `@3x`, `@4x`).
    public static let pixelRatioRange: ClosedRange<Int> = 1...4

    /// The reserved path of the style JSON resource.
    public static let stylePath = "style.json"

    public static let kind = PackKind(
        name: "style pack", magic: "OGSTYLE", version: version, compressed: false, hasSHA256: true,
        maxHeaderLength: maxHeaderLength, maxEntries: maxResources, maxKeyLength: maxPathLength,
        maxEntryLength: maxResourceLength,
        describeKey: { "resource \"\(String(decoding: $0, as: UTF8.self))\"" })
}

/// What a resource is. The raw value is the index entry's `kind` byte. Entries come in `section`
/// order: the style, then sprite files (per sprite, per ratio, index before sheet), then glyph ranges.
public enum StyleResourceKind: UInt8, Sendable, CaseIterable, CustomStringConvertible {
    /// The style JSON, exactly as read. Always entry 0, exactly once.
    case style = 0
    /// A sprite index (`sprite.json`, `sprite@2x.json`).
    case spriteIndex = 1
    /// A sprite sheet (`sprite.png`, `sprite@2x.png`).
    case spriteImage = 2
    /// A glyph range PBF (`<fontstack>/<start>-<end>.pbf`).
    case glyphRange = 3

    /// 0 style, 1 sprite files, 2 glyph ranges: index entries are sorted by it.
    public var section: Int {
        switch self {
        case .style: return 0
        case .spriteIndex, .spriteImage: return 1
        case .glyphRange: return 2
        }
    }

    public var description: String {
        switch self {
        case .style: return "style"
        case .spriteIndex: return "sprite-index"
        case .spriteImage: return "sprite-image"
        case .glyphRange: return "glyph-range"
        }
    }
}

/// Which glyph ranges a pack carries (`--glyphs`).
public enum GlyphsMode: String, Sendable, CaseIterable {
    /// Every range 0-255 … 65280-65535 of every font stack.
    case all
    /// Every range except those made only of CJK Unified Ideographs, which the device renders
    /// with a local font (Mapbox's `localIdeographFontFamily`); see `GlyphRanges`.
    case localIdeographs = "local-ideographs"

    /// The header byte.
    public var code: UInt8 { self == .all ? 0 : 1 }

    public init?(code: UInt8) {
        switch code {
        case 0: self = .all
        case 1: self = .localIdeographs
        default: return nil
        }
    }
}

/// A source of the style, recorded as the style gives it (never fetched).
public struct StyleSource: Equatable, Sendable {
    public let id: String
    /// `vector`, `raster`, `raster-dem`, `geojson`, `image`, `video`, …
    public let type: String
    /// The source's `url` (a TileJSON or tileset URL such as `mbtiles://liechtenstein`), or a
    /// `geojson` source's `data` when that is a URL string; "" when there is none.
    public let url: String
    /// The source's `tiles` templates (or a `video` source's `urls`), in the style's order.
    public let tiles: [String]

    public init(id: String, type: String, url: String, tiles: [String]) {
        self.id = id
        self.type = type
        self.url = url
        self.tiles = tiles
    }
}

/// A sprite the style names: `"sprite": "url"` is one sprite with id `default`; the array form
/// `[{"id": …, "url": …}]` names several.
public struct StyleSprite: Equatable, Sendable {
    public let id: String
    public let url: String

    public init(id: String, url: String) {
        self.id = id
        self.url = url
    }
}

/// A resource's description in the index, without its bytes.
public struct StyleResourceInfo: Equatable, Sendable {
    public let kind: StyleResourceKind
    /// Relative path in the resources directory (`sprite@2x.png`, `glyphs/Noto Sans Regular/0-255.pbf`);
    /// `style.json` for the style. Unique in a pack; the name `StylePack.resource(named:)` takes.
    public let path: String
    /// The URL the style's template gives for it (what a renderer would request); the style's URI
    /// for the style itself.
    public let url: String
    /// Sprite id for sprite files, font stack (names joined by ",") for glyph ranges, "" for the style.
    public let group: String
    /// 1…4 for sprite files, 0 otherwise.
    public let pixelRatio: Int
    /// First code point of a glyph range (a multiple of 256), 0 otherwise.
    public let rangeStart: Int

    public init(kind: StyleResourceKind, path: String, url: String, group: String, pixelRatio: Int, rangeStart: Int) {
        self.kind = kind
        self.path = path
        self.url = url
        self.group = group
        self.pixelRatio = pixelRatio
        self.rangeStart = rangeStart
    }

    /// `<start>-<end>` of a glyph range.
    public var rangeName: String { "\(rangeStart)-\(rangeStart + 255)" }
}

/// Whether `path` is a safe relative path: non-empty segments separated by `/`, none of them
/// `.` or `..`, no leading `/`, no NUL or backslash. Pack paths must be, so that a store can
/// lay resources out under a directory without escaping it.
func isSafeRelativePath(_ path: String) -> Bool {
    guard !path.isEmpty, !path.utf8.contains(0), !path.contains("\\") else { return false }
    for segment in path.split(separator: "/", omittingEmptySubsequences: false) {
        if segment.isEmpty || segment == "." || segment == ".." { return false }
    }
    return true
}

/// Byte-wise UTF-8 order, the order of every sorted list in a pack (independent of locale and
/// of Swift's String comparison, which compares by Unicode canonical equivalence).
func utf8Less(_ a: String, _ b: String) -> Bool {
    a.utf8.lexicographicallyPrecedes(b.utf8)
}
