import OffgridCore
import TileMath

/// The key of a map pack in a tileset index: `<band>/<z>-<x>-<y>`, e.g. `6-10/6-33-22` — the
/// band's zoom range and the pack's parent tile, as the store names packs
/// (`packs/<band>/<z>-<x>-<y>.pack`).
public struct MapPackKey: Hashable, Sendable, CustomStringConvertible {
    public var minZoom: Int
    public var maxZoom: Int
    /// At `minZoom`.
    public var parent: TileCoordinate

    public init(minZoom: Int, maxZoom: Int, parent: TileCoordinate) {
        self.minZoom = minZoom
        self.maxZoom = maxZoom
        self.parent = parent
    }

    public var band: String { "\(minZoom)-\(maxZoom)" }
    public var description: String { "\(band)/\(parent.z)-\(parent.x)-\(parent.y)" }

    /// Parses a key strictly: decimal numbers without leading zeros, bands within 0-30 and at
    /// most 8 zooms wide, the parent at the band's first zoom and inside the world.
    public init?(_ key: String) {
        let halves = key.split(separator: "/", omittingEmptySubsequences: false)
        guard halves.count == 2, let band = Self.numbers(halves[0], count: 2), let tile = Self.numbers(halves[1], count: 3) else { return nil }
        let parent = TileCoordinate(z: tile[0], x: tile[1], y: tile[2])
        guard band[0] <= band[1], band[1] <= 30, band[1] - band[0] < 8, parent.z == band[0], parent.isValid else { return nil }
        self.init(minZoom: band[0], maxZoom: band[1], parent: parent)
    }

    /// "min-max" within 0-30, at most 8 zooms wide, no leading zeros.
    public static func isBand(_ text: String) -> Bool {
        guard let b = numbers(text[...], count: 2) else { return false }
        return b[0] <= b[1] && b[1] <= 30 && b[1] - b[0] < 8
    }

    private static func numbers(_ text: Substring, count: Int) -> [Int]? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == count else { return nil }
        var out: [Int] = []
        for p in parts {
            guard !p.isEmpty, p.count <= 10, p.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
                  p == "0" || p.first != "0", let n = Int(p) else { return nil }
            out.append(n)
        }
        return out
    }
}

/// `tilesets/<name>/<version>.json`: one published version of a tileset — what a client needs
/// to install its packs without the source (tile type, compression, zooms, bounds, bands,
/// metadata, expiry), then every map pack as `[key, sha256, size]`, sorted by key.
/// Immutable once written.
public struct TilesetVersionIndex: Equatable, Sendable {
    public static let format = "offgrid-tileset-index"
    public static let formatVersion = 1

    public var name: String
    public var version: String
    public var tileType: TileType
    public var tileCompression: TileCompression
    public var minZoom: Int
    public var maxZoom: Int
    /// minLon, minLat, maxLon, maxLat when the source says.
    public var bounds: [Double]?
    /// The zoom bands the packs are cut into ("0-5", …), ascending.
    public var bands: [String]
    /// The tileset's metadata `name` (the tileset id map packs carry; may differ from `name`).
    public var tilesetId: String
    public var attribution: String?
    /// The source's metadata (MBTiles metadata table / PMTiles JSON metadata), including
    /// `vector_layers` when it has them.
    public var metadata: [String: JSONValue]
    /// ISO 8601 expiry of the tileset's packs, when the source has one.
    public var expires: String?
    /// One per map pack, sorted by key.
    public var entries: [RepositoryEntry]

    public init(name: String, version: String, tileType: TileType, tileCompression: TileCompression, minZoom: Int, maxZoom: Int,
                bounds: [Double]?, bands: [String], tilesetId: String, attribution: String?, metadata: [String: JSONValue],
                expires: String?, entries: [RepositoryEntry]) {
        self.name = name; self.version = version; self.tileType = tileType; self.tileCompression = tileCompression
        self.minZoom = minZoom; self.maxZoom = maxZoom; self.bounds = bounds; self.bands = bands
        self.tilesetId = tilesetId; self.attribution = attribution; self.metadata = metadata; self.expires = expires
        self.entries = entries.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
    }

