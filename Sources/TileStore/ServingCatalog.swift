import Foundation
import OffgridCore

/// What a reader that serves or exports the store needs from the index, read in one snapshot:
/// every stored map pack with its tileset, band and parent, every region's cover and tileset
/// descriptor, every style's resources. Paths are absolute. `tilestore serve` builds its
/// in-memory tile index from it; `tilestore export` reads one region's packs from it.
public struct ServingCatalog: Sendable {
    public struct MapPack: Sendable, Hashable {
        public var sha256: String
        /// Absolute path of the pack file.
        public var file: String
        public var tileset: String
        public var bandMin: Int, bandMax: Int
        public var parentZ: Int, parentX: Int, parentY: Int
        /// Some region lists it (evictable packs still answer until evicted, after used ones).
        public var used: Bool
        public var installedAt: Int64
    }

    public struct Region: Sendable {
        public var id: String
        /// Canonical GeoJSON text of the region, nil when the index has none.
        public var geometry: String?
        public var bbox: [Double]?
        /// The tileset descriptor the region was built with (`TilesetDescriptor` in MapPacks).
        public var tileset: JSONValue
        public var tilesetName: String? { tileset["name"]?.stringValue }
        public var expiresAt: Int64?
        public var updatedAt: Int64
        /// The region's map packs (sha256), in name order; `complete` is false when one is missing.
        public var mapPacks: [String]
        public var complete: Bool
    }

    public struct StyleResource: Sendable {
        /// Path in the style pack: `style.json`, `sprite@2x.png`, `glyphs/<stack>/<range>.pbf`.
        public var path: String
        /// `style`, `sprite-index`, `sprite-image`, `glyph-range`.
        public var kind: String
        /// Sprite id for sprite files, font stack for glyph ranges.
        public var group: String
        public var pixelRatio: Int
        public var rangeStart: Int
        public var sha256: String
        public var bytes: Int64
        /// Absolute path of the stored file, nil when it is missing (evicted or never written).
        public var file: String?
    }

    public struct Style: Sendable {
        public var uri: String
        public var updatedAt: Int64
        public var resources: [StyleResource]
    }

    public var root: String
    /// Sorted by (tileset, band, parent), then priority: used first, newest first, then hash.
    public var mapPacks: [MapPack]
    public var regions: [Region]
    public var styles: [Style]
}

extension TileStore {
    /// One consistent snapshot of what the store holds for serving and exporting.
    public func servingCatalog() throws -> ServingCatalog {
        try db.readTransaction {
            let packs = try db.rows("""
                SELECT o.sha256, o.path, o.tileset, o.band_min, o.band_max, o.parent_z, o.parent_x, o.parent_y,
                       EXISTS (SELECT 1 FROM region_packs rp WHERE rp.sha256 = o.sha256), o.installed_at
                FROM objects o WHERE o.kind = 'map-pack' AND o.tileset IS NOT NULL
                ORDER BY o.tileset, o.band_min, o.parent_z, o.parent_x, o.parent_y, 9 DESC, o.installed_at DESC, o.sha256
                """) { s in
                ServingCatalog.MapPack(
                    sha256: s.text(0), file: files.absolute(s.text(1)), tileset: s.text(2),
                    bandMin: Int(s.int(3)), bandMax: Int(s.int(4)), parentZ: Int(s.int(5)), parentX: Int(s.int(6)),
                    parentY: Int(s.int(7)), used: s.int(8) != 0, installedAt: s.int(9))
            }
            var regionPacks: [String: [String]] = [:]
            var missing: Set<String> = []
            try db.rows("""
                SELECT rp.region_id, rp.sha256, o.sha256 IS NULL FROM region_packs rp LEFT JOIN objects o ON o.sha256 = rp.sha256
                WHERE rp.kind = 'map-pack' ORDER BY rp.region_id, rp.name
                """) { s in (s.text(0), s.text(1), s.int(2) != 0) }.forEach { id, sha, absent in
                regionPacks[id, default: []].append(sha)
                if absent { missing.insert(id) }
            }
            let regions = try db.rows("""
                SELECT id, geometry, min_lon, min_lat, max_lon, max_lat, tileset, expires_at, updated_at FROM regions ORDER BY id
                """) { s in
                ServingCatalog.Region(
                    id: s.text(0), geometry: s.optionalText(1),
                    bbox: s.isNull(2) ? nil : [s.double(2), s.double(3), s.double(4), s.double(5)],
                    tileset: jsonValue(s.optionalText(6)), expiresAt: s.optionalInt(7), updatedAt: s.int(8),
                    mapPacks: [], complete: true)
            }.map { r -> ServingCatalog.Region in
                var r = r
                r.mapPacks = regionPacks[r.id] ?? []
                r.complete = !missing.contains(r.id)
                return r
            }
            var resources: [String: [ServingCatalog.StyleResource]] = [:]
            try db.rows("""
                SELECT sr.uri, sr.path, sr.kind, sr.grp, sr.pixel_ratio, sr.range_start, sr.sha256, sr.bytes, o.path
                FROM style_resources sr LEFT JOIN objects o ON o.sha256 = sr.sha256 ORDER BY sr.uri, sr.path
                """) { s in
                (s.text(0), ServingCatalog.StyleResource(
                    path: s.text(1), kind: s.text(2), group: s.text(3), pixelRatio: Int(s.int(4)), rangeStart: Int(s.int(5)),
                    sha256: s.text(6), bytes: s.int(7), file: s.optionalText(8).map { files.absolute($0) }))
            }.forEach { resources[$0.0, default: []].append($0.1) }
            let styles = try db.rows("SELECT uri, updated_at FROM styles ORDER BY uri") { s in
                ServingCatalog.Style(uri: s.text(0), updatedAt: s.int(1), resources: [])
            }.map { s -> ServingCatalog.Style in
                var s = s
                s.resources = resources[s.uri] ?? []
                return s
            }
            return ServingCatalog(root: root, mapPacks: packs, regions: regions, styles: styles)
        }
    }

    /// SQLite's `data_version`: changes whenever another connection commits to the index, so a
    /// long-running reader knows when to take a new `servingCatalog()`.
    public func dataVersion() throws -> Int64 {
        try db.int("PRAGMA data_version")
    }
}
