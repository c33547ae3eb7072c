import OffgridCore
import TileMath
import Foundation
import MapPacks
import TileSources

extension TileStore {
    /// `get Z X Y --tileset NAME`: the bytes of a tile, as the tileset stores them (e.g. gzipped
    /// MVT), from whatever installed pack holds it: the pack of the tileset whose band holds Z and
    /// whose parent is the tile's ancestor at the band's first zoom. Packs used by a region come
    /// first, then the newest; evictable packs still answer until they are evicted. Nil when no
    /// stored pack has the tile.
    public func tile(z: Int, x: Int, y: Int, tileset: String?) throws -> (bytes: ArraySlice<UInt8>, pack: String, tileset: String)? {
        guard z >= 0, z <= 30, x >= 0, y >= 0, x < (1 << z), y < (1 << z) else { throw InputError("tile \(z)/\(x)/\(y) does not exist (x and y must be below 2^z, z at most 30)") }
        let name: String
        if let tileset {
            name = tileset
        } else {
            let names = try db.rows("SELECT DISTINCT tileset FROM objects WHERE kind = 'map-pack' ORDER BY tileset") { $0.text(0) }
            guard names.count == 1 else {
                throw InputError(names.isEmpty ? "the store holds no map packs" : "the store holds several tilesets (\(names.joined(separator: ", "))); name one with --tileset")
            }
            name = names[0]
        }
        let candidates = try db.rows("""
            SELECT o.path, EXISTS (SELECT 1 FROM region_packs rp WHERE rp.sha256 = o.sha256) AS used
            FROM objects o
            WHERE o.kind = 'map-pack' AND o.tileset = ?1 AND o.band_min <= ?2 AND o.band_max >= ?2
              AND o.parent_z = o.band_min AND o.parent_x = (?3 >> (?2 - o.band_min)) AND o.parent_y = (?4 >> (?2 - o.band_min))
            ORDER BY used DESC, o.installed_at DESC, o.sha256
            """, [.text(name), .int(z), .int(x), .int(y)]) { $0.text(0) }
        // Opening a pack reads its preamble, header and index only; the tile is one positioned read.
        let coordinate = TileCoordinate(z: z, x: x, y: y)
        for path in candidates {
            let full = files.absolute(path)
            let reader: MapPackReader
            do {
                reader = try MapPackReader(path: full)
            } catch {
                if !FileManager.default.fileExists(atPath: full) { continue }   // evicted meanwhile
                throw error
            }
            do {
                guard let bytes = try reader.tile(coordinate) else { continue }
                return (bytes, path, name)
            } catch let e as InputError {
                throw InputError(file: full, offset: e.offset, "\(e.message) (run tilestore verify)")
            }
        }
        return nil
    }
}
