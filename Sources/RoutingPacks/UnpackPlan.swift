import Foundation
import OffgridCore
import PackContainer

/// What unpacking one pack into a directory will do, decided from the pack's index and the
/// directory's manifest alone, before any tile is decompressed or any file is written.
struct UnpackPlan {
    typealias Manifest = UnpackedRoutingDirectory.Manifest

    /// Where each tile of the new directory comes from.
    enum Source: Equatable {
        /// The existing `DIR/<id>.tile`, hard-linked (content and mtime kept).
        case existing
        /// Decompressed from the pack, at this position in its index.
        case pack(Int)
    }

    let manifest: Manifest
    /// Same order as `manifest.tiles`.
    let sources: [Source]
    /// The directory's previous contents are discarded (different version, with `replace`).
    let replaced: Bool
    /// Tiles of the new directory that the old one did not have.
    let tilesAdded: Int
    /// Pack tiles the directory already held with the same size and CRC32.
    let tilesAlreadyPresent: Int
    /// Nothing to do: the directory already holds exactly this pack.
    let isNoop: Bool

    /// - Parameters:
    ///   - existing: the directory's manifest, nil when it has none (new or empty directory).
    ///   - existingTileSize: size of `DIR/<id>.tile` on disk, nil if missing or not a regular file.
    ///   - dirLabel: how error messages name the directory.
    static func make(reader: RoutingPackReader, packName: String, existing: Manifest?, replace: Bool,
                     existingTileSize: (UInt32) -> Int?, dirLabel: String) throws -> UnpackPlan {
        let header = reader.header
        var base = existing
        var replaced = false
        if let old = existing, let difference = incompatibility(old, header, dirLabel: dirLabel) {
            guard replace else {
                throw InputError(file: reader.path, difference
                                 + "; pass --replace to replace the directory's contents with this pack")
            }
            base = nil
            replaced = true
        }

        var geometry: String?
        if !header.regionGeoJSON.isEmpty {
            guard let object = GeoJSONText.object(header.regionGeoJSON) else {
                throw InputError(file: reader.path, offset: PackLayout.preambleSize, "region geometry is not a GeoJSON object")
            }
            geometry = GeoJSONText.canonical(object)
        }
        let region = Manifest.Region(pack: packName, bbox: header.bboxArray, geometry: geometry, tiles: reader.tileCount)

        // Merge the sorted tile lists, checking tiles present on both sides for equality.
        let oldTiles = base?.tiles ?? []
        var tiles: [Manifest.Tile] = []
        var sources: [Source] = []
        tiles.reserveCapacity(oldTiles.count + reader.tileCount)
        sources.reserveCapacity(oldTiles.count + reader.tileCount)
        var added = 0, alreadyPresent = 0, allPackTilesOnDisk = true
        var i = 0, j = 0
        let entries = reader.entries
        while i < oldTiles.count || j < entries.count {
            let old = i < oldTiles.count ? oldTiles[i] : nil
            let new = j < entries.count ? entries[j] : nil
            if let old, old.id < (new?.tileID ?? UInt32.max) || new == nil {
                guard existingTileSize(old.id) == old.size else {
                    throw InputError(file: dirLabel, "\(old.file) is missing or does not have the \(old.size) bytes "
                                     + "\(Manifest.fileName) records; delete the directory and unpack its packs again")
                }
                tiles.append(old)
                sources.append(.existing)
                i += 1
            } else if let new {
                let packTile = Manifest.Tile(id: new.tileID, size: Int(new.rawSize), crc32: new.rawCRC32)
                if let old, old.id == new.tileID {
                    guard old.size == packTile.size && old.crc32 == packTile.crc32 else {
                        throw InputError(file: reader.path, offset: Int(new.offset),
                                         "tile \(new.tileID) differs between \(dirLabel) and \(packName)")
                    }
                    alreadyPresent += 1
                    i += 1
                    // An identical tile whose file was damaged is rewritten from the pack.
                    if existingTileSize(old.id) == old.size {
                        tiles.append(old)
                        sources.append(.existing)
                        j += 1
                        continue
                    }
                    allPackTilesOnDisk = false
                } else {
                    added += 1
                    allPackTilesOnDisk = false
                }
                tiles.append(packTile)
                sources.append(.pack(j))
                j += 1
            }
        }

        let regions = (base?.regions ?? []).filter { !$0.sameRegion(as: region) } + [region]
        let manifest = Manifest(dataVersion: header.dataVersion, profileName: header.profileName,
                                profileHash: header.profileHash, gridDegrees: header.gridDegrees,
                                regions: regions, tiles: tiles)
        let isNoop = base != nil && base == manifest && allPackTilesOnDisk
        return UnpackPlan(manifest: manifest, sources: sources, replaced: replaced, tilesAdded: added,
                          tilesAlreadyPresent: alreadyPresent, isNoop: isNoop)
    }

    /// Why tiles of `header` cannot join a directory described by `manifest`, or nil if they can.
    static func incompatibility(_ manifest: Manifest, _ header: RoutingPackHeader, dirLabel: String) -> String? {
        if manifest.dataVersion != header.dataVersion {
            return "pack has data version \(header.dataVersion) but \(dirLabel) holds \(manifest.dataVersion)"
        }
        if manifest.profileHash != header.profileHash || manifest.profileName != header.profileName {
            return "pack was built with profile \(header.profileName) (\(header.profileHash)) but \(dirLabel) "
                + "holds tiles of profile \(manifest.profileName) (\(manifest.profileHash))"
        }
        if manifest.gridDegrees != header.gridDegrees {
            return "pack uses a \(header.gridDegrees)° grid but \(dirLabel) uses \(manifest.gridDegrees)°"
        }
        return nil
    }
}
