import Foundation
import MapPacks
import OffgridCore
import TileMath
import TileSources
import TileStore

/// `tilestore export`: one region's tiles (every map pack it lists, one tileset) as a PMTiles v3
/// archive or an MBTiles 1.3 file that any MapLibre client, the `pmtiles` tool or GDAL reads.
/// A tile two of the region's packs hold comes from the pack `tilestore get` reads first.
public enum RegionExport {
    public enum Format: String, CaseIterable, Sendable {
        case pmtiles, mbtiles
    }

    public struct Report: Encodable, Sendable {
        public var region: String
        public var tileset: String
        public var format: String
        public var output: String
        public var packs: Int
        public var tiles: Int
        /// Distinct tile contents (PMTiles stores each once; MBTiles stores every tile).
        public var uniqueTiles: Int
        public var minzoom: Int
        public var maxzoom: Int
        public var bytes: Int
    }

    public static func export(store path: String, region id: String, format: Format, output: String,
                              tileset wanted: String? = nil) throws -> Report {
        let store = try TileStore.open(path, access: .read, quiet: true)
        defer { store.close() }
        let catalog = try store.servingCatalog()
        guard let region = catalog.regions.first(where: { $0.id == id }) else {
            throw InputError("no region \"\(id)\" in the store (see tilestore list)")
        }
        let bySha = Dictionary(catalog.mapPacks.map { ($0.sha256, $0) }, uniquingKeysWith: { a, _ in a })
        let missing = region.mapPacks.filter { bySha[$0] == nil }
        guard missing.isEmpty else {
            throw InputError("region \"\(id)\" is incomplete: \(missing.count) of its map packs are not stored (e.g. \(missing[0].prefix(16))…); reinstall it or run tilestore verify")
        }
        // Catalog order is priority order (used, newest, hash) within each parent.
        let wantedShas = Set(region.mapPacks)
        var packs = catalog.mapPacks.filter { wantedShas.contains($0.sha256) }
        if let wanted { packs = packs.filter { $0.tileset == wanted } }
        let names = Set(packs.map(\.tileset))
        guard let name = wanted ?? region.tilesetName ?? names.sorted().first, !packs.isEmpty else {
            throw InputError(wanted.map { "region \"\(id)\" has no map packs of tileset \"\($0)\"" } ?? "region \"\(id)\" has no map packs")
        }
        if wanted == nil, names.count > 1 {
            throw InputError("region \"\(id)\" holds several tilesets (\(names.sorted().joined(separator: ", "))); name one with --tileset")
        }
        packs = packs.filter { $0.tileset == name }
        let readers = try packs.map { (try MapPackReader(path: $0.file), $0.sha256) }
        let header = readers[0].0.header
        for (r, _) in readers where r.header.tileType != header.tileType || r.header.tileCompression != header.tileCompression {
            throw InputError(file: r.path, "tile type or compression differs from the region's other packs")
        }
        let index = try TileIndex(tileType: header.tileType, compression: header.tileCompression, readers: readers, reuse: [:])
        var coordinates: [TileCoordinate] = []
        var locations: [TileIndex.Location] = []
        index.forEach { c, at in coordinates.append(c); locations.append(at) }
        guard let minZoom = coordinates.map(\.z).min(), let maxZoom = coordinates.map(\.z).max() else {
            throw InputError("region \"\(id)\" holds no tiles")
        }
        let bounds = region.bbox ?? [-180, -WebMercator.maxLatitude, 180, WebMercator.maxLatitude]
        let center = [(bounds[0] + bounds[2]) / 2, (bounds[1] + bounds[3]) / 2]
        let centerZoom = min(maxZoom, max(minZoom, 12))
        let layers: [JSONValue] = (region.tileset["vectorLayers"]?.arrayValue ?? []).compactMap(\.stringValue).map {
            ["id": .string($0), "fields": .object([:]), "minzoom": .int(minZoom), "maxzoom": .int(maxZoom)]
        }
        let tileFormat = header.tileType == .mvt ? "pbf" : header.tileType.name
        let attribution = region.tileset["attribution"]?.stringValue
        let description = "Offgrid region \(id), exported from a tile store"
        let read: (Int) throws -> [UInt8] = { try locations[$0].bytes() }
        let uniqueTiles: Int
        switch format {
        case .pmtiles:
            var metadata: [String: JSONValue] = [
                "name": .string(name), "format": .string(tileFormat), "description": .string(description),
                "type": "baselayer", "version": "1", "minzoom": .string("\(minZoom)"), "maxzoom": .string("\(maxZoom)"),
                "offgrid:region": .string(id),
            ]
            if header.tileType == .mvt { metadata["vector_layers"] = .array(layers) }
            if let attribution { metadata["attribution"] = .string(attribution) }
            let stats = try PMTilesWriter.write(
                to: output, tiles: coordinates,
                description: .init(tileType: header.tileType, tileCompression: header.tileCompression, bounds: bounds,
                                   center: center, centerZoom: centerZoom, metadata: .object(metadata)),
                read: read)
            uniqueTiles = stats.tileContents
        case .mbtiles:
            func number(_ v: Double) -> String { JSONWriter.string(.double(v), pretty: false) }
            var metadata: [(String, String)] = [
                ("name", name), ("format", tileFormat), ("description", description), ("type", "baselayer"), ("version", "1"),
                ("minzoom", "\(minZoom)"), ("maxzoom", "\(maxZoom)"), ("bounds", bounds.map(number).joined(separator: ",")),
                ("center", "\(number(center[0])),\(number(center[1])),\(centerZoom)"),
            ]
            if header.tileCompression != .gzip || header.tileType != .mvt { metadata.append(("compression", header.tileCompression.name)) }
            if let attribution { metadata.append(("attribution", attribution)) }
            if header.tileType == .mvt {
                metadata.append(("json", JSONWriter.string(["vector_layers": .array(layers)], pretty: false)))
            }
            _ = try MBTilesWriter.write(to: output, metadata: metadata, tiles: coordinates, read: read)
            uniqueTiles = coordinates.count
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: output)[.size] as? Int) ?? 0
        return Report(region: id, tileset: name, format: format.rawValue, output: output, packs: packs.count, tiles: coordinates.count,
                      uniqueTiles: uniqueTiles, minzoom: minZoom, maxzoom: maxZoom, bytes: size)
    }
}
