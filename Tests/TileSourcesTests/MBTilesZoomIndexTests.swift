import Foundation
import TestSupport
@testable import TileSources
import TileMath
import XCTest

/// The in-memory zoom index (one scan per zoom, binary search per parent) answers exactly as the
/// SQL range queries it replaces, for the `tiles` table and for the `map`/`images` layout.
final class MBTilesZoomIndexTests: XCTestCase {
    /// Every parent that has tiles under it at some zoom, plus empty neighbours and the edges of
    /// the grid, so that the walk's jumps (rows below, rows above, next column) are exercised.
    private func parents(of source: MBTilesSource) throws -> [TileCoordinate] {
        var set = Set<TileCoordinate>()
        for t in try source.allTiles() {
            for z in 0...t.coordinate.z {
                let a = t.coordinate.ancestor(atZoom: z)
                set.insert(a)
                let last = (1 << z) - 1
                for (dx, dy) in [(-1, 0), (1, 0), (0, -1), (0, 1), (1, 1)] {
                    let n = TileCoordinate(z: z, x: a.x + dx, y: a.y + dy)
                    if n.x >= 0, n.y >= 0, n.x <= last, n.y <= last { set.insert(n) }
                }
            }
        }
        return set.sorted()
    }

    private func assertSameAnswers(_ path: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let source = try MBTilesSource(path: path)
        let parents = try parents(of: source)
        XCTAssertGreaterThan(parents.count, 100, file: file, line: line)
        var nonEmpty = 0, compared = 0
        for zoom in source.info.minZoom...source.info.maxZoom {
            let memory = try source.scanZoomIndex(zoom)
            for parent in parents where parent.z <= zoom {
                let expected = try source.sqlIndex(under: parent, atZoom: zoom)
                XCTAssertEqual(memory.entries(under: parent), expected, "\(parent) at zoom \(zoom)", file: file, line: line)
                // The public path: SQL for the first queries of a zoom, then (past enough work) the scan.
                XCTAssertEqual(try source.index(under: parent, atZoom: zoom), expected, file: file, line: line)
                if !expected.isEmpty { nonEmpty += 1 }
                compared += 1
            }
        }
        XCTAssertFalse(source.scannedZooms.isEmpty, "many queries switch a zoom to its scan", file: file, line: line)
        XCTAssertNotEqual(source.scannedZooms.count, source.info.maxZoom - source.info.minZoom + 1,
                          "the first queries of a zoom go through SQL", file: file, line: line)
        XCTAssertGreaterThan(nonEmpty, 300, "the comparison covers real tiles", file: file, line: line)
        XCTAssertGreaterThan(compared - nonEmpty, 300, "and empty parents", file: file, line: line)

        // One statement over a zoom range (what plans of many packs read) gives every zoom's
        // index exactly as the per-zoom scan, for every sub-range.
        let zooms = source.info.minZoom...source.info.maxZoom
        for lo in zooms {
            for hi in lo...zooms.upperBound where hi == lo || hi == zooms.upperBound {
                for storageOrder in [false, true] {
                    let ranged = try source.scanZoomRange(lo...hi, storageOrder: storageOrder)
                    XCTAssertEqual(ranged.keys.sorted(), Array(lo...hi), file: file, line: line)
                    for z in lo...hi {
                        let single = try source.scanZoomIndex(z)
                        let what = "zoom \(z) of \(lo)-\(hi), storage order \(storageOrder)"
                        XCTAssertEqual(ranged[z]!.keys, single.keys, what, file: file, line: line)
                        XCTAssertEqual(ranged[z]!.lengths, single.lengths, what, file: file, line: line)
                    }
                }
            }
        }
        // The planning hint: a few parents leave a large zoom to SQL, many parents scan it.
        let fresh = try MBTilesSource(path: path)
        try fresh.prepareIndex(parents: 1, zooms: zooms.upperBound...zooms.upperBound)
        XCTAssertEqual(fresh.scannedZooms, [], "one parent: the deepest zoom stays on SQL queries", file: file, line: line)
        try fresh.prepareIndex(parents: 10_000, zooms: zooms)
        XCTAssertEqual(fresh.scannedZooms, Array(zooms), "many parents: every zoom in one scan", file: file, line: line)
        for parent in parents {
            for zoom in max(parent.z, zooms.lowerBound)...zooms.upperBound {
                XCTAssertEqual(try fresh.index(under: parent, atZoom: zoom), try fresh.sqlIndex(under: parent, atZoom: zoom),
                               "\(parent) at zoom \(zoom) after the hint", file: file, line: line)
            }
        }
        try fresh.prepareIndex(parents: 10_000, zooms: 25...30)   // beyond the source: nothing to read

        // The deepest zoom holds most of the table, so it is read in storage order, and that
        // read keeps every zoom (a plan announces its deepest band first for this).
        let deepestFirst = try MBTilesSource(path: path)
        try deepestFirst.prepareIndex(parents: 10_000, zooms: zooms.upperBound...zooms.upperBound)
        XCTAssertEqual(deepestFirst.scannedZooms, Array(zooms), "a storage-order read keeps every zoom", file: file, line: line)
        for parent in parents {
            for zoom in max(parent.z, zooms.lowerBound)...zooms.upperBound {
                XCTAssertEqual(try deepestFirst.index(under: parent, atZoom: zoom), try deepestFirst.sqlIndex(under: parent, atZoom: zoom),
                               "\(parent) at zoom \(zoom) after the deepest zoom's read", file: file, line: line)
            }
        }
    }

