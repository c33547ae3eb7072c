import CSQLite
import OffgridCore
import TileMath

/// Reading whole zooms of an MBTiles index at once, for plans that ask about many subtrees.
extension MBTilesSource {
    /// Planning is about to ask for the tiles under `parents` subtrees at each of `zooms`: when
    /// those zooms hold fewer tiles than `scanFraction` × what the queries would cost, their whole
    /// index is read now with one statement (a read of the whole table keeps every zoom) and
    /// every later query is a binary search in memory.
    public func prepareIndex(parents: Int, zooms: ClosedRange<Int>) throws {
        let wanted = zooms.clamped(to: info.minZoom...info.maxZoom).filter { zoomIndexes[$0] == nil }
        guard let lo = wanted.first, let hi = wanted.last, parents > 0, zooms.overlaps(info.minZoom...info.maxZoom) else { return }
        let (work, overflow) = parents.multipliedReportingOverflow(by: MBTilesSource.queryCost * MBTilesSource.scanFraction * (hi - lo + 1))
        let limit = overflow ? MBTilesSource.maxTilesInMemory : min(work, MBTilesSource.maxTilesInMemory)
        // A storage-order read (rowid order, leaf page after leaf page, about half the work of
        // an index walk that seeks each row) reads every row: when they all fit in memory every
        // zoom is kept, so that a plan's other bands (asked about after this one) need no SQL
        // queries of their own (a seek into the table for each tile's length).
        let kept: ClosedRange<Int>, storageOrder: Bool
        if tilesRootPage != nil, let span = try rowidSpan(), span <= limit {
            // Rowids spanning no more than `limit` bound the row count by it too: the whole table
            // is read without counting the index entries first (two descents of the table
            // instead of a walk of the index: 19 of the 200 ms of the contiguous US estimate).
            // Its cost is bounded by the queries' work, as a counted read's is.
            (kept, storageOrder) = (info.minZoom...info.maxZoom, true)
        } else {
            let inside = try count("SELECT count(*) FROM (SELECT 1 FROM tiles WHERE zoom_level BETWEEN ?1 AND ?2 LIMIT ?3)",
                                   lo, hi, limit: limit + 1)
            guard inside <= limit else { return }
            // Most of the table: read it in storage order. Else walk the index over the range only.
            let outside = try count("SELECT count(*) FROM (SELECT 1 FROM tiles WHERE zoom_level < ?1 OR zoom_level > ?2 LIMIT ?3)",
                                    lo, hi, limit: inside)
            storageOrder = outside < inside
            kept = storageOrder && inside + outside <= MBTilesSource.maxTilesInMemory ? info.minZoom...info.maxZoom : lo...hi
        }
        for (z, index) in try scanZoomRange(kept, storageOrder: storageOrder) where zoomIndexes[z] == nil {
            zoomIndexes[z] = index
        }
    }

    /// max(rowid) − min(rowid) + 1 of the `tiles` table (0 when empty), which bounds its row
    /// count; nil when it does not fit an Int.
    private func rowidSpan() throws -> Int? {
        // Two subqueries: SQLite answers a lone min() or max() with one descent, both in one
        // SELECT with a scan of the index.
        let s = try statement("SELECT (SELECT min(rowid) FROM tiles), (SELECT max(rowid) FROM tiles)")
        sqlite3_reset(s)
        defer { sqlite3_reset(s) }
        guard try step(s, "the tiles table's rowids"), sqlite3_column_type(s, 0) == SQLITE_INTEGER else { return 0 }
        let (difference, overflow) = sqlite3_column_int64(s, 1).subtractingReportingOverflow(sqlite3_column_int64(s, 0))
        guard !overflow, difference < Int64.max else { return nil }
        return Int(difference + 1)
    }

    private func count(_ sql: String, _ lo: Int, _ hi: Int, limit: Int) throws -> Int {
        let s = try statement(sql)
        sqlite3_reset(s)
        defer { sqlite3_reset(s) }
        sqlite3_bind_int64(s, 1, Int64(lo))
        sqlite3_bind_int64(s, 2, Int64(hi))
        sqlite3_bind_int64(s, 3, Int64(limit))
        guard try step(s, "counting the tiles at zooms \(lo)-\(hi)") else { return 0 }
        return Int(sqlite3_column_int64(s, 0))
    }

