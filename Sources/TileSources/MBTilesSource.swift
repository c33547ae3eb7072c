import CSQLite
import Foundation
import OffgridCore
import TileMath

/// An MBTiles 1.3 tileset (SQLite): the `metadata` table (format, bounds, minzoom/maxzoom, name,
/// json) and the `tiles` table or view with TMS rows, flipped to XYZ here. Opened read-only.
///
/// The tile type comes from `format`; the tile compression from a `compression` metadata value
/// when there is one, else gzip for vector tiles whose bytes start with the gzip magic and none
/// otherwise (MBTiles has no standard field for it). SQLite errors (a corrupt or truncated
/// database) become `InputError`s naming the file.
public final class MBTilesSource: TileSource {
    public let path: String
    public private(set) var info: TileSourceInfo

    private var db: OpaquePointer?
    private var indexStatement: OpaquePointer?
    private var readStatement: OpaquePointer?
    private var tileStatement: OpaquePointer?
    private var columnIndexStatement: OpaquePointer?
    private var zoomScanStatement: OpaquePointer?
    private var zoomCountStatement: OpaquePointer?
    /// Statements prepared on first use (`statement(_:)`), by SQL text.
    private var lazyStatements: [String: OpaquePointer] = [:]

    /// Zooms whose whole index is in memory (loaded lazily, per zoom, so a source's other zooms
    /// cost nothing), and per zoom the work SQL range queries have done so far.
    var zoomIndexes: [Int: MBTilesZoomIndex] = [:]
    private var sqlWork = [Int](repeating: 0, count: 31)
    private var sqlWorkAtLastCheck = [Int](repeating: 0, count: 31)
    /// The `tiles` table's root page when it is a rowid table of exactly the four MBTiles
    /// columns, which `SQLiteTileRows` can read from the file's pages; nil for a view.
    private(set) var tilesRootPage: Int?

    /// When to scan a zoom instead of querying it (ski rental): once the SQL queries' work
    /// (a query costs about as much as reading 6 index rows, measured) reaches a quarter of
    /// the zoom's tile count. A small region never gets there (32 packs of a 340k-tile source:
    /// about 1k units), a large region's plan gets there early and then costs one scan; the
    /// work done before the switch is at most 4× a scan, the scan at most 4× the SQL work.
    static let queryCost = 6
    static let scanFraction = 4
    /// Zooms of more tiles than this stay on SQL queries (12 bytes a tile in memory: 384 MiB).
    static let maxTilesInMemory = 32 << 20

