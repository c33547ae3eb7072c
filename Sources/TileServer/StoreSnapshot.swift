import Foundation
import MapPacks
import OffgridCore
import TileMath
import TileStore

/// What the server answers from: the store's tilesets (flat tile indexes, covers, TileJSON
/// facts), styles and glyph fonts, built from one `ServingCatalog`. Immutable; a reload builds a
/// new one (reusing the tile indexes of tilesets whose packs did not change) and swaps it in.
final class StoreSnapshot: @unchecked Sendable {
    struct Tileset {
        var name: String
        var index: TileIndex
        /// The packs' hashes in priority order: equal lists, equal index.
        var packSignature: [String]
        /// Regions of this tileset: their covers and zoom ranges (204 versus 404).
        var covers: [(zooms: ClosedRange<Int>, cover: TileCover)]
        var bounds: [Double]?
        var minZoom: Int, maxZoom: Int
        var vectorLayers: [String]
        var attribution: String?
        /// The earliest expiry of the regions holding the tileset.
        var expiresAt: Int64?
        /// The regions of this tileset (the viewer lists them).
        var regions: [(id: String, bbox: [Double]?)] = []
    }

    struct Resource {
        var file: String
        var sha256: String
    }

    struct Style {
        var uri: String
        var id: String
        var style: Resource
        /// Sprite files by "<sprite id>|<ratio>|json|png".
        var sprites: [String: Resource]
        var spriteIds: [String]
    }

    /// A tileset as the pack repository of `serve --repository` publishes it (its latest
    /// version): served even before the store holds any of its packs, over its full zooms and bounds.
    struct RepositoryTileset {
        var name: String
        var tileType: TileType
        var compression: TileCompression
        var minZoom: Int, maxZoom: Int
        var bounds: [Double]?
        var vectorLayers: [String]
        var attribution: String?
    }

    let version: Int64
    let tilesets: [String: Tileset]
    /// Every stored map pack, by the ETag prefix of its hash (`TileIndex.PackFile.tag`).
    let packsByTag: [String: ServingCatalog.MapPack]
    /// Packs the repository may refresh (ambient, or of regions loaded from a repository): sha256 → version.
    let repositoryPacks: [String: String]
    /// The tilesets by their names percent-encoded as the TileJSON templates write them, for
    /// the tile fast path (`TileResponder.fastTile`).
    let encodedTilesets: [(encoded: String, tileset: Tileset)]
    /// By style id (the URI's last path segment, when no other style has it) and by full URI.
    let styles: [String: Style]
    /// Glyph ranges by font stack (and by each single font) then by range start.
    let fonts: [String: [Int: Resource]]
    /// Problems met while building (packs that could not be opened), for the log.
    let warnings: [String]

