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
        let parsed: Any
        do {
            parsed = try JSONSerialization.jsonObject(with: Data(bytes))
        } catch {
            throw fail("not valid JSON: \(Self.jsonErrorText(error))")
        }
        guard let style = parsed as? [String: Any] else { throw fail("not a GL style: the top level is not a JSON object") }
        guard let version = jsonNumber(style["version"]), version == 8 else {
            throw fail("not a GL style: \"version\" must be 8 (MapLibre / Mapbox GL style specification)")
        }
        guard let layers = style["layers"] as? [Any] else { throw fail("not a GL style: \"layers\" is not an array") }
        guard let sourceTable = style["sources"] as? [String: Any] else { throw fail("not a GL style: \"sources\" is not an object") }

        if let name = style["name"] {
            guard let s = name as? String else { throw fail("\"name\" is not a string") }
            self.name = s
        } else {
            self.name = nil
        }

        switch style["sprite"] {
        case nil:
            sprites = []
        case let url as String:
            sprites = [StyleSprite(id: "default", url: url)]
        case let list as [Any]:
            var found: [StyleSprite] = []
            for (i, item) in list.enumerated() {
                guard let entry = item as? [String: Any], let id = entry["id"] as? String, !id.isEmpty,
                      let url = entry["url"] as? String else {
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
        case let template as String: glyphs = template
        default: throw fail("\"glyphs\" is not a URL template string")
        }

        var sources: [StyleSource] = []
        for id in sourceTable.keys.sorted(by: utf8Less) {
            guard let source = sourceTable[id] as? [String: Any], let type = source["type"] as? String else {
                throw fail("source \"\(id)\" is not an object with a \"type\"")
            }
            var url = source["url"] as? String ?? ""
            if url.isEmpty, type == "geojson", let data = source["data"] as? String { url = data }
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

    private static func jsonErrorText(_ error: Error) -> String {
        let ns = error as NSError
        if let detail = ns.userInfo[NSDebugDescriptionErrorKey] as? String { return detail }
        return ns.localizedDescription
    }
}
