import Foundation
import OffgridCore

/// What a style pack needs from a MapLibre / Mapbox GL style (version 8): its name, sprite(s),
/// glyphs template, sources and the font stacks its layers use. The bytes are kept as read.
public struct StyleDocument {
    /// The style JSON exactly as read.
    public let bytes: [UInt8]
    /// The style's `name`, when it has one.
    public let name: String?
    /// `sprite` as a string (id `default`) or as an array of `{id, url}`; empty when absent.
    public let sprites: [StyleSprite]
    /// The `glyphs` URL template, when present.
    public let glyphs: String?
    /// Sorted by id (UTF-8 bytes).
    public let sources: [StyleSource]
    /// Font stacks the layers use, as name arrays, in first-seen order (see `FontStackCollector`).
    public let fontStacks: [[String]]
    /// Layer parts whose fonts depend on data and so could not be packed.
    public let unresolvedFonts: [String]

    /// Parses `bytes`; `file` names the style in errors.
    public init(bytes: [UInt8], file: String) throws {
        self.bytes = bytes
        func fail(_ message: String) -> InputError { InputError(file: file, message) }
        let parsed: JSONValue
        do {
            parsed = try JSONReader.parse(bytes)
        } catch let error as JSONReader.ParseError {
            throw InputError(file: file, offset: error.offset, "not valid JSON: \(error.message)")
        }
        guard let style = parsed.objectValue else { throw fail("not a GL style: the top level is not a JSON object") }
        guard let version = style["version"]?.doubleValue, version == 8 else {
            throw fail("not a GL style: \"version\" must be 8 (MapLibre / Mapbox GL style specification)")
        }
        guard let layers = style["layers"]?.arrayValue else { throw fail("not a GL style: \"layers\" is not an array") }
        guard let sourceTable = style["sources"]?.objectValue else { throw fail("not a GL style: \"sources\" is not an object") }

        if let name = style["name"] {
            guard let s = name.stringValue else { throw fail("\"name\" is not a string") }
            self.name = s
        } else {
            self.name = nil
        }

        switch style["sprite"] {
        case nil:
            sprites = []
        case .string(let url):
            sprites = [StyleSprite(id: "default", url: url)]
        case .array(let list):
            var found: [StyleSprite] = []
            for (i, item) in list.enumerated() {
                guard let id = item["id"]?.stringValue, !id.isEmpty, let url = item["url"]?.stringValue else {
                    throw fail("\"sprite\" entry \(i) is not an object with a non-empty \"id\" and a \"url\"")
                }
                guard !found.contains(where: { $0.id == id }) else { throw fail("\"sprite\" id \"\(id)\" appears twice") }
                found.append(StyleSprite(id: id, url: url))
            }
            sprites = found
        default:
            throw fail("\"sprite\" is neither a URL string nor an array of {id, url}")
        }

        switch style["glyphs"] {
        case nil: glyphs = nil
        case .string(let template): glyphs = template
        default: throw fail("\"glyphs\" is not a URL template string")
        }

        var sources: [StyleSource] = []
        for id in sourceTable.keys.sorted(by: utf8Less) {
            guard let source = sourceTable[id]?.objectValue, let type = source["type"]?.stringValue else {
                throw fail("source \"\(id)\" is not an object with a \"type\"")
            }
            var url = source["url"]?.stringValue ?? ""
            if url.isEmpty, type == "geojson", let data = source["data"]?.stringValue { url = data }
            var tiles: [String] = []
            for key in ["tiles", "urls"] {
                guard let list = source[key] else { continue }
                guard let strings = FontStackCollector.stringArray(list) else {
                    throw fail("source \"\(id)\": \"\(key)\" is not an array of strings")
                }
                tiles += strings
            }
            sources.append(StyleSource(id: id, type: type, url: url, tiles: tiles))
        }
        self.sources = sources

        var collector = FontStackCollector()
        collector.collect(layers: layers)
        fontStacks = collector.stacks
        unresolvedFonts = collector.unresolved
    }

    /// Reads and parses the style file at `path`.
    public init(path: String) throws {
        guard let data = FileManager.default.contents(atPath: path) else {
            var isDir: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDir) {
                throw InputError(file: path, isDir.boolValue ? "is a directory, not a style JSON file" : "cannot read the style")
            }
            throw InputError(file: path, "style file not found")
        }
        guard data.count <= StylePackFormat.maxResourceLength else {
            throw InputError(file: path, "style of \(data.count) bytes is over the \(StylePackFormat.maxResourceLength >> 20) MiB limit")
        }
        try self.init(bytes: [UInt8](data), file: path)
    }

    /// Font stack keys (names joined by ","), sorted by UTF-8 bytes.
    public var fontStackKeys: [String] {
        Set(fontStacks.map { $0.joined(separator: ",") }).sorted(by: utf8Less)
    }

}
