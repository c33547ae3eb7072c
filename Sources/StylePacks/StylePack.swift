import OffgridCore
import PackContainer
import Foundation

/// A style pack read into memory and validated completely: the container's checks (`PackReader`),
/// the style header and its resource table, and the CRC32 and SHA-256 of every resource. Any problem is an `InputError` naming the file,
/// the byte offset and, for a resource, its path. Nothing is allocated from an unchecked count.
///
///     let pack = try StylePack(path: "out/style.stylepack")
///     let style = pack.styleJSON                                  // the style's bytes
///     let range = pack.resource(named: "glyphs/DejaVu Sans Book/0-255.pbf")
///     range?.contentHash                                          // hex SHA-256, for updates
///     let bytes = pack.bytes(of: range!)
///
/// Immutable after `init`, so it may be shared between threads.
public final class StylePack: @unchecked Sendable {
    /// One resource: its index entry. `bytes(of:)` gives its data.
    public struct Resource: Equatable, Sendable {
        public let info: StyleResourceInfo
        /// Absolute file offset of the data.
        public let offset: Int
        public let length: Int
        public let crc32: UInt32
        /// SHA-256 of the data, 32 bytes.
        public let sha256: [UInt8]

        public var kind: StyleResourceKind { info.kind }
        public var path: String { info.path }
        public var url: String { info.url }
        /// Lowercase hex SHA-256 of the data: equal hashes, equal bytes. What a store compares to
        /// decide whether a resource changed between two packs of the same style.
        public var contentHash: String { SHA256.hex(sha256) }
    }

    /// The file name used in errors (the path for `init(path:)`).
    public let path: String
    public let fileSize: Int
    /// The style's URI: `--uri` when it was built, else the style's `name`.
    public let uri: String
    public let createdBy: String
    public let glyphsMode: GlyphsMode
    public let pixelRatios: [Int]
    /// Font stacks whose glyph ranges the pack holds (names joined by ","), sorted.
    public let fontStacks: [String]
    public let sprites: [StyleSprite]
    /// The style's sources as recorded (not fetched), sorted by id.
    public let sources: [StyleSource]
    /// Index order: the style, sprite files, glyph ranges.
    public let resources: [Resource]

    private let bytes: [UInt8]
    private let byPath: [String: Int]

    /// Reads and validates the pack at `path`.
    public convenience init(path: String) throws {
        try self.init(bytes: FileTools.readFile(path, maxBytes: StylePackFormat.maxFileSize), name: path)
    }

    /// Validates a pack already in memory; `name` is used in errors. The container checks the
    /// structure (`PackReader`), then the header's resource table must name exactly the index's
    /// paths, and every resource is checked against its CRC32 and SHA-256.
    public init(bytes: [UInt8], name: String) throws {
        guard bytes.count <= StylePackFormat.maxFileSize else {
            throw InputError(file: name, offset: 0, "style pack of \(bytes.count) bytes is over the \(StylePackFormat.maxFileSize >> 30) GiB limit")
        }
        let pack = try PackReader(bytes: bytes, name: name, kind: StylePackFormat.kind)
        let hd: StylePackHeader
        do {
            hd = try StylePackHeader.decode(pack.headerBytes)
        } catch let e as BinaryFormatError {
            throw pack.headerError(offset: e.offset, e.message)
        }
        guard hd.resources.count == pack.entryCount else {
            throw pack.headerError(offset: 0, "the header lists \(hd.resources.count) resources, the index \(pack.entryCount)")
        }
        var resources: [Resource] = []
        var byPath: [String: Int] = [:]
        resources.reserveCapacity(hd.resources.count)
        for (i, info) in hd.resources.enumerated() {
            guard let at = pack.find(info.path.utf8) else {
                throw pack.headerError(offset: 0, "resource \"\(info.path)\" is not in the index")
            }
            let e = pack.index.entry(at)
            byPath[info.path] = i
            resources.append(Resource(info: info, offset: e.offset, length: e.length, crc32: e.crc32, sha256: Array(e.sha256)))
        }
        try pack.verifyAll()
        path = name
        self.bytes = bytes
        fileSize = bytes.count
        uri = hd.uri
        createdBy = hd.createdBy
        glyphsMode = hd.glyphsMode
        pixelRatios = hd.pixelRatios
        fontStacks = hd.fontStacks
        sprites = hd.sprites
        sources = hd.sources
        self.resources = resources
        self.byPath = byPath
    }

    /// The style JSON, exactly as it was read when the pack was built.
    public var styleJSON: [UInt8] { bytes(of: resources[0]) }

    /// The resource at `path` (`style.json`, `sprite@2x.png`, `glyphs/<stack>/<range>.pbf`, …).
    public func resource(named path: String) -> Resource? {
        byPath[path].map { resources[$0] }
    }

    /// The data of a resource of this pack (already checked against its CRC32 and SHA-256).
    public func bytes(of resource: Resource) -> [UInt8] {
        precondition(resource.offset >= PackLayout.preambleSize && resource.offset + resource.length <= bytes.count,
                     "resource \(resource.path) is not from this pack")
        return Array(bytes[resource.offset..<(resource.offset + resource.length)])
    }

    /// The data of the resource at `path`, or nil when the pack has none.
    public func bytes(named path: String) -> [UInt8]? {
        resource(named: path).map { bytes(of: $0) }
    }

    /// Glyph ranges of one font stack, ascending.
    public func glyphRanges(of fontStack: String) -> [Resource] {
        resources.filter { $0.kind == .glyphRange && $0.info.group == fontStack }
    }
}
