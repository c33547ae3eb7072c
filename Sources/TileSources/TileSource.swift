import Foundation
import OffgridCore
import TileMath

/// What a tileset says about itself (MBTiles `metadata` table, PMTiles header and metadata).
public struct TileSourceInfo {
    public enum Container: String, Sendable {
        case mbtiles, pmtiles
    }

    public var container: Container
    /// The tileset's `name` metadata; "" when it has none. Map packs record it as the tileset id.
    public var name: String
    public var tileType: TileType
    public var tileCompression: TileCompression
    public var minZoom: Int
    public var maxZoom: Int
    /// minLon, minLat, maxLon, maxLat when the tileset says.
    public var bounds: [Double]?
    /// The metadata as JSON values (MBTiles values are strings, except `json` which is parsed
    /// and merged in as MBTiles 1.3 describes; PMTiles metadata is JSON already).
    public var metadata: [String: JSONValue]
    /// The tileset's own expiry (`expires` metadata) when it has one, as given.
    public var expires: String?

    public init(container: Container, name: String, tileType: TileType, tileCompression: TileCompression,
                minZoom: Int, maxZoom: Int, bounds: [Double]?, metadata: [String: JSONValue], expires: String?) {
        self.container = container
        self.name = name
        self.tileType = tileType
        self.tileCompression = tileCompression
        self.minZoom = minZoom
        self.maxZoom = maxZoom
        self.bounds = bounds
        self.metadata = metadata
        self.expires = expires
    }
}

/// One tile of a source's index: where it is and how many bytes it has.
public struct TileIndexEntry: Hashable, Sendable {
    public var coordinate: TileCoordinate
    public var length: Int
    /// PMTiles: offset in the tile data section (tiles sharing bytes share it); MBTiles: 0.
    public var offset: UInt64

    public init(coordinate: TileCoordinate, length: Int, offset: UInt64 = 0) {
        self.coordinate = coordinate
        self.length = length
        self.offset = offset
    }
}

/// A tileset on disk. Queries are by subtree — the descendants of one tile at one zoom — which
/// is what map packs need and what both containers answer with one range lookup (an index range
/// scan in MBTiles, one Hilbert id range in PMTiles).
///
/// Not thread-safe: use one source from one thread (open another for another thread).
public protocol TileSource: AnyObject {
    var path: String { get }
    var info: TileSourceInfo { get }

    /// The tiles of the source among `parent`'s descendants at `zoom` (≥ parent.z),
    /// sorted by coordinate. Reads the index only, never tile bytes.
    func index(under parent: TileCoordinate, atZoom zoom: Int) throws -> [TileIndexEntry]

    /// Calls `body` with every tile among `parent`'s descendants at `zoom` and its bytes exactly
    /// as stored (the buffer is valid during the call only), in an order of the source's
    /// choosing.
    func read(under parent: TileCoordinate, atZoom zoom: Int,
              _ body: (TileCoordinate, UnsafeRawBufferPointer) throws -> Void) throws

    /// One tile's bytes, or nil when the source does not have it.
    func tile(_ coordinate: TileCoordinate) throws -> [UInt8]?

    /// A hint before planning: `index(under:atZoom:)` is about to be asked about `parents`
    /// subtrees at each of `zooms`. A source may read those zooms' whole index now when that
    /// costs less than the queries (MBTiles does; PMTiles' directory lookups are cheap already).
    func prepareIndex(parents: Int, zooms: ClosedRange<Int>) throws
}

extension TileSource {
    public func prepareIndex(parents: Int, zooms: ClosedRange<Int>) throws {}
}

extension TileSource {
    /// Every tile of the source, sorted (tests and small sources).
    public func allTiles() throws -> [TileIndexEntry] {
        var result: [TileIndexEntry] = []
        for z in info.minZoom...info.maxZoom {
            result += try index(under: TileCoordinate(z: 0, x: 0, y: 0), atZoom: z)
        }
        return result
    }
}

/// Opens MBTiles and PMTiles files, telling them apart by their first bytes (not their names).
public enum TileSources {
    public static func open(path: String) throws -> TileSource {
        let head = try FileBytes.prefix(of: path, count: 16)
        if head.isEmpty { throw InputError(file: path, "empty file: not an MBTiles or PMTiles tileset") }
        if head.starts(with: Array("PMTiles".utf8)) { return try PMTilesSource(path: path) }
        if head.starts(with: Array("SQLite format 3\0".utf8)) { return try MBTilesSource(path: path) }
        throw InputError(file: path, "not an MBTiles or PMTiles tileset" + FileBytes.looksLike(head))
    }
}

/// Small POSIX file helpers with errors that name the file.
enum FileBytes {
    static func reason() -> String { String(cString: strerror(errno)) }

    static func prefix(of path: String, count: Int) throws -> [UInt8] {
        let fd = Foundation.open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw InputError(file: path, "cannot open: \(reason())") }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw InputError(file: path, "cannot stat: \(reason())") }
        guard st.st_mode & S_IFMT == S_IFREG else { throw InputError(file: path, "not a regular file") }
        var buf = [UInt8](repeating: 0, count: count)
        let n = buf.withUnsafeMutableBytes { pread(fd, $0.baseAddress, count, 0) }
        guard n >= 0 else { throw InputError(file: path, "cannot read: \(reason())") }
        return Array(buf.prefix(n))
    }

    /// " (it looks like …)" for well-known magics, else "".
    static func looksLike(_ head: [UInt8]) -> String {
        if head.starts(with: [0x1f, 0x8b]) { return " (it looks like gzip data)" }
        if head.starts(with: [0x89, 0x50, 0x4e, 0x47]) { return " (it looks like a PNG image)" }
        if head.starts(with: [0xff, 0xd8, 0xff]) { return " (it looks like a JPEG image)" }
        if head.starts(with: Array("OGRPACK".utf8)) { return " (it is a routing pack)" }
        if head.starts(with: Array("OGMPACK".utf8)) { return " (it is a map pack)" }
        if head.count >= 8, head[4...].starts(with: [0x0a, 0x09] + Array("OSMH".utf8)) {
            return " (it looks like an OSM PBF file)"
        }
        if let first = head.first(where: { $0 != 0x20 && $0 != 0x0a && $0 != 0x0d && $0 != 0x09 }), first == UInt8(ascii: "{") {
            return " (it looks like JSON)"
        }
        return ""
    }
}
