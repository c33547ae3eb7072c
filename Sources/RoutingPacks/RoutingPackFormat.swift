import OffgridCore
import PackContainer

/// A routing pack (`*.routing.pack`) in the shared pack container (docs/FORMATS.md), version 2:
/// the header is `RoutingPackHeader`, each entry is one routing tile keyed by its tile id as a
/// big-endian u32 (so byte order is numeric order), stored as a zlib stream.
public enum RoutingPackFormat {
    public static let magic: [UInt8] = Array("OGRPACK\0".utf8)
    public static let version: UInt32 = 2

    /// Caps that keep a hostile file from causing huge allocations.
    public static let maxHeaderLength = 64 << 20
    public static let maxRawTileSize = 256 << 20
    public static let maxTiles = 1 << 24

    public static let kind = PackKind(
        name: "routing pack", magic: "OGRPACK", version: version, compressed: true, hasSHA256: false,
        maxHeaderLength: maxHeaderLength, maxEntries: maxTiles, maxKeyLength: 4, maxEntryLength: maxRawTileSize,
        describeKey: { key in key.count == 4 ? "tile \(tileID(key))" : "tile key \(Array(key))" })

    /// The 4-byte key of a tile.
    public static func key(_ id: UInt32) -> [UInt8] {
        [UInt8(id >> 24), UInt8(truncatingIfNeeded: id >> 16), UInt8(truncatingIfNeeded: id >> 8), UInt8(truncatingIfNeeded: id)]
    }

    static func tileID(_ key: ArraySlice<UInt8>) -> UInt32 {
        key.reduce(0) { $0 << 8 | UInt32($1) }
    }
}

/// A lon/lat box in degrees, WGS84.
public typealias RoutingPackBBox = (minLon: Double, minLat: Double, maxLon: Double, maxLat: Double)

/// What a routing pack holds besides its tiles. Deliberately free of timestamps and host
/// details, so that the same inputs give byte-identical packs.
public struct RoutingPackHeader: Equatable, CustomStringConvertible {
    /// Version of the pack layout; the writer only writes `RoutingPackFormat.version`.
    public var formatVersion: UInt32
    /// `yyyy-MM-dd-N`, from the source PBF; tiles of packs with the same data version stitch.
    public var dataVersion: String
    public var profileName: String
    /// Hex digest of the routing profile the tiles were built with.
    public var profileHash: String
    /// Edge of the lon/lat grid the tile ids refer to.
    public var gridDegrees: Double
    public var regionBBox: RoutingPackBBox
    /// The region's geometry as compact GeoJSON text, or "" when the region is just the bbox.
    public var regionGeoJSON: String
    /// Tool name and version, e.g. "tilepack-build 0.1.0".
    public var createdBy: String

    public init(formatVersion: UInt32 = RoutingPackFormat.version, dataVersion: String, profileName: String,
                profileHash: String, gridDegrees: Double, regionBBox: RoutingPackBBox,
                regionGeoJSON: String = "", createdBy: String) {
        self.formatVersion = formatVersion
        self.dataVersion = dataVersion
        self.profileName = profileName
        self.profileHash = profileHash
        self.gridDegrees = gridDegrees
        self.regionBBox = regionBBox
        self.regionGeoJSON = regionGeoJSON
        self.createdBy = createdBy
    }

    public static func == (a: RoutingPackHeader, b: RoutingPackHeader) -> Bool {
        a.formatVersion == b.formatVersion && a.dataVersion == b.dataVersion
            && a.profileName == b.profileName && a.profileHash == b.profileHash
            && a.gridDegrees == b.gridDegrees && a.regionBBox == b.regionBBox
            && a.regionGeoJSON == b.regionGeoJSON && a.createdBy == b.createdBy
    }

    public var bboxArray: [Double] {
        [regionBBox.minLon, regionBBox.minLat, regionBBox.maxLon, regionBBox.maxLat]
    }

    public var description: String {
        "routing pack v\(formatVersion) \(dataVersion) profile \(profileName) (\(profileHash)) grid \(gridDegrees)°"
    }

