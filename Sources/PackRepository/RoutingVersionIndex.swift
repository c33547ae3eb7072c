import OffgridCore

/// `routing/<profile>/<data_version>.json`: every routing tile of one data version, with what a
/// client needs to write an unpacked routing directory that `route-graph` compiles as is (the
/// `manifest.json` fields `tilepack-unpack` writes: data version, profile name and hash, grid;
/// each tile's size here and CRC32 from its bytes). Entries are `[key, sha256, size]` with the
/// key the tile id in decimal (the tile's file is `<id>.tile`), sorted by key bytes.
/// Immutable once written.
public struct RoutingVersionIndex: Equatable, Sendable {
    public static let format = "offgrid-routing-index"
    public static let formatVersion = 1
    /// Largest routing tile accepted (the routing pack's own cap).
    public static let maxTileBytes = 256 << 20

    public var profile: String
    /// Hex SHA-256 of the routing profile's settings (tiles carry it too).
    public var profileHash: String
    /// `yyyy-MM-dd-N`, from the source PBF.
    public var dataVersion: String
    /// Edge of the lon/lat grid the tile ids refer to.
    public var gridDegrees: Double
    /// minLon, minLat, maxLon, maxLat of the tiles' cells together.
    public var bbox: [Double]
    /// One per tile, sorted by key.
    public var entries: [RepositoryEntry]

    public init(profile: String, profileHash: String, dataVersion: String, gridDegrees: Double, bbox: [Double], entries: [RepositoryEntry]) {
        self.profile = profile
        self.profileHash = profileHash
        self.dataVersion = dataVersion
        self.gridDegrees = gridDegrees
        self.bbox = bbox
        self.entries = entries.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
    }

    /// The entry key of tile `id`.
    public static func key(tileId id: UInt32) -> String { String(id) }

    /// The tile id of a key: decimal, no leading zeros, within UInt32.
    public static func tileId(key: String) -> UInt32? {
        let u = key.utf8
        guard !u.isEmpty, u.count <= 10, u.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), key == "0" || u.first != 0x30 else { return nil }
        return UInt32(key)
    }

    /// (tile id, entry) in ascending id order.
    public var tiles: [(id: UInt32, entry: RepositoryEntry)] {
        entries.compactMap { e in Self.tileId(key: e.key).map { ($0, e) } }.sorted { $0.id < $1.id }
    }

    public var json: JSONValue {
        [
            "format": .string(Self.format), "format_version": .int(Self.formatVersion),
            "profile": .string(profile), "profile_hash": .string(profileHash), "data_version": .string(dataVersion),
            "grid_degrees": .double(gridDegrees), "bbox": .array(bbox.map { .double($0) }),
            "entries": entriesJSON(entries),
        ]
    }

    /// Deterministic bytes: compact JSON, sorted keys, entries sorted by key, a final newline.
    public func encoded() -> [UInt8] { indexBytes(json) }

    /// Parses and validates a routing index; `source` (a path or URL) names it in errors.
    public static func decode(_ bytes: [UInt8], source: String) throws -> RoutingVersionIndex {
        let r = IndexReader(source: source, what: "routing index")
        let root = try r.root(bytes)
        try r.format(root, expected: format, version: formatVersion)
        let profile = try r.name(root, "profile", at: "index")
        let dataVersion = try r.name(root, "data_version", at: "index")
        let hash = try r.string(root, "profile_hash", at: "index")
        guard RepositoryRules.isSHA256(hash) else { throw r.fail("profile_hash \(r.quoted(hash)) is not 64 lowercase hex digits") }
        guard let grid = root["grid_degrees"]?.doubleValue, grid.isFinite, grid > 0, grid <= 90 else {
            throw r.fail("grid_degrees missing or not within (0, 90]")
        }
        guard let b = root["bbox"]?.arrayValue, b.count == 4 else { throw r.fail("bbox is not [minLon, minLat, maxLon, maxLat]") }
        let bbox = b.compactMap(\.doubleValue)
        guard bbox.count == 4, bbox.allSatisfy(\.isFinite) else { throw r.fail("bbox is not 4 numbers") }
        let entries = try r.entries(root) { tileId(key: $0) != nil }
        if let big = entries.first(where: { $0.size > maxTileBytes }) {
            throw r.fail("tile \(big.key): size \(big.size) is more than the \(maxTileBytes) a routing tile may have")
        }
        return RoutingVersionIndex(profile: profile, profileHash: hash, dataVersion: dataVersion, gridDegrees: grid, bbox: bbox, entries: entries)
    }
}
