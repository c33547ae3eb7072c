import Foundation
import OffgridCore
import TileMath

/// The JSON documents the server writes: TileJSON 3.0.0 for a tileset and a stored style with its
/// sources, sprite and glyphs pointed at this server. `base` is `http://host:port`.
enum ServerDocuments {
    /// TileJSON 3.0.0 (https://github.com/mapbox/tilejson-spec/tree/master/3.0.0). The store keeps
    /// each vector layer's id (not its fields), so `fields` is `{}`.
    static func tileJSON(_ t: StoreSnapshot.Tileset, base: String) -> JSONValue {
        var doc: [String: JSONValue] = [
            "tilejson": "3.0.0",
            "name": .string(t.name),
            "scheme": "xyz",
            "tiles": [.string("\(base)/tiles/\(ServerRoute.percentEncode(t.name))/{z}/{x}/{y}")],
            "minzoom": .int(t.minZoom),
            "maxzoom": .int(t.maxZoom),
        ]
        let bounds = t.bounds ?? [-180, -WebMercator.maxLatitude, 180, WebMercator.maxLatitude]
        doc["bounds"] = .array(bounds.map { .double($0) })
        doc["center"] = [.double((bounds[0] + bounds[2]) / 2), .double((bounds[1] + bounds[3]) / 2), .int(max(t.minZoom, min(t.maxZoom, 12)))]
        if t.index.tileType == .mvt {
            doc["vector_layers"] = .array(t.vectorLayers.map { ["id": .string($0), "fields": .object([:])] })
        }
        doc["format"] = .string(t.index.tileType == .mvt ? "pbf" : t.index.tileType.name)
        if let a = t.attribution { doc["attribution"] = .string(a) }
        return .object(doc)
    }

    /// The stored style, parsed, with every vector/raster source that names a stored tileset (by
    /// its URL's last segment, else the store's only tileset) pointed at that tileset's TileJSON,
    /// `sprite` and `glyphs` pointed at this server. Sources naming no stored tileset are kept.
    static func style(_ bytes: [UInt8], style: StoreSnapshot.Style, snapshot: StoreSnapshot, base: String) throws -> JSONValue {
        guard case .object(var doc) = try JSONReader.parse(bytes) else {
            throw InputError(file: style.uri, "stored style is not a JSON object")
        }
        if case .object(var sources)? = doc["sources"] {
            for (id, value) in sources {
                guard case .object(var source) = value, let type = source["type"]?.stringValue,
                      ["vector", "raster", "raster-dem"].contains(type) else { continue }
                let named = source["url"]?.stringValue ?? source["tiles"]?.arrayValue?.first?.stringValue ?? ""
                guard let tileset = snapshot.tileset(forSourceURL: named) else { continue }
                source["url"] = .string("\(base)/tiles/\(ServerRoute.percentEncode(tileset)).json")
                source["tiles"] = nil
                sources[id] = .object(source)
            }
            doc["sources"] = .object(sources)
        }
        let styleBase = "\(base)/styles/\(ServerRoute.percentEncode(style.id))"
        switch doc["sprite"] {
        case .string?:
            doc["sprite"] = .string("\(styleBase)/sprite")
        case .array(let list)?:
            doc["sprite"] = .array(list.map { item in
                guard case .object(var o) = item, let id = o["id"]?.stringValue else { return item }
                o["url"] = .string(id == "default" ? "\(styleBase)/sprite" : "\(styleBase)/sprites/\(ServerRoute.percentEncode(id))/sprite")
                return .object(o)
            })
        default:
            break
        }
        if doc["glyphs"] != nil { doc["glyphs"] = .string("\(base)/fonts/{fontstack}/{range}.pbf") }
        return .object(doc)
    }
}
