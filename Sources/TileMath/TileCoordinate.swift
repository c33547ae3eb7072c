/// A web-mercator XYZ tile: zoom, column (eastwards from −180°) and row (southwards from the
/// north edge). MBTiles' TMS rows are flipped into this scheme when read.
///
/// Ordered by zoom, then x, then y: the order of map-pack indexes.
public struct TileCoordinate: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var z: Int
    public var x: Int
    public var y: Int

    public init(z: Int, x: Int, y: Int) {
        self.z = z
        self.x = x
        self.y = y
    }

    /// Whether x and y lie in 0 ..< 2^z and z in 0...30.
    public var isValid: Bool {
        z >= 0 && z <= 30 && x >= 0 && y >= 0 && x < (1 << z) && y < (1 << z)
    }

    public static func < (a: TileCoordinate, b: TileCoordinate) -> Bool {
        (a.z, a.x, a.y) < (b.z, b.x, b.y)
    }

    /// The ancestor at `zoom` (≤ z).
    public func ancestor(atZoom zoom: Int) -> TileCoordinate {
        let k = z - zoom
        return TileCoordinate(z: zoom, x: x >> k, y: y >> k)
    }

    /// The columns (and rows) of this tile's descendants at `zoom` (≥ z).
    public func descendantColumns(atZoom zoom: Int) -> ClosedRange<Int> {
        let k = zoom - z
        return (x << k)...(((x + 1) << k) - 1)
    }

    public func descendantRows(atZoom zoom: Int) -> ClosedRange<Int> {
        let k = zoom - z
        return (y << k)...(((y + 1) << k) - 1)
    }

    /// "z/x/y".
    public var description: String { "\(z)/\(x)/\(y)" }
}

/// What the tiles are, with PMTiles v3's codes (map packs store the same codes).
public enum TileType: UInt8, Sendable, CaseIterable {
    case unknown = 0, mvt = 1, png = 2, jpeg = 3, webp = 4, avif = 5, mlt = 6

    /// Lowercase name as written in manifests: "mvt", "png", …
    public var name: String {
        switch self {
        case .unknown: return "unknown"
        case .mvt: return "mvt"
        case .png: return "png"
        case .jpeg: return "jpeg"
        case .webp: return "webp"
        case .avif: return "avif"
        case .mlt: return "mlt"
        }
    }

    /// From MBTiles' `format` metadata value (`pbf` is MVT).
    public init?(mbtilesFormat: String) {
        switch mbtilesFormat.lowercased() {
        case "pbf", "mvt": self = .mvt
        case "png": self = .png
        case "jpg", "jpeg": self = .jpeg
        case "webp": self = .webp
        case "avif": self = .avif
        case "mlt": self = .mlt
        default: return nil
        }
    }
}

/// How each tile's bytes are compressed, with PMTiles v3's codes. Tiles are copied as they are;
/// the code only tells readers what they get.
public enum TileCompression: UInt8, Sendable, CaseIterable {
    case unknown = 0, none = 1, gzip = 2, brotli = 3, zstd = 4

    public var name: String {
        switch self {
        case .unknown: return "unknown"
        case .none: return "none"
        case .gzip: return "gzip"
        case .brotli: return "brotli"
        case .zstd: return "zstd"
        }
    }

    public init?(name: String) {
        switch name.lowercased() {
        case "none", "identity", "": self = .none
        case "gzip": self = .gzip
        case "br", "brotli": self = .brotli
        case "zstd": self = .zstd
        default: return nil
        }
    }
}
