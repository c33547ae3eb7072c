import CSQLite
import Foundation
import OffgridCore
import TileMath

/// Writes MBTiles 1.3 files (https://github.com/mapbox/mbtiles-spec/blob/master/1.3/spec.md):
/// the `metadata` table (name, format, bounds, center, minzoom, maxzoom, and for vector tiles the
/// `json` value holding `vector_layers`) and the `tiles` table with TMS rows and a unique index.
/// Written into a temporary file next to the output, renamed into place when complete (nothing
/// half-written is ever at the output path). Rows go in (z, x, y) order in one transaction, so
/// the same tiles and metadata give the same bytes.
public enum MBTilesWriter {
    /// `metadata` rows (name → value) in the order written; `tiles` in any order, distinct.
    public static func write(to path: String, metadata: [(String, String)], tiles: [TileCoordinate],
                             read: (Int) throws -> [UInt8]) throws -> Int {
        let dir = (path as NSString).deletingLastPathComponent
        let temporary = ((dir.isEmpty ? "." : dir) as NSString).appendingPathComponent(".\((path as NSString).lastPathComponent).tmp-\(getpid())")
        unlink(temporary)
        TempPathRegistry.installSignalHandlers()
        let slot = TempPathRegistry.register(temporary)
        defer { if let slot { TempPathRegistry.unregister(slot) } }
        var db: OpaquePointer?
        func fail(_ what: String) -> InputError {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            return InputError(file: path, "\(what): \(message)")
        }
        do {
            guard sqlite3_open_v2(temporary, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK else {
                throw fail("cannot create the MBTiles file")
            }
            func exec(_ sql: String) throws {
                guard sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK else { throw fail("SQLite") }
            }
            try exec("""
                PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA page_size = 4096;
                PRAGMA application_id = 0x4d504258;
                CREATE TABLE metadata (name TEXT, value TEXT);
                CREATE TABLE tiles (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_data BLOB);
                BEGIN;
                """)
            let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
            // Statements are finalized when this closure returns, before the database is closed.
            try { () throws -> Void in
            var meta: OpaquePointer?
            guard sqlite3_prepare_v2(db, "INSERT INTO metadata (name, value) VALUES (?, ?)", -1, &meta, nil) == SQLITE_OK else { throw fail("SQLite") }
            defer { sqlite3_finalize(meta) }
            for (name, value) in metadata {
                sqlite3_reset(meta)
                sqlite3_bind_text(meta, 1, name, -1, transient)
                sqlite3_bind_text(meta, 2, value, -1, transient)
                guard sqlite3_step(meta) == SQLITE_DONE else { throw fail("cannot write metadata") }
            }
            var insert: OpaquePointer?
            guard sqlite3_prepare_v2(db, "INSERT INTO tiles (zoom_level, tile_column, tile_row, tile_data) VALUES (?, ?, ?, ?)", -1, &insert, nil) == SQLITE_OK else {
                throw fail("SQLite")
            }
            defer { sqlite3_finalize(insert) }
            for i in tiles.indices.sorted(by: { tiles[$0] < tiles[$1] }) {
                let c = tiles[i]
                let bytes = try read(i)
                sqlite3_reset(insert)
                sqlite3_bind_int64(insert, 1, Int64(c.z))
                sqlite3_bind_int64(insert, 2, Int64(c.x))
                sqlite3_bind_int64(insert, 3, Int64((1 << c.z) - 1 - c.y))   // TMS rows count from the south
                _ = bytes.withUnsafeBytes { sqlite3_bind_blob(insert, 4, $0.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32($0.count), transient) }
                guard sqlite3_step(insert) == SQLITE_DONE else { throw fail("cannot write tile \(c)") }
            }
            }()
            try exec("CREATE UNIQUE INDEX tile_index ON tiles (zoom_level, tile_column, tile_row); COMMIT;")
            guard sqlite3_close(db) == SQLITE_OK else { throw fail("cannot close") }
            db = nil
            let fd = open(temporary, O_RDONLY | O_CLOEXEC)
            if fd >= 0 { fsync(fd); close(fd) }
            guard rename(temporary, path) == 0 else {
                throw InputError(file: path, "cannot rename \(temporary) into place: \(String(cString: strerror(errno)))")
            }
            FileSync.syncDirectory(containing: path)
            return tiles.count
        } catch {
            if db != nil { sqlite3_close(db) }
            unlink(temporary)
            throw error
        }
    }
}
