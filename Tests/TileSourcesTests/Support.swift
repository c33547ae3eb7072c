import OffgridCore
import Foundation
import TileSources
import TestSupport
import XCTest

let repositoryRoot = TestTools.repositoryRoot
let sampleMBTiles = repositoryRoot.appendingPathComponent("samples/liechtenstein.mbtiles").path
let samplePMTiles = repositoryRoot.appendingPathComponent("samples/liechtenstein.pmtiles").path


func fileBytes(_ path: String) -> [UInt8] { [UInt8](FileManager.default.contents(atPath: path) ?? Data()) }

/// Runs the sqlite3 command line on `path` (SQL fixtures; `before`: dot-commands run first, each
/// as `-cmd`) and asserts it succeeded. sqlite3 is a test dependency: make test-deps installs it.
func sqlite3(_ path: String, _ sql: String, before: [String] = [], what: String = "sqlite3 made the fixture",
             file: StaticString = #filePath, line: UInt = #line) throws {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
    p.arguments = before.flatMap { ["-cmd", $0] } + [path, sql]
    try p.run()
    p.waitUntilExit()
    XCTAssertEqual(p.terminationStatus, 0, what, file: file, line: line)
}


/// An independent, minimal PMTiles v3 writer for fixtures: tiles sorted by id, identical
/// consecutive tiles as run-length entries, identical non-consecutive tiles sharing bytes,
/// root directory only or root + leaf directories of `leafSize` entries.
enum PMTilesFixture {
    struct Tile { var id: UInt64; var bytes: [UInt8] }

    static func varint(_ v: UInt64, _ out: inout [UInt8]) {
        var v = v
        while v >= 0x80 { out.append(UInt8(v & 0x7f) | 0x80); v >>= 7 }
        out.append(UInt8(v))
    }

    struct Entry { var id: UInt64; var offset: UInt64; var length: UInt64; var run: UInt64 }

    static func directory(_ entries: [Entry]) -> [UInt8] {
        var out: [UInt8] = []
        varint(UInt64(entries.count), &out)
        var last: UInt64 = 0
        for e in entries { varint(e.id - last, &out); last = e.id }
        for e in entries { varint(e.run, &out) }
        for e in entries { varint(e.length, &out) }
        for (i, e) in entries.enumerated() {
            if i > 0 && e.offset == entries[i - 1].offset + entries[i - 1].length { varint(0, &out) } else { varint(e.offset + 1, &out) }
        }
        return out
    }

    static func build(tiles: [Tile], leafSize: Int? = nil, gzipInternal: Bool = true,
                      metadata: [String: Any] = ["name": "fixture"], tileType: UInt8 = 1, tileCompression: UInt8 = 2,
                      minZoom: UInt8 = 0, maxZoom: UInt8 = 14) -> [UInt8] {
        let sorted = tiles.sorted { $0.id < $1.id }
        var data: [UInt8] = []
        var seen: [[UInt8]: UInt64] = [:]
        var entries: [Entry] = []
        for t in sorted {
            if var last = entries.last, last.id + last.run == t.id,
               Array(data[Int(last.offset)..<Int(last.offset + last.length)]) == t.bytes {
                last.run += 1
                entries[entries.count - 1] = last
                continue
            }
            let offset: UInt64
            if let o = seen[t.bytes] { offset = o } else {
                offset = UInt64(data.count)
                seen[t.bytes] = offset
                data += t.bytes
            }
            entries.append(Entry(id: t.id, offset: offset, length: UInt64(t.bytes.count), run: 1))
        }
        func compress(_ b: [UInt8]) -> [UInt8] { gzipInternal ? Zlib.gzip(b) : b }
        var root: [UInt8]
        var leaves: [UInt8] = []
        if let leafSize {
            var rootEntries: [Entry] = []
            var i = 0
            while i < entries.count {
                let chunk = Array(entries[i..<min(entries.count, i + leafSize)])
                let bytes = compress(directory(chunk))
                rootEntries.append(Entry(id: chunk[0].id, offset: UInt64(leaves.count), length: UInt64(bytes.count), run: 0))
                leaves += bytes
                i += leafSize
            }
            root = compress(directory(rootEntries))
        } else {
            root = compress(directory(entries))
        }
        let meta = compress(Array(try! JSONSerialization.data(withJSONObject: metadata, options: [.sortedKeys])))
        let rootOffset: UInt64 = 127
        let metaOffset = rootOffset + UInt64(root.count)
        let leafOffset = metaOffset + UInt64(meta.count)
        let dataOffset = leafOffset + UInt64(leaves.count)
        var w = ByteWriter()
        w.append(contentsOf: Array("PMTiles".utf8)); w.u8(3)
        for v in [rootOffset, UInt64(root.count), metaOffset, UInt64(meta.count), leafOffset, UInt64(leaves.count),
                  dataOffset, UInt64(data.count), UInt64(sorted.count), UInt64(entries.count), UInt64(seen.count)] { w.u64(v) }
        w.u8(1); w.u8(gzipInternal ? 2 : 1); w.u8(tileCompression); w.u8(tileType); w.u8(minZoom); w.u8(maxZoom)
        for v: Int32 in [-1_800_000_000, -850_000_000, 1_800_000_000, 850_000_000] { w.i32(v) }
        w.u8(0); w.i32(0); w.i32(0)
        precondition(w.count == 127)
        return w.bytes + root + meta + leaves + data
    }
}
