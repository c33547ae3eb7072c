import Foundation
@testable import TileSources
import TestSupport
import TileMath
import XCTest

/// The page reader of MBTiles `tiles` tables answers exactly as SQL's storage-order scan, on
/// b-trees of several levels with overflow chains, and declines — never misreads — what it does
/// not handle: WAL databases, views, values of other types, and damaged or truncated files.
final class SQLiteTileRowsTests: XCTestCase {
    private var scratch: Scratch!
    override func setUp() { scratch = Scratch("sqlite-tile-rows") }
    override func tearDown() { scratch.remove() }

    /// 6,000 rows at zooms 0-14 and 20-30 (integers of every width, 0 and 1 as constants), in an
    /// order that is neither XYZ nor TMS, with tiles of 0-9,000 bytes on 1 KiB pages (three or
    /// more b-tree levels, most rows spilling into overflow pages), NULL tiles, and rows outside
    /// their zoom's grid.
    private func fixture(_ name: String, pageSize: Int = 1024, extra: String = "") throws -> String {
        let path = scratch.path(name)
        try sqlite3(path, """
            PRAGMA page_size = \(pageSize);
            CREATE TABLE metadata (name text, value text);
            INSERT INTO metadata VALUES ('name', 'fixture'), ('format', 'pbf'), ('minzoom', '0'), ('maxzoom', '30');
            CREATE TABLE tiles (zoom_level integer, tile_column integer, tile_row integer, tile_data blob);
            CREATE UNIQUE INDEX tile_index ON tiles (zoom_level, tile_column, tile_row);
            WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r WHERE i < 6000),
                 z(i, z) AS (SELECT i, CASE WHEN i % 5 = 0 THEN 20 + i % 11 ELSE i % 15 END FROM r)
            INSERT OR IGNORE INTO tiles
              SELECT z, (i * 7919) % (1 << z), (i * 104729) % (1 << z),
                     CASE WHEN i % 97 = 0 THEN NULL ELSE zeroblob((i * 3571) % 9000) END FROM z;
            INSERT OR REPLACE INTO tiles VALUES (3, 8, 0, x'01'), (3, -1, 2, x'02'), (4, 2, 99, x'03'), (-1, 0, 0, x'04'),
              (31, 0, 0, x'05'), (1, 0, 1, zeroblob(5000)), (1, 1, 0, x''), (2, 3, 1, zeroblob(70000));
            \(extra)
            """)
        return path
    }

    private func assertPagesAnswerAsSQL(_ path: String, zooms: ClosedRange<Int> = 0...30,
                                        file: StaticString = #filePath, line: UInt = #line) throws {
        let source = try MBTilesSource(path: path)
        XCTAssertNotNil(source.tilesRootPage, file: file, line: line)
        let pages = try XCTUnwrap(try source.pageRows(zooms), "the reader reads this file", file: file, line: line)
        XCTAssertGreaterThan(pages.keys.map(\.count).reduce(0, +), 100, file: file, line: line)
        let read = try source.scanZoomRange(zooms, storageOrder: true)
        let sql = try source.scanZoomRange(zooms, storageOrder: true, readPages: false)
        let indexOrder = try source.scanZoomRange(zooms, storageOrder: false)
        for z in zooms {
            XCTAssertEqual(read[z]!.keys, sql[z]!.keys, "zoom \(z)", file: file, line: line)
            XCTAssertEqual(read[z]!.lengths, sql[z]!.lengths, "zoom \(z)", file: file, line: line)
            XCTAssertEqual(read[z]!.keys, indexOrder[z]!.keys, "zoom \(z)", file: file, line: line)
            XCTAssertEqual(read[z]!.lengths, indexOrder[z]!.lengths, "zoom \(z)", file: file, line: line)
        }
        // Every thread count reads the same rows in the same order.
        let root = try XCTUnwrap(source.tilesRootPage)
        let one = try XCTUnwrap(SQLiteTileRows.read(path: path, rootPage: root, zooms: zooms, threads: 1))
        let three = try XCTUnwrap(SQLiteTileRows.read(path: path, rootPage: root, zooms: zooms, threads: 3))
        XCTAssertEqual(one.keys, pages.keys, file: file, line: line)
        XCTAssertEqual(three.keys, pages.keys, file: file, line: line)
        XCTAssertEqual(three.lengths, pages.lengths, file: file, line: line)
    }

