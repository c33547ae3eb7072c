import OffgridCore
import PackContainer
import Foundation

/// A directory made by `tilepack-unpack`: `manifest.json` plus one `<id>.tile` file per tile
/// holding the tile's raw bytes. Readers trust nothing: every tile read is checked against the
/// size and CRC32 the manifest records.
public struct UnpackedRoutingDirectory {
    public let path: String
    public let manifest: Manifest

    /// Largest manifest read (about 10 million tiles); a bigger one is not ours.
    static let maxManifestBytes = 1 << 30

    public init(path: String) throws {
        self.path = path
        self.manifest = try Self.load(path)
    }

    /// Reads and validates `<dir>/manifest.json`.
    public static func load(_ dir: String) throws -> Manifest {
        let manifestPath = (dir as NSString).appendingPathComponent(Manifest.fileName)
        guard FileManager.default.fileExists(atPath: manifestPath) else {
            throw InputError(file: dir, "not an unpacked routing directory (no \(Manifest.fileName))")
        }
        let bytes = try FileTools.readFile(manifestPath, maxBytes: maxManifestBytes)
        return try Manifest.decode(bytes, path: manifestPath)
    }

    public func tilePath(id: UInt32) -> String {
        (path as NSString).appendingPathComponent(Manifest.Tile.fileName(for: id))
    }

    /// The bytes of tile `id` after checking them against the manifest's size and CRC32.
    public func verifyTile(id: UInt32) throws -> [UInt8] {
        guard let entry = manifest.tile(id: id) else {
            throw InputError(file: path, "tile \(id) is not in \(Manifest.fileName)")
        }
        let file = tilePath(id: id)
        let bytes = try FileTools.readFile(file, maxBytes: entry.size)
        guard bytes.count == entry.size else {
            throw InputError(file: file, "tile \(id) has \(bytes.count) bytes, \(Manifest.fileName) says \(entry.size)")
        }
        let crc = CRC32.checksum(bytes)
        guard crc == entry.crc32 else {
            throw InputError(file: file, "tile \(id) fails its CRC32 check (manifest says \(hex32(entry.crc32)), file gives \(hex32(crc)))")
        }
        return bytes
    }
}