    /// The header section bytes (without preamble): numbers first, then length-prefixed strings.
    func encoded() -> [UInt8] {
        var w = ByteWriter(capacity: 128 + regionGeoJSON.utf8.count)
        w.f64(gridDegrees)
        for v in bboxArray { w.f64(v) }
        w.string(dataVersion)
        w.string(profileName)
        w.string(profileHash)
        w.string(createdBy)
        w.string(regionGeoJSON)
        return w.bytes
    }

    /// Parses a header section; `formatVersion` comes from the preamble.
    /// Throws `BinaryFormatError` with offsets relative to the section start.
    static func decode(_ bytes: [UInt8], formatVersion: UInt32) throws -> RoutingPackHeader {
        var r = ByteReader(bytes)
        let grid = try r.f64()
        let bbox = (minLon: try r.f64(), minLat: try r.f64(), maxLon: try r.f64(), maxLat: try r.f64())
        let dataVersion = try r.string()
        let profileName = try r.string()
        let profileHash = try r.string()
        let createdBy = try r.string()
        let regionGeoJSON = try r.string()
        guard r.isAtEnd else {
            throw BinaryFormatError(offset: r.offset, "\(r.remaining) unexpected bytes after the header fields")
        }
        return RoutingPackHeader(formatVersion: formatVersion, dataVersion: dataVersion, profileName: profileName,
                                 profileHash: profileHash, gridDegrees: grid, regionBBox: bbox,
                                 regionGeoJSON: regionGeoJSON, createdBy: createdBy)
    }

    /// Problems that make the header unusable, or nil. Shared by writer (programming errors)
    /// and reader (corrupt or foreign files).
    func validationProblem() -> String? {
        if !Self.isDataVersion(dataVersion) {
            return "data version \"\(dataVersion)\" is not of the form yyyy-MM-dd-N"
        }
        if profileName.isEmpty { return "profile name is empty" }
        if profileHash.isEmpty || !profileHash.utf8.allSatisfy(Self.isHexDigit) {
            return "profile hash \"\(profileHash)\" is not hexadecimal"
        }
        if !(gridDegrees.isFinite && gridDegrees > 0 && gridDegrees <= 360) {
            return "grid size \(gridDegrees)° is not in (0, 360]"
        }
        let b = regionBBox
        let lonOK = b.minLon >= -180 && b.maxLon <= 180 && b.minLon <= b.maxLon
        let latOK = b.minLat >= -90 && b.maxLat <= 90 && b.minLat <= b.maxLat
        if !(lonOK && latOK) {
            return "region bbox \(bboxArray) is not a valid lon/lat box"
        }
        if !regionGeoJSON.isEmpty && GeoJSONText.object(regionGeoJSON) == nil {
            return "region geometry is not a GeoJSON object"
        }
        return nil
    }

    /// `yyyy-MM-dd-N` with N a decimal number.
    static func isDataVersion(_ s: String) -> Bool {
        let parts = s.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return false }
        let widths = [4, 2, 2]
        for (part, width) in zip(parts, widths) where part.count != width || !part.allSatisfy(\.isASCIIDigit) {
            return false
        }
        return !parts[3].isEmpty && parts[3].count <= 9 && parts[3].allSatisfy(\.isASCIIDigit)
    }

    private static func isHexDigit(_ c: UInt8) -> Bool {
        (c >= 48 && c <= 57) || (c >= 97 && c <= 102) || (c >= 65 && c <= 70)
    }
}

private extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}

/// One tile's index entry (the container's entry, typed).
public struct RoutingPackIndexEntry: Equatable {
    public var tileID: UInt32
    /// Absolute offset of the compressed bytes in the pack file.
    public var offset: UInt64
    public var compressedSize: UInt32
    public var rawSize: UInt32
    /// CRC32 of the decompressed tile bytes (what ends up in `<id>.tile`).
    public var rawCRC32: UInt32

    public init(tileID: UInt32, offset: UInt64, compressedSize: UInt32, rawSize: UInt32, rawCRC32: UInt32) {
        self.tileID = tileID
        self.offset = offset
        self.compressedSize = compressedSize
        self.rawSize = rawSize
        self.rawCRC32 = rawCRC32
    }
}