    func testDeepTreeWithOverflowAnswersAsSQL() throws {
        let path = try fixture("deep.mbtiles")
        try assertPagesAnswerAsSQL(path)
        try assertPagesAnswerAsSQL(path, zooms: 5...12)
        // Leaves at depth ≥ 2 and tiles that spill: what the reader must get right.
        let source = try MBTilesSource(path: path)
        let sql = try source.scanZoomRange(0...30, storageOrder: true, readPages: false)
        XCTAssertEqual(sql[2]!.entries(under: TileCoordinate(z: 2, x: 3, y: 2)).first?.length, 70000)
        XCTAssertEqual(sql[1]!.entries(under: TileCoordinate(z: 1, x: 1, y: 1)).first?.length, 0, "an empty blob")
    }

    func testOtherPageSizesAndReservedBytes() throws {
        try assertPagesAnswerAsSQL(try fixture("p512.mbtiles", pageSize: 512))
        try assertPagesAnswerAsSQL(try fixture("p65536.mbtiles", pageSize: 65536))
        // Reserved bytes at each page's end (what checksum VFSes use) change where local payload ends.
        let reserved = try fixture("reserved.mbtiles", extra: "")
        try sqlite3(reserved, "VACUUM;", before: [".filectrl reserve_bytes 8"])
        let bytes = fileBytes(reserved)
        XCTAssertEqual(bytes[20], 8, "the fixture has reserved bytes")
        try assertPagesAnswerAsSQL(reserved)
    }

    func testTheSampleAnswersAsSQL() throws {
        try assertPagesAnswerAsSQL(sampleMBTiles, zooms: 0...14)
    }

    /// Files the reader declines: SQL answers them (the public path gives the same index).
    func testDeclinesWhatItDoesNotReadExactly() throws {
        let cases: [(String, String)] = [
            ("wal.mbtiles", "PRAGMA journal_mode = WAL;"),
            ("text.mbtiles", "INSERT INTO tiles VALUES (5, 1, 1, 'text, whose length() counts characters');"),
            ("real.mbtiles", "INSERT INTO tiles VALUES (5, 1.5, 1, x'00');"),
            ("text-zoom.mbtiles", "INSERT INTO tiles VALUES ('five', 1, 1, x'00');"),
            ("null-column.mbtiles", "INSERT INTO tiles VALUES (5, NULL, 1, x'00');"),
        ]
        for (name, extra) in cases {
            let path = try fixture(name, extra: extra)
            let source = try MBTilesSource(path: path)
            XCTAssertNil(try source.pageRows(0...30), name)
            let read = try source.scanZoomRange(0...30, storageOrder: true)
            let index = try source.scanZoomRange(0...30, storageOrder: false)
            for z in 0...30 { XCTAssertEqual(read[z]!.keys, index[z]!.keys, "\(name) zoom \(z)") }
        }
        // A WITHOUT ROWID table has the columns but an index b-tree; a view has no root page;
        // an added column makes older records shorter than the table.
        let withoutRowid = scratch.path("without-rowid.mbtiles")
        try sqlite3(withoutRowid, """
            CREATE TABLE metadata (name text, value text);
            CREATE TABLE tiles (zoom_level integer, tile_column integer, tile_row integer, tile_data blob,
                                PRIMARY KEY (zoom_level, tile_column, tile_row)) WITHOUT ROWID;
            INSERT INTO tiles VALUES (1, 0, 0, x'01'), (1, 1, 0, x'0203');
            """)
        let w = try MBTilesSource(path: withoutRowid)
        XCTAssertNotNil(w.tilesRootPage)
        XCTAssertNil(try w.pageRows(0...1))
        XCTAssertEqual(try w.scanZoomRange(0...1, storageOrder: true)[1]!.lengths, [1, 2])

        let added = scratch.path("added-column.mbtiles")
        try sqlite3(added, """
            CREATE TABLE metadata (name text, value text);
            CREATE TABLE tiles (zoom_level integer, tile_column integer, tile_row integer);
            INSERT INTO tiles VALUES (1, 0, 0), (1, 1, 0);
            ALTER TABLE tiles ADD COLUMN tile_data blob;
            INSERT INTO tiles VALUES (1, 0, 1, x'0102');
            """)
        let a = try MBTilesSource(path: added)
        XCTAssertNil(try a.pageRows(0...1), "records of three columns")
        XCTAssertEqual(try a.scanZoomRange(0...1, storageOrder: true)[1]!.lengths, [2, 0, 0], "in XYZ order")
    }

