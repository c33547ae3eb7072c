import OffgridCore

/// Byte layout of a routing pack (`*.routing.pack`), version 1. docs/FORMATS.md is the spec;
/// these constants are its single source in code.
///
/// ```
/// 0      64        preamble (fixed size, own CRC32)
/// 64     H         header section (RoutingPackHeader fields)
/// ..     0-7       zero padding to a multiple of 8
/// I      28 × N    index entries, ascending tile id
/// D      ...       compressed tiles, in index order, contiguous, to the end of the file
/// ```
public enum RoutingPackFormat {
    public static let magic: [UInt8] = Array("OGRPACK\0".utf8)
    public static let version: UInt32 = 1

    public static let preambleSize = 64
    public static let indexEntrySize = 28

    // Preamble field offsets.
    static let versionOffset = 8
    static let flagsOffset = 12
    static let fileSizeOffset = 16
    static let headerLengthOffset = 24
    static let headerCRCOffset = 28
    static let tileCountOffset = 32
    static let indexCRCOffset = 36
    static let indexOffsetOffset = 40
    static let dataOffsetOffset = 48
    static let reservedOffset = 56
    static let preambleCRCOffset = 60

    /// Caps that keep a hostile file from causing huge allocations.
    public static let maxHeaderLength = 64 << 20
    public static let maxRawTileSize = 256 << 20
    /// Deflate cannot expand data more than 1032:1; anything claiming more is corrupt.
    static let maxCompressionRatio = 1032
    /// The smallest possible zlib stream (2-byte header, empty block, Adler-32).
    static let minCompressedTileSize = 8
    /// zlib level used for every tile; fixed so that the same tiles give the same pack bytes.
    public static let compressionLevel: Int32 = 9

    /// Where the index starts for a header section of `headerLength` bytes.
    static func indexOffset(headerLength: Int) -> Int {
        let end = preambleSize + headerLength
        return (end + 7) / 8 * 8
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

/// One tile's index entry: 28 bytes on disk.
public struct RoutingPackIndexEntry: Equatable {
    public var tileID: UInt32
    /// Absolute offset of the compressed bytes in the pack file.
    public var offset: UInt64
    public var compressedSize: UInt32
    public var rawSize: UInt32
    /// CRC32 of the decompressed tile bytes (what ends up in `<id>.tile`).
    public var rawCRC32: UInt32
    /// CRC32 of the compressed bytes as stored in the pack.
    public var compressedCRC32: UInt32

    public init(tileID: UInt32, offset: UInt64, compressedSize: UInt32, rawSize: UInt32,
                rawCRC32: UInt32, compressedCRC32: UInt32) {
        self.tileID = tileID
        self.offset = offset
        self.compressedSize = compressedSize
        self.rawSize = rawSize
        self.rawCRC32 = rawCRC32
        self.compressedCRC32 = compressedCRC32
    }

    func encode(into w: inout ByteWriter) {
        w.u32(tileID)
        w.u64(offset)
        w.u32(compressedSize)
        w.u32(rawSize)
        w.u32(rawCRC32)
        w.u32(compressedCRC32)
    }

    static func decode(_ r: inout ByteReader) throws -> RoutingPackIndexEntry {
        RoutingPackIndexEntry(tileID: try r.u32(), offset: try r.u64(), compressedSize: try r.u32(),
                              rawSize: try r.u32(), rawCRC32: try r.u32(), compressedCRC32: try r.u32())
    }
}