    /// Rows in XYZ order, in the index's TMS order, and shuffled give the same zoom index.
    func testZoomIndexFromAnyRowOrder() {
        var rows: [(UInt64, UInt32)] = []
        for x in UInt64(3)...9 { for y in UInt64(0)...6 where (x * 7 + y) % 3 != 0 { rows.append((x << 32 | y, UInt32(x * 100 + y))) } }
        let tms = rows.sorted { ($0.0 >> 32, ~$0.0 & 0xffff_ffff) < ($1.0 >> 32, ~$1.0 & 0xffff_ffff) }
        var generator = SystemRandomNumberGenerator()
        for order in [rows, tms, rows.shuffled(using: &generator)] {
            var keys = order.map(\.0), lengths = order.map(\.1)
            let index = MBTilesSource.zoomIndex(zoom: 4, keys: &keys, lengths: &lengths)
            XCTAssertEqual(index.keys, rows.map(\.0))
            XCTAssertEqual(index.lengths, rows.map(\.1))
        }
    }

    func testTilesTableAnswersAsSQL() throws {
        try assertSameAnswers(sampleMBTiles)
    }

    /// The sample with one row moved to a far rowid: the rowids no longer bound the row count,
    /// so the planning hint counts the index entries before reading (the path a table with
    /// deleted or explicit rowids takes); the answers are the same.
    func testSparseRowidsAnswerAsSQL() throws {
        let scratch = Scratch("mbtiles-sparse-rowids")
        defer { scratch.remove() }
        let path = scratch.path("sparse.mbtiles")
        try sqlite3(path, """
            ATTACH '\(sampleMBTiles)' AS s;
            CREATE TABLE metadata (name TEXT, value TEXT);
            INSERT INTO metadata SELECT name, value FROM s.metadata;
            CREATE TABLE tiles (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_data BLOB);
            INSERT INTO tiles SELECT zoom_level, tile_column, tile_row, tile_data FROM s.tiles ORDER BY rowid;
            UPDATE tiles SET rowid = 4000000000 WHERE rowid = (SELECT max(rowid) FROM tiles);
            CREATE UNIQUE INDEX tile_index ON tiles (zoom_level, tile_column, tile_row);
            """)
        let source = try MBTilesSource(path: path)
        XCTAssertNotNil(source.tilesRootPage, "a plain tiles table")
        try assertSameAnswers(path)
    }

    /// The sample rewritten in the deduplicating layout (a `tiles` view over `map` and `images`),
    /// with rows SQL range queries never return (outside the zoom's grid), which the scan drops.
    func testMapImagesLayoutAnswersAsSQL() throws {
        let scratch = Scratch("mbtiles-zoom-index")
        defer { scratch.remove() }
        let path = scratch.path("map-images.mbtiles")
        let sql = """
            ATTACH '\(sampleMBTiles)' AS s;
            CREATE TABLE metadata (name TEXT, value TEXT);
            INSERT INTO metadata SELECT name, value FROM s.metadata;
            CREATE TABLE images (tile_id TEXT PRIMARY KEY, tile_data BLOB);
            CREATE TABLE map (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_id TEXT);
            CREATE UNIQUE INDEX map_index ON map (zoom_level, tile_column, tile_row);
            INSERT INTO images SELECT hex(zoom_level) || '/' || tile_column || '/' || tile_row, tile_data FROM s.tiles;
            INSERT INTO map SELECT zoom_level, tile_column, tile_row, hex(zoom_level) || '/' || tile_column || '/' || tile_row FROM s.tiles;
            INSERT INTO map VALUES (3, 8, 0, '30/0/0'), (3, -1, 2, '30/0/0'), (3, 2, 9, '30/0/0');
            CREATE VIEW tiles AS SELECT zoom_level, tile_column, tile_row, tile_data FROM map JOIN images USING (tile_id);
            """
        try sqlite3(path, sql)
        let source = try MBTilesSource(path: path)
        XCTAssertEqual(try source.allTiles().count, 180, "the out-of-grid rows are not tiles")
        try assertSameAnswers(path)
    }
}
