import Foundation
import RoutingPacks
import RoutingTiles
import OffgridCore

/// The routing tiles of one or more unpacked directories, checked to belong together.
public struct TileSet {
    public var dataVersion: String
    public var profileName: String
    public var profileHash: String
    public var gridDegrees: Double
    /// Sorted by tile id; a tile found in several directories is taken once (it must be identical).
    public var tiles: [RoutingTile]
    public var tileBytes = 0

    /// Reads every tile of `directories`, verifying each against its manifest (size, CRC32), on
    /// `threads` workers.
    public static func load(_ directories: [String], threads: Int = Parallel.activeProcessorCount) throws -> TileSet {
        guard !directories.isEmpty else { throw InputError("no routing directory given") }
        var set: TileSet?
        var sources: [UInt32: (dir: String, crc: UInt32)] = [:]
        var found: [(id: UInt32, directory: UnpackedRoutingDirectory)] = []
        for dir in directories {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: dir, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw InputError(file: dir, "no such directory")
            }
            let unpacked = try UnpackedRoutingDirectory(path: dir)
            let m = unpacked.manifest
            guard !m.tiles.isEmpty else { throw InputError(file: dir, "holds no routing tiles") }
            if let s = set {
                guard m.dataVersion == s.dataVersion else {
                    throw InputError(file: dir, "data version \(m.dataVersion) differs from \(s.dataVersion) of \(directories[0])")
                }
                guard m.profileHash == s.profileHash else {
                    throw InputError(file: dir, "profile hash \(m.profileHash) differs from \(s.profileHash) of \(directories[0])")
                }
                guard m.gridDegrees == s.gridDegrees else {
                    throw InputError(file: dir, "grid \(m.gridDegrees)° differs from \(s.gridDegrees)° of \(directories[0])")
                }
            } else {
                set = TileSet(dataVersion: m.dataVersion, profileName: m.profileName, profileHash: m.profileHash,
                              gridDegrees: m.gridDegrees, tiles: [])
            }
            for entry in m.tiles {
                if let seen = sources[entry.id] {
                    guard seen.crc == entry.crc32 else {
                        throw InputError(file: dir, "tile \(entry.id) differs from the same tile in \(seen.dir)")
                    }
                    continue
                }
                sources[entry.id] = (dir, entry.crc32)
                found.append((entry.id, unpacked))
            }
        }
        guard var result = set else { throw InputError("no routing directory given") }
        found.sort { $0.id < $1.id }
        // Read, verified and decoded on all cores; an error is the one of the lowest tile id.
        let profileHash = result.profileHash, gridDegrees = result.gridDegrees
        let loaded = try Parallel.map(count: found.count, threads: threads) { i -> (RoutingTile, Int) in
            let (id, unpacked) = found[i]
            let path = unpacked.tilePath(id: id)
            let bytes = try unpacked.verifyTile(id: id)
            let tile: RoutingTile
            do { tile = try RoutingTileCodec.decode(bytes) } catch { throw InputError(file: path, "corrupt routing tile: \(error)") }
            // The data version is the manifest's (checked across directories above): tiles do not carry it.
            guard tile.tileId == id, tile.schemaHash == profileHash, tile.gridDegrees == gridDegrees else {
                throw InputError(file: path, "tile header (id \(tile.tileId), tag schema \(tile.schemaHash), grid \(tile.gridDegrees)°) "
                                 + "does not match its manifest")
            }
            return (tile, bytes.count)
        }
        result.tiles = loaded.map(\.0)
        result.tileBytes = loaded.reduce(0) { $0 + $1.1 }
        return result
    }
}
