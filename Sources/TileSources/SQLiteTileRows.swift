#if canImport(Glibc)
import Glibc
#endif
import Foundation
import OffgridCore

/// The (zoom, column, TMS row, tile length) of every row of an MBTiles `tiles` table, read
/// straight from the database file's table b-tree (https://sqlite.org/fileformat2.html) instead
/// of through SQL.
///
/// Why: each tile row fills its own leaf page (its bytes spill into overflow pages), so a whole-
/// table scan reads ~200k pages scattered over gigabytes, which no reader avoids: the lengths are
/// only there. Through SQLite's VM that took 0.28 s of the contiguous US estimate at z0-12; read
/// page by page on both cores, 0.13-0.16 s (a mapping instead of pread: slower, as every fault
/// maps a run of overflow pages that munmap then unmaps, and a file truncated meanwhile would be
/// SIGBUS instead of a short read).
///
/// The reader is exact or absent: anything it does not handle as SQLite would — a WAL database,
/// a page that is not what the tree says, a cell or record header outside its page, a value that
/// is not an integer (columns 1-3) or a blob or NULL (the tile) — makes it return nil, and the
/// caller asks SQLite, which answers or names the corruption. It never reads overflow pages: the
/// record header, which holds the blob's length, and the three integers always lie in the
/// leaf's local part. The caller holds a read transaction, so no writer changes the file.
enum SQLiteTileRows {
    /// One part of the table's rows, in storage (rowid) order, kept per zoom of `zooms`.
    struct Rows {
        var keys: [[UInt64]]      // x << 32 | XYZ row, per zoom
        var lengths: [[UInt32]]

        init(zoomCount: Int) {
            keys = .init(repeating: [], count: zoomCount)
            lengths = .init(repeating: [], count: zoomCount)
        }

        /// Keeps a row when its zoom is in `zooms` and its column and TMS row lie in the zoom's
        /// grid (no coordinate query could return the others), keyed by XYZ row.
        mutating func add(zoom: Int64, x: Int64, tmsRow: Int64, length: Int64, zooms: ClosedRange<Int>) {
            guard zoom >= Int64(zooms.lowerBound), zoom <= Int64(zooms.upperBound) else { return }
            let side = Int64(1) << zoom
            guard x >= 0, x < side, tmsRow >= 0, tmsRow < side else { return }
            let i = Int(zoom) - zooms.lowerBound
            keys[i].append(UInt64(x) << 32 | UInt64(side - 1 - tmsRow))
            lengths[i].append(UInt32(clamping: length))
        }
    }

    /// The rows of the rowid table rooted at `rootPage` whose zoom is in `zooms` and whose
    /// column and row lie in the zoom's grid, or nil when the file is one the reader declines.
    static func read(path: String, rootPage: Int, zooms: ClosedRange<Int>, threads: Int) -> Rows? {
        let fd = FileTools.openForReading(path)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, let layout = Layout(fd: fd, fileSize: Int(st.st_size)),
              rootPage >= 1, rootPage <= layout.pageCount,
              let leaves = tree(fd, layout, root: rootPage)?.leaves else { return nil }
        let parts = max(1, min(threads, leaves.count / 1024 + 1))
        let results = Parallel.map(count: parts, threads: parts) { part -> Rows? in
            let range = leaves.count * part / parts ..< leaves.count * (part + 1) / parts
            return scan(fd, layout, leaves: leaves[range], zooms: zooms)
        }
        guard var all = results[0] else { return nil }
        for result in results.dropFirst() {
            guard let part = result else { return nil }
            for z in 0..<zooms.count {
                all.keys[z].append(contentsOf: part.keys[z])
                all.lengths[z].append(contentsOf: part.lengths[z])
            }
        }
        return all
    }

    /// The database header's page geometry; nil unless the file is a rollback-journal database
    /// (WAL frames may hold newer pages than the file).
    struct Layout {
        let pageSize: Int
        let usable: Int
        let pageCount: Int

        init?(fd: Int32, fileSize: Int) {
            var header = [UInt8](repeating: 0, count: 100)
            guard fileSize >= 100, pread(fd, &header, 100, 0) == 100, header[18] == 1, header[19] == 1 else { return nil }
            let raw = Int(header[16]) << 8 | Int(header[17])
            pageSize = raw == 1 ? 65536 : raw
            guard pageSize >= 512, pageSize & (pageSize - 1) == 0 else { return nil }
            usable = pageSize - Int(header[20])
            guard usable >= 480 else { return nil }
            pageCount = fileSize / pageSize
        }

        /// Reads page `number`'s usable bytes into `buffer` (at least `usable` long); false on a
        /// short read (a file truncated meanwhile).
        func read(_ fd: Int32, _ number: Int, into buffer: UnsafeMutableRawBufferPointer) -> Bool {
            pread(fd, buffer.baseAddress, usable, off_t((number - 1) * pageSize)) == usable
        }
    }