    /// The index of every zoom of `zooms` from one scan: the table in storage order (read from
    /// the file's pages when `SQLiteTileRows` can, else through SQL with `+zoom_level` keeping
    /// SQLite off the index), or the index's (zoom, column, TMS row) order. Rows are collected
    /// per zoom as they come; a zoom's keys are then used as they are when ascending (a table
    /// written in XYZ order), reversed column by column when in TMS order (the index's), and
    /// sorted otherwise. `readPages: false` keeps the storage-order scan in SQL (the tests' oracle).
    func scanZoomRange(_ zooms: ClosedRange<Int>, storageOrder: Bool, readPages: Bool = true) throws -> [Int: MBTilesZoomIndex] {
        var rows: SQLiteTileRows.Rows
        if storageOrder, readPages, let read = try pageRows(zooms) {
            rows = read
        } else {
            rows = try sqlRows(zooms, storageOrder: storageOrder)
        }
        var result: [Int: MBTilesZoomIndex] = [:]
        for z in zooms {
            let i = z - zooms.lowerBound
            result[z] = MBTilesSource.zoomIndex(zoom: z, keys: &rows.keys[i], lengths: &rows.lengths[i])
        }
        return result
    }

    private func sqlRows(_ zooms: ClosedRange<Int>, storageOrder: Bool) throws -> SQLiteTileRows.Rows {
        let s = try statement(storageOrder
            ? "SELECT zoom_level, tile_column, tile_row, length(tile_data) FROM tiles WHERE +zoom_level BETWEEN ?1 AND ?2"
            : "SELECT zoom_level, tile_column, tile_row, length(tile_data) FROM tiles WHERE zoom_level BETWEEN ?1 AND ?2 "
              + "ORDER BY zoom_level, tile_column, tile_row")
        sqlite3_reset(s)
        defer { sqlite3_reset(s) }
        sqlite3_bind_int64(s, 1, Int64(zooms.lowerBound))
        sqlite3_bind_int64(s, 2, Int64(zooms.upperBound))
        var rows = SQLiteTileRows.Rows(zoomCount: zooms.count)
        while try step(s, "reading the tile index at zooms \(zooms.lowerBound)-\(zooms.upperBound)") {
            rows.add(zoom: sqlite3_column_int64(s, 0), x: sqlite3_column_int64(s, 1), tmsRow: sqlite3_column_int64(s, 2),
                     length: sqlite3_column_int64(s, 3), zooms: zooms)
        }
        return rows
    }

    /// The storage-order scan read from the file's pages (`SQLiteTileRows`) inside a read
    /// transaction, which holds SQLite's shared lock so that no writer changes the file meanwhile;
    /// nil when the table is a view or the reader declines the file (SQL then answers).
    func pageRows(_ zooms: ClosedRange<Int>) throws -> SQLiteTileRows.Rows? {
        guard let root = tilesRootPage else { return nil }
        try execute("BEGIN")
        defer { try? execute("COMMIT") }
        let lock = try statement("SELECT 1 FROM sqlite_schema LIMIT 1")
        sqlite3_reset(lock)
        defer { sqlite3_reset(lock) }
        _ = try step(lock, "the schema")
        return SQLiteTileRows.read(path: path, rootPage: root, zooms: zooms, threads: Parallel.activeProcessorCount)
    }

    /// A zoom's index from its rows in scan order (see `scanZoomRange`).
    static func zoomIndex(zoom: Int, keys: inout [UInt64], lengths: inout [UInt32]) -> MBTilesZoomIndex {
        if MBTilesZoomIndex.isStrictlyAscending(keys) {
            return MBTilesZoomIndex(zoom: zoom, sortedKeys: keys, lengths: lengths)
        }
        // TMS order: columns ascending, XYZ rows descending within each. Reverse each column.
        var start = 0
        while start < keys.count {
            var end = start + 1
            while end < keys.count && keys[end] >> 32 == keys[start] >> 32 { end += 1 }
            keys[start..<end].reverse()
            lengths[start..<end].reverse()
            start = end
        }
        if MBTilesZoomIndex.isStrictlyAscending(keys) {
            return MBTilesZoomIndex(zoom: zoom, sortedKeys: keys, lengths: lengths)
        }
        return MBTilesZoomIndex(zoom: zoom, columns: keys.map { UInt32($0 >> 32) },
                                rows: keys.map { UInt32($0 & 0xffff_ffff) }, rowLengths: lengths)
    }
}