    /// The `vector_layers` ids from the metadata, when it lists them.
    public var vectorLayers: [String]? { metadata["vector_layers"]?.arrayValue?.compactMap { $0["id"]?.stringValue } }

    /// The typed key of every entry (valid by construction once decoded).
    public func packKey(_ entry: RepositoryEntry) -> MapPackKey? { MapPackKey(entry.key) }

    public var json: JSONValue {
        var o: [String: JSONValue] = [
            "format": .string(Self.format), "format_version": .int(Self.formatVersion),
            "name": .string(name), "version": .string(version), "tileset_id": .string(tilesetId),
            "tile_type": .string(tileType.name), "tile_compression": .string(tileCompression.name),
            "minzoom": .int(minZoom), "maxzoom": .int(maxZoom),
            "bands": .array(bands.map { .string($0) }), "metadata": .object(metadata),
            "entries": entriesJSON(entries),
        ]
        o["bounds"] = bounds.map { .array($0.map { .double($0) }) } ?? .null
        o["attribution"] = attribution.map(JSONValue.string) ?? .null
        o["expires"] = expires.map(JSONValue.string) ?? .null
        return .object(o)
    }

    /// Deterministic bytes: compact JSON, sorted keys, entries sorted by key, a final newline.
    public func encoded() -> [UInt8] { indexBytes(json) }

    /// Parses and validates a tileset index; `source` (a path or URL) names it in errors.
    public static func decode(_ bytes: [UInt8], source: String) throws -> TilesetVersionIndex {
        let r = IndexReader(source: source, what: "tileset index")
        let root = try r.root(bytes)
        try r.format(root, expected: format, version: formatVersion)
        let name = try r.name(root, "name", at: "index"), version = try r.name(root, "version", at: "index")
        let typeName = try r.string(root, "tile_type", at: "index")
        guard let type = TileType.allCases.first(where: { $0.name == typeName }) else { throw r.fail("unknown tile_type \(r.quoted(typeName))") }
        let compressionName = try r.string(root, "tile_compression", at: "index")
        guard let compression = TileCompression.allCases.first(where: { $0.name == compressionName }) else {
            throw r.fail("unknown tile_compression \(r.quoted(compressionName))")
        }
        guard let minZoom = root["minzoom"]?.intValue, let maxZoom = root["maxzoom"]?.intValue,
              minZoom >= 0, minZoom <= maxZoom, maxZoom <= 30 else { throw r.fail("minzoom/maxzoom missing or not 0 ≤ minzoom ≤ maxzoom ≤ 30") }
        var bounds: [Double]?
        if let b = root["bounds"], b != .null {
            guard let a = b.arrayValue, a.count == 4 else { throw r.fail("bounds is not [minLon, minLat, maxLon, maxLat]") }
            let d = a.compactMap(\.doubleValue)
            guard d.count == 4, d.allSatisfy(\.isFinite) else { throw r.fail("bounds is not 4 numbers") }
            bounds = d
        }
        var bands: [String] = []
        for (i, b) in try r.array(root, "bands", at: "index", max: 31).enumerated() {
            guard let s = b.stringValue, MapPackKey.isBand(s) else {
                throw r.fail("band \(i) is not \"min-max\" within 0-30")
            }
            bands.append(s)
        }
        let tilesetId = try r.string(root, "tileset_id", at: "index")
        guard let metadata = root["metadata"]?.objectValue else { throw r.fail("metadata missing or not an object") }
        let attribution = root["attribution"]?.stringValue, expires = root["expires"]?.stringValue
        let bandSet = Set(bands)
        let entries = try r.entries(root) { key in MapPackKey(key).map { bandSet.contains($0.band) } ?? false }
        return TilesetVersionIndex(name: name, version: version, tileType: type, tileCompression: compression, minZoom: minZoom,
                                   maxZoom: maxZoom, bounds: bounds, bands: bands, tilesetId: tilesetId, attribution: attribution,
                                   metadata: metadata, expires: expires, entries: entries)
    }
}