    init(catalog: ServingCatalog, version: Int64, previous: StoreSnapshot?, repository: [String: RepositoryTileset] = [:],
         repositoryPacks: [String: String] = [:]) {
        self.version = version
        self.repositoryPacks = repositoryPacks
        packsByTag = Dictionary(catalog.mapPacks.map { (String($0.sha256.prefix(16)), $0) }, uniquingKeysWith: { a, _ in a })
        var warnings: [String] = []
        var tilesets: [String: Tileset] = [:]
        let byTileset = Dictionary(grouping: catalog.mapPacks, by: \.tileset)
        for name in Set(byTileset.keys).union(repository.keys).sorted() {
            let packs = byTileset[name] ?? []
            let regions = catalog.regions.filter { $0.tilesetName == name }
            var readers: [(MapPackReader, String)] = []
            let signature = packs.map(\.sha256)
            var index: TileIndex?
            if let old = previous?.tilesets[name], old.packSignature == signature {
                index = old.index
            } else {
                for p in packs {
                    do {
                        let r = try MapPackReader(path: p.file)
                        if let first = readers.first?.0.header, first.tileType != r.header.tileType || first.tileCompression != r.header.tileCompression {
                            warnings.append("\(p.file): tile type or compression differs from the tileset's other packs; left out")
                            continue
                        }
                        readers.append((r, p.sha256))
                    } catch {
                        if FileManager.default.fileExists(atPath: p.file) { warnings.append("\(error)") }
                    }
                }
                guard let header = readers.first?.0.header ?? repository[name].map({ r in
                    MapPackHeader(band: ZoomBand(0, 0), parent: TileCoordinate(z: 0, x: 0, y: 0), tilesetId: name,
                                  tileType: r.tileType, tileCompression: r.compression)
                }) else { continue }
                let reuse = Dictionary((previous?.tilesets[name]?.index.openPacks ?? []).map { ($0.tag, $0) }, uniquingKeysWith: { a, _ in a })
                do {
                    index = try TileIndex(tileType: header.tileType, compression: header.tileCompression, readers: readers,
                                          reuse: Dictionary(readers.compactMap { r in reuse[String(r.1.prefix(16))].map { (r.1, $0) } },
                                                            uniquingKeysWith: { a, _ in a }))
                } catch {
                    warnings.append("\(error)")
                    continue
                }
            }
            let fromRepository = repository[name]
            guard let index, let held = index.zooms ?? fromRepository.map({ $0.minZoom...$0.maxZoom }) else { continue }
            var t = Tileset(name: name, index: index, packSignature: signature, covers: [], bounds: nil,
                            minZoom: held.lowerBound, maxZoom: held.upperBound, vectorLayers: [], attribution: nil, expiresAt: nil)
            var zoomsFromRegions: ClosedRange<Int>?
            for r in regions {
                t.regions.append((r.id, r.bbox))
                let effective = r.tileset["zoom"]?["effective"]?.arrayValue?.compactMap(\.intValue) ?? []
                let zooms = effective.count == 2 && effective[0] <= effective[1] ? effective[0]...effective[1] : held
                zoomsFromRegions = zoomsFromRegions.map { min($0.lowerBound, zooms.lowerBound)...max($0.upperBound, zooms.upperBound) } ?? zooms
                if let text = r.geometry, let region = try? Region.parse(geoJSON: text) {
                    t.covers.append((zooms, TileCover(region)))
                }
                if let b = r.bbox {
                    t.bounds = t.bounds.map { [min($0[0], b[0]), min($0[1], b[1]), max($0[2], b[2]), max($0[3], b[3])] } ?? b
                }
                for layer in r.tileset["vectorLayers"]?.arrayValue?.compactMap(\.stringValue) ?? [] where !t.vectorLayers.contains(layer) {
                    t.vectorLayers.append(layer)
                }
                t.attribution = t.attribution ?? r.tileset["attribution"]?.stringValue
                if let e = r.expiresAt { t.expiresAt = min(t.expiresAt ?? e, e) }
            }
            if let z = zoomsFromRegions {
                t.minZoom = max(held.lowerBound, z.lowerBound)
                t.maxZoom = min(held.upperBound, z.upperBound)
                if t.minZoom > t.maxZoom { (t.minZoom, t.maxZoom) = (held.lowerBound, held.upperBound) }
            }
            if let r = fromRepository {
                // The repository fills what the store lacks: its zooms and bounds are the tileset's.
                t.minZoom = r.minZoom
                t.maxZoom = r.maxZoom
                t.bounds = r.bounds ?? t.bounds
                for layer in r.vectorLayers where !t.vectorLayers.contains(layer) { t.vectorLayers.append(layer) }
                t.attribution = t.attribution ?? r.attribution
            }
            tilesets[name] = t
        }
        self.tilesets = tilesets
        encodedTilesets = tilesets.keys.sorted().map { (ServerRoute.percentEncode($0), tilesets[$0]!) }

        var styles: [String: Style] = [:]
        var fonts: [String: [Int: Resource]] = [:]
        var shortIds: [String: Int] = [:]
        for s in catalog.styles { shortIds[Self.shortId(s.uri), default: 0] += 1 }
        for s in catalog.styles {
            guard let styleResource = s.resources.first(where: { $0.kind == "style" }), let file = styleResource.file else { continue }
            var sprites: [String: Resource] = [:]
            var spriteIds: [String] = []
            for r in s.resources {
                guard let file = r.file else { continue }
                switch r.kind {
                case "sprite-index", "sprite-image":
                    sprites["\(r.group)|\(r.pixelRatio)|\(r.kind == "sprite-index" ? "json" : "png")"] = Resource(file: file, sha256: r.sha256)
                    if !spriteIds.contains(r.group) { spriteIds.append(r.group) }
                case "glyph-range":
                    let resource = Resource(file: file, sha256: r.sha256)
                    fonts[r.group, default: [:]][r.rangeStart] = fonts[r.group]?[r.rangeStart] ?? resource
                default:
                    break
                }
            }
            let id = Self.shortId(s.uri)
            let style = Style(uri: s.uri, id: shortIds[id] == 1 ? id : s.uri, style: Resource(file: file, sha256: styleResource.sha256),
                              sprites: sprites, spriteIds: spriteIds)
            styles[s.uri] = style
            if shortIds[id] == 1 { styles[id] = style }
        }
        self.styles = styles
        self.fonts = fonts
        self.warnings = warnings
    }

    /// `offgrid://styles/basic` → `basic`.
    static func shortId(_ uri: String) -> String {
        let tail = uri.split(separator: "/", omittingEmptySubsequences: true).last.map(String.init) ?? uri
        return tail.isEmpty ? uri : tail
    }

    /// The tileset a style source means: the one named by its URL's last segment, else the
    /// store's only tileset.
    func tileset(forSourceURL url: String) -> String? {
        let name = url.split(separator: "/").last.map { String($0).removingPercentEncoding ?? String($0) } ?? ""
        if tilesets[name] != nil { return name }
        if let match = tilesets.keys.first(where: { $0.lowercased() == name.lowercased() }) { return match }
        return tilesets.count == 1 ? tilesets.keys.first : nil
    }

    /// 204 (in a region's cover) or 404 for a tile no pack holds.
    func isInCover(_ t: Tileset, z: Int, x: Int, y: Int) -> Bool {
        let c = TileCoordinate(z: z, x: x, y: y)
        return t.covers.contains { $0.zooms.contains(z) && $0.cover.contains(c) }
    }
}
