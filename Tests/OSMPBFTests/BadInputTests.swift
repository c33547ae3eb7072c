import Foundation
import OSMPBF
import OffgridCore
import XCTest
import TestSupport

/// Every kind of bad input gets one InputError naming the file (and the byte offset).
final class BadInputTests: XCTestCase {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("offgrid-pbf-bad-\(getpid())")

    override func setUpWithError() throws {
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: dir)
    }

    func write(_ name: String, _ bytes: [UInt8]) throws -> String {
        let url = dir.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url.path
    }

    /// Reads the whole file and returns the error it gave.
    func readError(_ path: String, file: StaticString = #filePath, line: UInt = #line) -> InputError? {
        do {
            _ = try PBFReader(path: path).statistics()
            XCTFail("\(path) was read without error", file: file, line: line)
            return nil
        } catch let e as InputError {
            XCTAssertEqual(e.file, path, file: file, line: line)
            XCTAssertFalse(e.description.contains("\n"), file: file, line: line)
            return e
        } catch {
            XCTFail("unexpected error type \(error)", file: file, line: line)
            return nil
        }
    }

    var sample: [UInt8] { get throws { Array(try Data(contentsOf: URL(fileURLWithPath: samplePBF))) } }

    /// Offsets where frames start, from the 4-byte lengths and BlobHeader datasize fields.
    func frameOffsets(_ bytes: [UInt8]) -> [Int] {
        var offsets: [Int] = []
        var p = 0
        while p + 4 <= bytes.count {
            offsets.append(p)
            let h = Int(bytes[p]) << 24 | Int(bytes[p + 1]) << 16 | Int(bytes[p + 2]) << 8 | Int(bytes[p + 3])
            // datasize is field 3 (varint) of the BlobHeader: scan for key 0x18.
            var q = p + 4, size = 0
            while q < p + 4 + h {
                if bytes[q] == 0x18 {
                    var shift = 0; q += 1
                    while true { size |= Int(bytes[q] & 0x7f) << shift; if bytes[q] & 0x80 == 0 { break }; shift += 7; q += 1 }
                    break
                }
                q += 1
            }
            p += 4 + h + size
        }
        return offsets
    }

    func testTruncatedFiles() throws {
        let bytes = try sample
        let frames = frameOffsets(bytes)
        XCTAssertEqual(frames.count, 47)
        for cut in [2, frames[1] + 3, frames[1] + 9, frames[5] + 1000, bytes.count - 1] {
            let path = try write("cut-\(cut).osm.pbf", Array(bytes[0..<cut]))
            let e = readError(path)
            XCTAssertTrue(e?.message.contains("truncated") ?? false, "\(cut): \(String(describing: e))")
            XCTAssertNotNil(e?.offset)
        }
    }

    func testCorruptBlob() throws {
        var bytes = try sample
        let frames = frameOffsets(bytes)
        let middle = (frames[3] + frames[4]) / 2
        for i in 0..<16 { bytes[middle + i] ^= 0x5a }
        let e = readError(try write("corrupt.osm.pbf", bytes))
        XCTAssertTrue(e?.message.contains("corrupt") ?? false, String(describing: e))
        XCTAssertEqual(e?.offset, frames[3])
    }

    func testBlobHeaderOver64KiB() throws {
        let bytes = try sample
        let frames = frameOffsets(bytes)
        let head = Array(bytes[0..<frames[1]]) + [0x00, 0x01, 0x00, 0x01] + [UInt8](repeating: 0, count: 70_000)
        let e = readError(try write("bigheader.osm.pbf", head))
        XCTAssertEqual(e?.message, "blob header size 65537 is over the 64 KiB limit")
        XCTAssertEqual(e?.offset, frames[1])
    }

    func testBlobOver32MiB() throws {
        let bytes = try sample
        let frames = frameOffsets(bytes)
        var header = ProtoMessage()
        header.string(1, "OSMData")
        header.uint(3, 40 << 20)
        let n = header.bytes.count
        let file = Array(bytes[0..<frames[1]]) + [0, 0, 0, UInt8(n)] + header.bytes + [UInt8](repeating: 0, count: 100)
        let e = readError(try write("bigblob.osm.pbf", file))
        XCTAssertEqual(e?.message, "blob size 41943040 is over the 32 MiB limit")
    }

    func testUnsupportedRequiredFeature() throws {
        var writer = PBFWriter()
        writer.requiredFeatures = ["OsmSchema-V0.6", "DenseNodes", "HistoricalInformation"]
        let path = try write("history.osh.pbf", writer.encode(nodes: [OSMNode(id: 1, lat: 1, lon: 1)], ways: [], relations: []))
        XCTAssertThrowsError(try PBFReader(path: path)) { error in
            let e = error as? InputError
            XCTAssertEqual(e?.message, "unsupported required feature: HistoricalInformation")
            XCTAssertEqual(e?.offset, 0)
            XCTAssertEqual(e?.file, path)
        }
    }

    func testUnsupportedCompression() throws {
        var blob = ProtoMessage()
        blob.uint(2, 10)
        blob.bytes(4, [1, 2, 3])   // lzma_data
        var header = ProtoMessage()
        header.string(1, "OSMData")
        header.uint(3, UInt64(blob.bytes.count))
        let valid = PBFWriter().encode(nodes: [], ways: [], relations: [])
        let file = valid + [0, 0, 0, UInt8(header.bytes.count)] + header.bytes + blob.bytes
        let e = readError(try write("lzma.osm.pbf", file))
        XCTAssertEqual(e?.message, "unsupported blob compression: lzma")
        XCTAssertEqual(e?.offset, valid.count)
    }

    func testNotPBF() throws {
        let xml = try write("x.osm", Array("<?xml version='1.0'?><osm version='0.6'></osm>\n".utf8))
        XCTAssertThrowsError(try PBFReader(path: xml)) { error in
            XCTAssertTrue((error as? InputError)?.message.hasPrefix("not an OSM PBF file") ?? false, "\(error)")
        }
        let empty = try write("empty.osm.pbf", [])
        XCTAssertThrowsError(try PBFReader(path: empty)) { error in
            XCTAssertEqual((error as? InputError)?.message, "empty file, not an OSM PBF file")
        }
        XCTAssertThrowsError(try PBFReader(path: dir.appendingPathComponent("missing.osm.pbf").path)) { error in
            XCTAssertTrue((error as? InputError)?.message.hasPrefix("cannot open") ?? false)
        }
        XCTAssertThrowsError(try PBFReader(path: dir.path)) { error in
            XCTAssertTrue((error as? InputError)?.message.contains("directory") ?? false)
        }
        // A data blob where the header should be.
        var header = ProtoMessage()
        header.string(1, "OSMData")
        header.uint(3, 0)
        let dataFirst = try write("datafirst.osm.pbf", [0, 0, 0, UInt8(header.bytes.count)] + header.bytes)
        XCTAssertThrowsError(try PBFReader(path: dataFirst)) { error in
            XCTAssertEqual((error as? InputError)?.message, "not an OSM PBF file (first blob is 'OSMData', expected 'OSMHeader')")
        }
    }

    /// Random garbage never crashes the reader: it errors cleanly or (rarely) reads nothing.
    func testRandomBytesAndBitFlips() throws {
        var rng = SplitMix64(seed: 42)
        let bytes = try sample
        let frames = frameOffsets(bytes)
        let prefix = Array(bytes[0..<frames[3]])
        for i in 0..<200 {
            var mutated = prefix
            for _ in 0..<(1 + i % 4) {
                let at = Int(rng.next() % UInt64(mutated.count))
                mutated[at] ^= UInt8(truncatingIfNeeded: rng.next() | 1)
            }
            let path = try write("flip-\(i).osm.pbf", mutated)
            do { _ = try PBFReader(path: path).statistics() } catch is InputError {} catch { XCTFail("\(error)") }
        }
        for i in 0..<50 {
            let garbage = (0..<(Int(rng.next() % 5000) + 1)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            let path = try write("garbage-\(i).bin", garbage)
            do { _ = try PBFReader(path: path).statistics(); XCTFail("garbage \(i) accepted") } catch is InputError {} catch { XCTFail("\(error)") }
        }
    }
}