    public init(path: String) throws {
        self.path = path
        info = TileSourceInfo(container: .mbtiles, name: "", tileType: .unknown, tileCompression: .unknown,
                              minZoom: 0, maxZoom: 0, bounds: nil, metadata: [:], expires: nil)
        let head = try FileBytes.prefix(of: path, count: 16)
        guard head.starts(with: Array("SQLite format 3\0".utf8)) else {
            throw InputError(file: path, "not an MBTiles tileset (not an SQLite database)" + FileBytes.looksLike(head))
        }
        let rc = sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nil)
        guard rc == SQLITE_OK else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "error \(rc)"
            sqlite3_close(db)
            db = nil
            throw InputError(file: path, "cannot open the SQLite database: \(message)")
        }
        sqlite3_exec(db, "PRAGMA cache_size = -65536", nil, nil, nil)   // 64 MiB of pages
        // Pages read through a mapping instead of copied by pread: tile rows each fill a leaf
        // page, so an estimate or a build touches most of the file (US z0-12 estimate 0.50 ->
        // 0.39 s, map packs from 1.4 GB ~2.8 -> ~2.1 s). SQLite caps the mapping at its
        // compile-time limit (2 GB on Debian) and reads the rest as before.
        sqlite3_exec(db, "PRAGMA mmap_size = 1099511627776", nil, nil, nil)
        do {
            try load()
        } catch {
            finalizeAll()
            throw error
        }
    }

    deinit { finalizeAll() }

    private func finalizeAll() {
        for s in [indexStatement, readStatement, tileStatement, columnIndexStatement, zoomScanStatement, zoomCountStatement]
            + lazyStatements.values.map(Optional.some) where s != nil { sqlite3_finalize(s) }
        lazyStatements = [:]
        columnIndexStatement = nil
        zoomScanStatement = nil
        zoomCountStatement = nil
        indexStatement = nil
        readStatement = nil
        tileStatement = nil
        if db != nil { sqlite3_close(db) }
        db = nil
    }

    private func fail(_ what: String) -> InputError {
        let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "unknown error"
        return InputError(file: path, "\(what): \(message)")
    }

    /// Runs SQL that returns no rows (transaction control).
    func execute(_ sql: String) throws {
        guard sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK else { throw fail("cannot run \(sql)") }
    }

    /// A statement prepared once and kept (reset by its users).
    func statement(_ sql: String) throws -> OpaquePointer? {
        if let s = lazyStatements[sql] { return s }
        let s = try prepare(sql, "not an MBTiles tileset (no usable tiles table)")
        lazyStatements[sql] = s
        return s
    }

    private func prepare(_ sql: String, _ what: String) throws -> OpaquePointer? {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK else {
            throw fail(what)
        }
        return statement
    }

    /// Steps a statement; returns false at the end, throws on errors. `what` is only built for
    /// an error (steps run once per row: no string per row).
    func step(_ statement: OpaquePointer?, _ what: @autoclosure () -> String) throws -> Bool {
        let rc = sqlite3_step(statement)
        if rc == SQLITE_ROW { return true }
        if rc == SQLITE_DONE { return false }
        throw fail("corrupt or unreadable MBTiles (\(what()))")
    }

    private func load() throws {
        // Metadata.
        guard let meta = try? prepare("SELECT name, value FROM metadata", "metadata") else {
            throw InputError(file: path, "not an MBTiles tileset: \(db.map { String(cString: sqlite3_errmsg($0)) } ?? "no metadata table")")
        }
        defer { sqlite3_finalize(meta) }
        var values: [String: String] = [:]
        while try step(meta, "metadata") {
            guard let n = sqlite3_column_text(meta, 0) else { continue }
            let key = String(cString: n)
            let value = sqlite3_column_text(meta, 1).map { String(cString: $0) } ?? ""
            values[key] = value
        }
        indexStatement = try prepare("""
            SELECT tile_column, tile_row, length(tile_data) FROM tiles
            WHERE zoom_level = ?1 AND tile_column BETWEEN ?2 AND ?3 AND tile_row BETWEEN ?4 AND ?5
            """, "not an MBTiles tileset (no usable tiles table)")
        readStatement = try prepare("""
            SELECT tile_column, tile_row, tile_data FROM tiles
            WHERE zoom_level = ?1 AND tile_column BETWEEN ?2 AND ?3 AND tile_row BETWEEN ?4 AND ?5
            """, "not an MBTiles tileset (no usable tiles table)")
        columnIndexStatement = try prepare("""
            SELECT tile_row, length(tile_data) FROM tiles
            WHERE zoom_level = ?1 AND tile_column = ?2 AND tile_row BETWEEN ?3 AND ?4
            """, "not an MBTiles tileset (no usable tiles table)")
        zoomScanStatement = try prepare("SELECT tile_column, tile_row, length(tile_data) FROM tiles WHERE zoom_level = ?1",
                                        "not an MBTiles tileset (no usable tiles table)")
        zoomCountStatement = try prepare("SELECT count(*) FROM (SELECT 1 FROM tiles WHERE zoom_level = ?1 LIMIT ?2)",
                                         "not an MBTiles tileset (no usable tiles table)")
        tileStatement = try prepare("SELECT tile_data FROM tiles WHERE zoom_level = ?1 AND tile_column = ?2 AND tile_row = ?3",
                                    "not an MBTiles tileset (no usable tiles table)")
        tilesRootPage = try plainTilesTableRoot()

        // The metadata as JSON: plain values are strings; `json` is parsed and merged (MBTiles 1.3).
        var metadata: [String: JSONValue] = [:]
        for (k, v) in values where k != "json" { metadata[k] = .string(v) }
        if let json = values["json"] {
            guard let object = (try? JSONReader.parse(json))?.objectValue else {
                throw InputError(file: path, "the metadata value \"json\" is not a JSON object")
            }
            for (k, v) in object { metadata[k] = v }
        }

        // Zoom range: metadata, else the table.
        var minZoom = values["minzoom"].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        var maxZoom = values["maxzoom"].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        if minZoom == nil || maxZoom == nil {
            let s = try prepare("SELECT min(zoom_level), max(zoom_level) FROM tiles", "zoom range")
            defer { sqlite3_finalize(s) }
            if try step(s, "zoom range"), sqlite3_column_type(s, 0) != SQLITE_NULL {
                minZoom = minZoom ?? Int(sqlite3_column_int64(s, 0))
                maxZoom = maxZoom ?? Int(sqlite3_column_int64(s, 1))
            }
        }
        let lo = minZoom ?? 0, hi = maxZoom ?? 0
        guard lo >= 0, lo <= hi, hi <= 30 else {
            throw InputError(file: path, "bad zoom range \(lo)-\(hi) in the metadata (zooms 0-30, minzoom ≤ maxzoom)")
        }

        // Tile type and compression.
        let first = try firstTileBytes()
        var tileType: TileType = .unknown
        if let format = values["format"] {
            tileType = TileType(mbtilesFormat: format) ?? .unknown
        } else if let first {
            tileType = MBTilesSource.sniffType(first)
        }
        var compression: TileCompression
        if let c = values["compression"] {
            guard let known = TileCompression(name: c) else {
                throw InputError(file: path, "unsupported tile compression \"\(c)\" in the metadata")
            }
            compression = known
        } else if tileType == .mvt || tileType == .mlt || tileType == .unknown {
            compression = (first?.starts(with: [0x1f, 0x8b]) ?? (tileType == .mvt)) ? .gzip : .none
        } else {
            compression = .none
        }

        var bounds: [Double]?
        if let b = values["bounds"] {
            let parts = b.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
            if parts.count == 4 { bounds = parts }
        }
        info = TileSourceInfo(container: .mbtiles, name: values["name"] ?? "", tileType: tileType,
                              tileCompression: compression, minZoom: lo, maxZoom: hi, bounds: bounds,
                              metadata: metadata, expires: values["expires"])
    }

    private func plainTilesTableRoot() throws -> Int? {
        let table = try prepare("SELECT rootpage FROM sqlite_schema WHERE type = 'table' AND name = 'tiles'",
                                "corrupt or unreadable MBTiles (the schema)")
        defer { sqlite3_finalize(table) }
        guard try step(table, "the schema") else { return nil }
        let root = Int(sqlite3_column_int64(table, 0))
        let columns = try prepare("SELECT name FROM pragma_table_xinfo('tiles')", "corrupt or unreadable MBTiles (the tiles table's columns)")
        defer { sqlite3_finalize(columns) }
        var names: [String] = []
        while try step(columns, "the tiles table's columns") {
            names.append(sqlite3_column_text(columns, 0).map { String(cString: $0) } ?? "")
        }
        return names == ["zoom_level", "tile_column", "tile_row", "tile_data"] ? root : nil
    }

    private func firstTileBytes() throws -> [UInt8]? {
        let s = try prepare("SELECT tile_data FROM tiles ORDER BY zoom_level LIMIT 1", "first tile")
        defer { sqlite3_finalize(s) }
        guard try step(s, "first tile") else { return nil }
        let n = Int(sqlite3_column_bytes(s, 0))
        guard n > 0, let p = sqlite3_column_blob(s, 0) else { return [] }
        return Array(UnsafeRawBufferPointer(start: p, count: min(n, 16)))
    }

    static func sniffType(_ bytes: [UInt8]) -> TileType {
        if bytes.starts(with: [0x89, 0x50, 0x4e, 0x47]) { return .png }
        if bytes.starts(with: [0xff, 0xd8, 0xff]) { return .jpeg }
        if bytes.count >= 12, bytes.starts(with: Array("RIFF".utf8)), bytes[8..<12].elementsEqual(Array("WEBP".utf8)) { return .webp }
        if bytes.starts(with: [0x1f, 0x8b]) { return .mvt }
        return .unknown
    }

    // MARK: - Queries

    /// Binds zoom and the subtree's column and (TMS) row ranges.
    private func bind(_ s: OpaquePointer?, parent: TileCoordinate, zoom: Int) {
        sqlite3_reset(s)
        let xs = parent.descendantColumns(atZoom: zoom), ys = parent.descendantRows(atZoom: zoom)
        let flip = (1 << zoom) - 1
        sqlite3_bind_int64(s, 1, Int64(zoom))
        sqlite3_bind_int64(s, 2, Int64(xs.lowerBound))
        sqlite3_bind_int64(s, 3, Int64(xs.upperBound))
        sqlite3_bind_int64(s, 4, Int64(flip - ys.upperBound))
        sqlite3_bind_int64(s, 5, Int64(flip - ys.lowerBound))
    }

    public func index(under parent: TileCoordinate, atZoom zoom: Int) throws -> [TileIndexEntry] {
        guard parent.isValid, zoom >= parent.z, zoom <= 30 else { return [] }
        if let loaded = zoomIndexes[zoom] { return loaded.entries(under: parent) }
        if try worthScanning(zoom) {
            let loaded = try scanZoomIndex(zoom)
            zoomIndexes[zoom] = loaded
            return loaded.entries(under: parent)
        }
        let result = try sqlIndex(under: parent, atZoom: zoom)
        sqlWork[zoom] += MBTilesSource.queryCost + result.count
        return result
    }

    /// The zooms answered from memory so far (tests).
    var scannedZooms: [Int] { zoomIndexes.keys.sorted() }

    /// Whether the zoom has fewer tiles than `scanFraction` × the SQL work so far (and fits the
    /// memory cap). Counted with a limit, and only when the work has doubled since the last
    /// count, so that counting costs no more than the queries themselves.
    private func worthScanning(_ zoom: Int) throws -> Bool {
        let work = sqlWork[zoom]
        guard work >= 64, work >= 2 * sqlWorkAtLastCheck[zoom] else { return false }
        sqlWorkAtLastCheck[zoom] = work
        let limit = min(work * MBTilesSource.scanFraction, MBTilesSource.maxTilesInMemory)
        let s = zoomCountStatement
        sqlite3_reset(s)
        defer { sqlite3_reset(s) }
        sqlite3_bind_int64(s, 1, Int64(zoom))
        sqlite3_bind_int64(s, 2, Int64(limit) + 1)
        guard try step(s, "counting the tiles at zoom \(zoom)") else { return false }
        return Int(sqlite3_column_int64(s, 0)) <= limit
    }

    /// One zoom's whole index in one scan (the `tiles` table or the `map`/`images` view alike).
    func scanZoomIndex(_ zoom: Int) throws -> MBTilesZoomIndex {
        let s = zoomScanStatement
        sqlite3_reset(s)
        defer { sqlite3_reset(s) }
        sqlite3_bind_int64(s, 1, Int64(zoom))
        let side = Int64(1) << zoom
        var columns: [UInt32] = [], rows: [UInt32] = [], lengths: [UInt32] = []
        while try step(s, "reading the tile index at zoom \(zoom)") {
            let x = sqlite3_column_int64(s, 0), row = sqlite3_column_int64(s, 1)
            guard x >= 0, x < side, row >= 0, row < side else { continue }
            columns.append(UInt32(x))
            rows.append(UInt32(side - 1 - row))
            lengths.append(UInt32(clamping: sqlite3_column_int64(s, 2)))
        }
        return MBTilesZoomIndex(zoom: zoom, columns: columns, rows: rows, rowLengths: lengths)
    }

    /// The index under one parent through SQL range queries (the pre-scan path, and the oracle
    /// the tests compare the in-memory index with).
    func sqlIndex(under parent: TileCoordinate, atZoom zoom: Int) throws -> [TileIndexEntry] {
        guard parent.isValid, zoom >= parent.z, zoom <= 30 else { return [] }
        var result: [TileIndexEntry] = []
        let flip = (1 << zoom) - 1
        let xs = parent.descendantColumns(atZoom: zoom), ys = parent.descendantRows(atZoom: zoom)
        if xs.count <= 64 {
            // One exact index range per column: no index entries of other rows are visited.
            let s = columnIndexStatement
            defer { sqlite3_reset(s) }
            for x in xs {
                sqlite3_reset(s)
                sqlite3_bind_int64(s, 1, Int64(zoom))
                sqlite3_bind_int64(s, 2, Int64(x))
                sqlite3_bind_int64(s, 3, Int64(flip - ys.upperBound))
                sqlite3_bind_int64(s, 4, Int64(flip - ys.lowerBound))
                while try step(s, "reading the tile index at zoom \(zoom)") {
                    let y = flip - Int(sqlite3_column_int64(s, 0))
                    result.append(TileIndexEntry(coordinate: TileCoordinate(z: zoom, x: x, y: y), length: Int(sqlite3_column_int64(s, 1))))
                }
            }
        } else {
            bind(indexStatement, parent: parent, zoom: zoom)
            defer { sqlite3_reset(indexStatement) }
            while try step(indexStatement, "reading the tile index at zoom \(zoom)") {
                let x = Int(sqlite3_column_int64(indexStatement, 0))
                let y = flip - Int(sqlite3_column_int64(indexStatement, 1))
                let length = Int(sqlite3_column_int64(indexStatement, 2))
                result.append(TileIndexEntry(coordinate: TileCoordinate(z: zoom, x: x, y: y), length: length))
            }
        }
        result.sort { $0.coordinate < $1.coordinate }
        return result
    }

    public func read(under parent: TileCoordinate, atZoom zoom: Int,
                     _ body: (TileCoordinate, UnsafeRawBufferPointer) throws -> Void) throws {
        guard parent.isValid, zoom >= parent.z, zoom <= 30 else { return }
        bind(readStatement, parent: parent, zoom: zoom)
        defer { sqlite3_reset(readStatement) }
        let flip = (1 << zoom) - 1
        while try step(readStatement, "reading tiles at zoom \(zoom)") {
            let x = Int(sqlite3_column_int64(readStatement, 0))
            let y = flip - Int(sqlite3_column_int64(readStatement, 1))
            let p = sqlite3_column_blob(readStatement, 2)
            let n = Int(sqlite3_column_bytes(readStatement, 2))
            try body(TileCoordinate(z: zoom, x: x, y: y), UnsafeRawBufferPointer(start: n > 0 ? p : nil, count: n > 0 ? n : 0))
        }
    }

    public func tile(_ c: TileCoordinate) throws -> [UInt8]? {
        guard c.isValid else { return nil }
        sqlite3_reset(tileStatement)
        defer { sqlite3_reset(tileStatement) }
        sqlite3_bind_int64(tileStatement, 1, Int64(c.z))
        sqlite3_bind_int64(tileStatement, 2, Int64(c.x))
        sqlite3_bind_int64(tileStatement, 3, Int64((1 << c.z) - 1 - c.y))
        guard try step(tileStatement, "reading tile \(c)") else { return nil }
        let n = Int(sqlite3_column_bytes(tileStatement, 0))
        guard n > 0, let p = sqlite3_column_blob(tileStatement, 0) else { return [] }
        return Array(UnsafeRawBufferPointer(start: p, count: n))
    }
}
