import OffgridCore
import PackContainer

/// What a style pack holds: the header fields and the resources with their bytes.
public struct StylePackContents {
    public var uri: String
    public var createdBy: String
    public var glyphsMode: GlyphsMode
    /// Ascending, each in `StylePackFormat.pixelRatioRange`.
    public var pixelRatios: [Int]
    /// Sorted by UTF-8 bytes, names joined by ",".
    public var fontStacks: [String]
    /// In the style's order.
    public var sprites: [StyleSprite]
    /// Sorted by id.
    public var sources: [StyleSource]
    /// The style first, then sprite files, then glyph ranges (see `StylePackWriter.encode`).
    public var resources: [(info: StyleResourceInfo, bytes: [UInt8])]

    public init(uri: String, createdBy: String, glyphsMode: GlyphsMode, pixelRatios: [Int], fontStacks: [String],
                sprites: [StyleSprite], sources: [StyleSource], resources: [(info: StyleResourceInfo, bytes: [UInt8])]) {
        self.uri = uri
        self.createdBy = createdBy
        self.glyphsMode = glyphsMode
        self.pixelRatios = pixelRatios
        self.fontStacks = fontStacks
        self.sprites = sprites
        self.sources = sources
        self.resources = resources
    }

    /// The style JSON's bytes (resource 0).
    public var styleJSON: [UInt8] { resources.first?.bytes ?? [] }
    /// Sum of the resource lengths.
    public var resourceBytes: Int { resources.reduce(0) { $0 + $1.bytes.count } }
}

/// Encodes style packs (docs/FORMATS.md, "Style pack"). The bytes depend only on the contents:
/// no time, host or path goes in, so the same style and resources give the same file.
public enum StylePackWriter {
    /// Encodes `contents`. Resources are listed in the order given, which must be the pack order
    /// (the style, sprite files, glyph ranges; paths unique) — `StylePackBuilder` produces it; anything else
    /// is a programming error and stops the process. Throws `InputError` when the pack would exceed
    /// the limits readers enforce (header, resource count, path, resource or file size).
    public static func encode(_ contents: StylePackContents) throws -> [UInt8] {
        precondition(contents.resources.first?.info.kind == .style, "the style must be resource 0")
        precondition(zip(contents.resources, contents.resources.dropFirst()).allSatisfy { $0.info.kind.section <= $1.info.kind.section },
                     "resources must come style, sprite files, glyph ranges")
        precondition(Set(contents.resources.map(\.info.path)).count == contents.resources.count, "resource paths must be unique")
        let header = StylePackHeader(uri: contents.uri, createdBy: contents.createdBy, glyphsMode: contents.glyphsMode,
                                     pixelRatios: contents.pixelRatios, fontStacks: contents.fontStacks,
                                     sprites: contents.sprites, sources: contents.sources,
                                     resources: contents.resources.map(\.info)).encoded()
        guard header.count <= StylePackFormat.maxHeaderLength else {
            throw InputError("style pack header would be \(header.count) bytes, over the \(StylePackFormat.maxHeaderLength >> 20) MiB limit (too many sources, tile URLs or resources)")
        }
        if let big = contents.resources.first(where: { $0.bytes.count > StylePackFormat.maxResourceLength }) {
            throw InputError("resource \"\(big.info.path)\" is \(big.bytes.count) bytes, over the \(StylePackFormat.maxResourceLength >> 20) MiB limit")
        }
        let total = header.count + contents.resourceBytes
        guard total <= StylePackFormat.maxFileSize else {
            throw InputError("style pack would be over \(total) bytes, over the \(StylePackFormat.maxFileSize >> 30) GiB limit")
        }
        return try PackWriter.encode(kind: StylePackFormat.kind, header: header,
                                     items: contents.resources.map { (Array($0.info.path.utf8), $0.bytes[...]) })
    }

    /// Encodes `contents` and writes the file atomically (temporary name, fsync, rename).
    /// Returns the number of bytes written.
    @discardableResult
    public static func write(_ contents: StylePackContents, to path: String) throws -> Int {
        let bytes = try encode(contents)
        try AtomicFile.write(bytes, to: path)
        return bytes.count
    }
}
