import Foundation
import MapPacks
import OffgridCore

/// `region.json` of a region directory (the output of `tilepack-build maps` / `predict`): what the
/// store needs to install the region. Unknown keys are ignored.
public struct RegionManifest {
    public struct Pack {
        /// `packs/<band>/<z>-<x>-<y>.pack`, relative to the region directory.
        public var path: String
        public var band: String
        public var parent: [Int]
        public var tiles: Int
        public var bytes: Int64
        /// Lowercase hex SHA-256 of the pack file.
        public var sha256: String
    }

    public var file: String
    public var id: String
    /// GeoJSON (the manifest's `geometry`), or null.
    public var geometry: JSONValue
    /// minLon, minLat, maxLon, maxLat.
    public var bbox: [Double]?
    /// The tileset descriptor (name, tile type, zooms, bands, pixel ratio, style URI…).
    public var tileset: [String: JSONValue]
    public var tilesetName: String?
    public var metadata: JSONValue
    public var expires: String?
    public var expiresAt: Int64?
    public var packs: [Pack]
    /// `limits.maxPacks` / `limits.maxTiles` (or top-level `maxPacks` / `maxTiles`) when given.
    public var maxPacks: Int?
    public var maxTiles: Int?

    public static let fileName = "region.json"

    /// Reads `DIR/region.json`.
    public init(directory: String) throws {
        let file = (directory as NSString).appendingPathComponent(Self.fileName)
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDir), isDir.boolValue else {
            throw InputError(file: directory, "not a directory (give the region directory written by tilepack-build maps)")
        }
        guard FileManager.default.isReadableFile(atPath: file) else {
            throw InputError(file: file, "cannot read the region manifest (is \(directory) the output of tilepack-build maps?)")
        }
        // Exact numbers: coordinates keep every digit between the manifest and the store.
        guard let object = try JSONReader.parse(file: file, maxBytes: 64 << 20).objectValue else {
            throw InputError(file: file, "not a JSON object")
        }
        try self.init(object: object, file: file)
    }

    public init(object: [String: JSONValue], file: String) throws {
        self.file = file
        func fail(_ message: String) -> InputError { InputError(file: file, message) }
        if let format = object["format"]?.stringValue, format != MapPackBuilder.manifestFormat {
            throw fail("format \"\(format)\" is not \"\(MapPackBuilder.manifestFormat)\"")
        }
        if let version = object["version"]?.intValue, version != 1 {
            throw fail("unsupported region manifest version \(version) (this tool reads 1)")
        }
        guard let id = object["id"]?.stringValue, !id.isEmpty else { throw fail("no region \"id\"") }
        self.id = id
        geometry = object["geometry"] ?? .null
        if let b = object["bbox"]?.arrayValue {
            let numbers = b.compactMap(\.doubleValue)
            guard numbers.count == 4 else { throw fail("bbox must be 4 numbers") }
            bbox = numbers
        }
        tileset = object["tileset"]?.objectValue ?? [:]
        tilesetName = tileset["name"]?.stringValue
        metadata = object["metadata"] ?? .null
        (expires, expiresAt) = try Expiry.fromJSON(object["expires"], file: file, key: "expires")
        let limits = object["limits"]?.objectValue ?? [:]
        maxPacks = (limits["maxPacks"] ?? object["maxPacks"])?.intValue
        maxTiles = (limits["maxTiles"] ?? object["maxTiles"])?.intValue
        guard let list = object["packs"]?.arrayValue else { throw fail("no \"packs\" array") }
        var packs: [Pack] = []
        var seen: Set<String> = []
        for (i, item) in list.enumerated() {
            guard let p = item.objectValue else { throw fail("packs[\(i)] is not an object") }
            guard let path = p["path"]?.stringValue, Self.isPackPath(path) else {
                throw fail("packs[\(i)]: path \(p["path"].map { JSONWriter.string($0, pretty: false) } ?? "missing") is not packs/<band>/<z>-<x>-<y>.pack")
            }
            guard seen.insert(path).inserted else { throw fail("packs[\(i)]: \(path) is listed twice") }
            guard let sha = p["sha256"]?.stringValue?.lowercased(), StoreLayout.isSHA256(sha) else {
                throw fail("packs[\(i)] (\(path)): sha256 is not 64 hex digits")
            }
            guard let bytes = p["bytes"]?.intValue.map(Int64.init), bytes >= 0 else {
                throw fail("packs[\(i)] (\(path)): bytes is missing")
            }
            let parent = p["parent"]?.arrayValue?.compactMap(\.intValue) ?? []
            packs.append(Pack(path: path, band: p["band"]?.stringValue ?? "", parent: parent,
                              tiles: p["tiles"]?.intValue ?? 0, bytes: bytes, sha256: sha))
        }
        self.packs = packs
    }

    /// `packs/<a>-<b>/<z>-<x>-<y>.pack` with decimal numbers.
    static func isPackPath(_ path: String) -> Bool {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "packs", parts[2].hasSuffix(".pack") else { return false }
        func numbers(_ s: Substring, _ count: Int) -> Bool {
            let n = s.split(separator: "-", omittingEmptySubsequences: false)
            return n.count == count && n.allSatisfy { !$0.isEmpty && $0.count <= 10 && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }
        }
        return numbers(parts[1], 2) && numbers(parts[2].dropLast(5), 3)
    }
}
