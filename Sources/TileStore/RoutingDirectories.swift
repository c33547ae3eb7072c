import Foundation
import OffgridCore
import RoutingPacks
#if canImport(Glibc)
import Glibc
#endif

/// A loaded region's routing tiles as an unpacked routing directory (`routing-dirs/<region>/`:
/// `<id>.tile` files hard-linked to the stored tiles, and the `manifest.json` `tilepack-unpack`
/// writes), so `route-graph` compiles it as is. Derived from the index: rebuilt after every load
/// or update of the region (built beside it, then renamed into place), removed with the region.
extension TileStore {
    func routingDirectoryRelative(_ id: String) -> String { "\(StoreLayout.routingDirectories)/\(id)" }

    /// Region ids become directory names: refuse those that cannot.
    public static func isDirectorySafeRegionId(_ id: String) -> Bool {
        let u = id.utf8
        guard !u.isEmpty, u.count <= 128, id != ".", id != "..", !id.hasPrefix(".") else { return false }
        return u.allSatisfy { ($0 >= 48 && $0 <= 57) || ($0 >= 65 && $0 <= 90) || ($0 >= 97 && $0 <= 122) || $0 == 46 || $0 == 95 || $0 == 45 }
    }

    /// Writes the region's routing directory; returns its absolute path.
    func writeRoutingDirectory(regionId id: String, routing: LoadedRegion.Routing) throws -> String {
        let target = files.absolute(routingDirectoryRelative(id))
        let staging = target + ".partial-\(getpid())"
        FileTools.removeTree(staging)
        try FileTools.makeDirectory(staging)
        do {
            var tiles: [UnpackedRoutingDirectory.Manifest.Tile] = []
            for t in routing.tiles.sorted(by: { $0.id < $1.id }) {
                let stored = files.absolute(StoreLayout.relativePath(kind: .routingTile, sha256: t.sha256))
                let name = (staging as NSString).appendingPathComponent(UnpackedRoutingDirectory.Manifest.Tile.fileName(for: t.id))
                try FileTools.linkOrCopy(stored, to: name, maxBytes: Int(t.bytes))
                let bytes = try FileTools.readFile(name, maxBytes: Int(t.bytes))
                tiles.append(.init(id: t.id, size: bytes.count, crc32: CRC32.checksum(bytes)))
            }
            let manifest = UnpackedRoutingDirectory.Manifest(
                dataVersion: routing.dataVersion, profileName: routing.profile, profileHash: routing.profileHash,
                gridDegrees: routing.gridDegrees,
                regions: [.init(pack: id, bbox: routing.bbox, geometry: nil, tiles: tiles.count)], tiles: tiles)
            try FileTools.writeNewFile((staging as NSString).appendingPathComponent(UnpackedRoutingDirectory.Manifest.fileName),
                                       manifest.encoded())
            FileSync.syncDirectory(staging)
            let old = target + ".old-\(getpid())"
            if FileTools.kind(target) == .directory {
                guard rename(target, old) == 0 else { throw InputError(file: target, "cannot move aside: \(FileTools.reason())") }
            }
            guard rename(staging, target) == 0 else { throw InputError(file: target, "cannot rename into place: \(FileTools.reason())") }
            FileTools.removeTree(old)
            FileSync.syncDirectory(files.absolute(StoreLayout.routingDirectories))
        } catch {
            FileTools.removeTree(staging)
            throw error
        }
        return target
    }

    /// After `remove`: the region's routing directory goes too.
    func removeRoutingDirectory(regionId id: String) {
        guard Self.isDirectorySafeRegionId(id) else { return }
        FileTools.removeTree(files.absolute(routingDirectoryRelative(id)))
    }
}