    /// The table's interior pages, and its leaf pages in key order, from its interior pages only. Every leaf of a
    /// b-tree lies at one depth (found by the first descent), so leaves are listed without being
    /// read; `scan` checks each one's page type. A page met twice, a page out of the file, or an
    /// interior page of another kind ends the walk with nil.
    static func tree(_ fd: Int32, _ layout: Layout, root: Int) -> (interior: [Int], leaves: [Int])? {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: layout.usable, alignment: 64)
        defer { buffer.deallocate() }
        let page = UnsafeRawBufferPointer(buffer)
        var seen = [UInt64](repeating: 0, count: layout.pageCount / 64 + 1)
        func firstVisit(_ page: Int) -> Bool {
            guard page >= 2, page <= layout.pageCount else { return false }
            let (word, bit) = (page >> 6, UInt64(1) << (page & 63))
            if seen[word] & bit != 0 { return false }
            seen[word] |= bit
            return true
        }
        var leafDepth = -1
        var leaves: [Int] = [], interior: [Int] = []
        var stack: [(page: Int, depth: Int)] = [(root, 0)]
        while let (number, depth) = stack.popLast() {
            if depth == leafDepth {
                guard firstVisit(number) else { return nil }
                leaves.append(number)
                continue
            }
            guard firstVisit(number), depth < 32, layout.read(fd, number, into: buffer) else { return nil }
            if page[0] == 0x0D {
                guard leafDepth < 0 || leafDepth == depth else { return nil }
                leafDepth = depth
                leaves.append(number)
                continue
            }
            guard page[0] == 0x05, leafDepth < 0 || depth < leafDepth else { return nil }
            interior.append(number)
            let cells = Int(page[3]) << 8 | Int(page[4])
            guard 12 + 2 * cells <= page.count else { return nil }
            // Pushed in reverse so that they pop in key order: the right-most child last.
            stack.append((Int(bigEndian32(page, 8)), depth + 1))
            for i in stride(from: cells - 1, through: 0, by: -1) {
                let cell = Int(page[12 + 2 * i]) << 8 | Int(page[13 + 2 * i])
                guard cell >= 12 + 2 * cells, cell + 4 <= page.count else { return nil }
                stack.append((Int(bigEndian32(page, cell)), depth + 1))
            }
        }
        return (interior, leaves)
    }

    /// The rows of some leaves: per cell, payload size, rowid, record header, the three integers
    /// and the blob's length from its serial type.
    static func scan(_ fd: Int32, _ layout: Layout, leaves: ArraySlice<Int>, zooms: ClosedRange<Int>) -> Rows? {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: layout.usable, alignment: 64)
        defer { buffer.deallocate() }
        let page = UnsafeRawBufferPointer(buffer)
        var rows = Rows(zoomCount: zooms.count)
        let u = layout.usable
        let maxLocal = u - 35, minLocal = (u - 12) * 32 / 255 - 23
        for number in leaves {
            guard layout.read(fd, number, into: buffer), page[0] == 0x0D else { return nil }
            let cells = Int(page[3]) << 8 | Int(page[4])
            guard 8 + 2 * cells <= u else { return nil }
            for i in 0..<cells {
                var at = Int(page[8 + 2 * i]) << 8 | Int(page[9 + 2 * i])
                guard at >= 8 + 2 * cells, at < u,
                      let payload = varint(page, &at), varint(page, &at) != nil else { return nil }
                var local = Int(clamping: payload)
                if payload > UInt64(maxLocal) {
                    let k = minLocal + (Int(clamping: payload) - minLocal) % (u - 4)
                    local = k <= maxLocal ? k : minLocal
                }
                let start = at, end = start + local
                guard end <= u, let headerSize = varint(page, &at), headerSize <= UInt64(local) else { return nil }
                let headerEnd = start + Int(headerSize)
                guard let t0 = varint(page, &at, below: headerEnd), let t1 = varint(page, &at, below: headerEnd),
                      let t2 = varint(page, &at, below: headerEnd), let t3 = varint(page, &at, below: headerEnd) else { return nil }
                var value = headerEnd
                guard let zoom = integer(page, &value, type: t0, end: end),
                      let x = integer(page, &value, type: t1, end: end),
                      let tmsRow = integer(page, &value, type: t2, end: end) else { return nil }
                let length: UInt64
                switch t3 {
                case 0: length = 0   // NULL: SQL's length() is NULL, read as 0
                case 12...: guard t3 & 1 == 0 else { return nil }   // text: length() counts characters
                    length = (t3 - 12) / 2
                default: return nil
                }
                rows.add(zoom: zoom, x: x, tmsRow: tmsRow, length: Int64(clamping: length), zooms: zooms)
            }
        }
        return rows
    }

    /// An SQLite varint at `at` (1-9 bytes, big-endian groups of 7 bits, the ninth byte whole),
    /// ending before `below`; advances `at`.
    static func varint(_ page: UnsafeRawBufferPointer, _ at: inout Int, below: Int? = nil) -> UInt64? {
        let limit = min(below ?? page.count, page.count)
        var value: UInt64 = 0
        for i in 0..<9 {
            guard at < limit else { return nil }
            let byte = page[at]
            at += 1
            if i == 8 { return value << 8 | UInt64(byte) }
            value = value << 7 | UInt64(byte & 0x7f)
            if byte & 0x80 == 0 { return value }
        }
        return nil
    }

    /// A record's integer value of serial type 1-6, 8 or 9 (big-endian two's complement of 1, 2,
    /// 3, 4, 6 or 8 bytes; the constants 0 and 1); nil for any other type or past `end`.
    static func integer(_ page: UnsafeRawBufferPointer, _ at: inout Int, type: UInt64, end: Int) -> Int64? {
        let width: Int
        switch type {
        case 8: return 0
        case 9: return 1
        case 1, 2, 3, 4: width = Int(type)
        case 5: width = 6
        case 6: width = 8
        default: return nil
        }
        guard at + width <= end else { return nil }
        var value = Int64(Int8(bitPattern: page[at]))   // sign from the first byte
        for i in 1..<width { value = value << 8 | Int64(page[at + i]) }
        at += width
        return value
    }

    private static func bigEndian32(_ page: UnsafeRawBufferPointer, _ at: Int) -> UInt32 {
        UInt32(page[at]) << 24 | UInt32(page[at + 1]) << 16 | UInt32(page[at + 2]) << 8 | UInt32(page[at + 3])
    }
}
