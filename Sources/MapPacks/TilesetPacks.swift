import OffgridCore
import TileMath
import TileSources

/// Every pack of a whole tileset (what a repository publishes): for each band overlapping the
/// source's zooms, each parent tile at the band's first zoom that has at least one source tile
/// within the band. Built with the same `buildPack` as regions, so a published pack is
/// byte-identical to the pack `tilepack-build maps` writes for any region holding it.
public enum TilesetPacks {
    /// The bands that hold source zooms.
    public static func bands(source: TileSource, bands: ZoomBands) -> [ZoomBand] {
        let zooms = source.info.minZoom...source.info.maxZoom
        return bands.bands.filter { $0.zooms.overlaps(zooms) }
    }

    /// The packs in band then parent order; reads the source's index only.
    public static func plan(source: TileSource, bands: ZoomBands) throws -> [PlannedPack] {
        let info = source.info
        var packs: [PlannedPack] = []
        for band in Self.bands(source: source, bands: bands) {
            var byParent: [TileCoordinate: [TileIndexEntry]] = [:]
            try source.prepareIndex(parents: .max, zooms: band.zooms)   // every tile: one scan
            for z in band.zooms where z >= info.minZoom && z <= info.maxZoom {
                for t in try source.index(under: TileCoordinate(z: 0, x: 0, y: 0), atZoom: z) {
                    byParent[t.coordinate.ancestor(atZoom: band.minZoom), default: []].append(t)
                }
            }
            for parent in byParent.keys.sorted() {
                let header = MapPackHeader(band: band, parent: parent, tilesetId: info.name,
                                           tileType: info.tileType, tileCompression: info.tileCompression)
                packs.append(PlannedPack(header: header, tiles: byParent[parent]!))
            }
        }
        return packs
    }

    /// One pack's bytes as parts (prefix, then unique tiles) and its hash; `scratch` is a
    /// buffer the caller reuses between packs (one per thread).
    public static func encode(_ pack: PlannedPack, source: TileSource, scratch: inout [UInt8])
        throws -> (parts: [ArraySlice<UInt8>], built: MapPackBuilder.BuiltPack) {
        let p = try MapPackBuilder.buildPack(pack, source: source, scratch: &scratch)
        return ([p.prefix[...]] + p.blobs, p.built)
    }
}