    /// Damaged files: truncated, a child pointing back at the root (a cycle), a child out of the
    /// file, and 400 random corruptions of the table's pages. The reader never crashes
    /// or loops; whenever both it and SQL's scan read a file, they agree.
    func testDamagedFilesAreDeclinedOrReadAsSQLReadsThem() throws {
        let path = try fixture("clean.mbtiles")
        let clean = fileBytes(path)
        let source = try MBTilesSource(path: path)
        let root = try XCTUnwrap(source.tilesRootPage)
        let pageSize = Int(clean[16]) << 8 | Int(clean[17])
        let rootAt = (root - 1) * pageSize
        XCTAssertEqual(clean[rootAt], 0x05, "the fixture's root is an interior page")

        func variant(_ name: String, _ change: (inout [UInt8]) -> Void) throws -> String {
            var bytes = clean
            change(&bytes)
            return try scratch.write(name, bytes)
        }
        let truncated = try variant("truncated.mbtiles") { $0.removeLast($0.count / 2) }
        XCTAssertNil(SQLiteTileRows.read(path: truncated, rootPage: root, zooms: 0...30, threads: 2))
        let cycle = try variant("cycle.mbtiles") { b in
            withUnsafeBytes(of: UInt32(root).bigEndian) { b.replaceSubrange(rootAt + 8 ..< rootAt + 12, with: $0) }
        }
        XCTAssertNil(SQLiteTileRows.read(path: cycle, rootPage: root, zooms: 0...30, threads: 2))
        let outside = try variant("outside.mbtiles") { b in
            withUnsafeBytes(of: UInt32(0x7fff_ffff).bigEndian) { b.replaceSubrange(rootAt + 8 ..< rootAt + 12, with: $0) }
        }
        XCTAssertNil(SQLiteTileRows.read(path: outside, rootPage: root, zooms: 0...30, threads: 2))
        XCTAssertNil(SQLiteTileRows.read(path: path, rootPage: clean.count, zooms: 0...30, threads: 2), "root out of the file")
        XCTAssertNil(SQLiteTileRows.read(path: scratch.path("missing"), rootPage: root, zooms: 0...30, threads: 2))

        // The table's own pages (its interior pages and leaves), found from a clean read.
        let fd = open(path, O_RDONLY)
        defer { close(fd) }
        let layout = try XCTUnwrap(SQLiteTileRows.Layout(fd: fd, fileSize: clean.count))
        let tree = try XCTUnwrap(SQLiteTileRows.tree(fd, layout, root: root))
        XCTAssertGreaterThan(tree.interior.count, 3, "a tree of three or more levels")
        let treePages = tree.interior + tree.leaves
        XCTAssertGreaterThan(treePages.count, 200)
        var generator = SplitMix64(seed: 13)
        var declined = 0, agreed = 0, sqlFailed = 0
        // One copy, damaged in place and mended after each round (rewriting 27 MB 400 times is slow).
        let damaged = try variant("damaged.mbtiles") { _ in }
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: damaged))
        defer { try? handle.close() }
        for round in 0..<400 {
            var changed: [Int] = []
            for _ in 0..<(1 + round % 3) {
                let page = treePages[Int(generator.next() % UInt64(treePages.count))]
                // Mostly the headers and cell pointers at the front, sometimes the cells at the back.
                let within = generator.next() % 4 == 0 ? Int(generator.next() % UInt64(pageSize)) : Int(generator.next() % 24)
                let at = (page - 1) * pageSize + within
                try handle.seek(toOffset: UInt64(at))
                try handle.write(contentsOf: [clean[at] ^ UInt8(1 + generator.next() % 255)])
                changed.append(at)
            }
            defer {
                for at in changed {
                    try? handle.seek(toOffset: UInt64(at))
                    try? handle.write(contentsOf: [clean[at]])
                }
            }
            let pages = SQLiteTileRows.read(path: damaged, rootPage: root, zooms: 0...30, threads: 2)
            guard let pages else { declined += 1; continue }
            let s = try MBTilesSource(path: damaged)
            guard let sql = try? s.scanZoomRange(0...30, storageOrder: true, readPages: false) else { sqlFailed += 1; continue }
            var rows = pages
            for z in 0...30 {
                let mine = MBTilesSource.zoomIndex(zoom: z, keys: &rows.keys[z], lengths: &rows.lengths[z])
                XCTAssertEqual(mine.keys, sql[z]!.keys, "round \(round), zoom \(z)")
                XCTAssertEqual(mine.lengths, sql[z]!.lengths, "round \(round), zoom \(z)")
            }
            agreed += 1
        }
        XCTAssertGreaterThan(declined, 50, "damage is seen")
        XCTAssertGreaterThan(agreed, 20, "harmless damage (free space, unused bits) is read as SQL reads it")
        print("damaged files: \(declined) declined, \(agreed) read as SQL reads them, \(sqlFailed) where SQL failed")
    }
}
