import OffgridCore
import Foundation
@testable import RoutingPacks
import TestSupport
import XCTest

final class RoutingPackRoundTripTests: XCTestCase {
    var scratch: ScratchDirectory!

    override func setUp() { scratch = ScratchDirectory() }
    override func tearDown() { scratch.remove() }

    func testWriteThenReadGivesBackHeaderAndEveryTile() throws {
        let ids: [UInt32] = [907, 3, 1_000_000, 44, 45, 4_294_967_295]
        let geo = #"{"type":"Polygon","coordinates":[[[9.5,47.1],[9.6,47.1],[9.6,47.2],[9.5,47.1]]]}"#
        let header = PackFixtures.header(geoJSON: geo)
        let path = try PackFixtures.writePack(scratch, name: "li.routing.pack", ids: ids, header: header)

        let reader = try RoutingPackReader(path: path)
        XCTAssertEqual(reader.header, header)
        XCTAssertEqual(reader.entries.map(\.tileID), ids.sorted())
        XCTAssertEqual(reader.fileSize, PackFixtures.bytes(path).count)
        XCTAssertEqual(reader.totalCompressedBytes, reader.entries.reduce(0) { $0 + Int64($1.compressedSize) })
        for (i, entry) in reader.entries.enumerated() {
            let raw = try reader.tileBytes(at: i)
            XCTAssertEqual(raw, PackFixtures.tileBytes(id: entry.tileID))
            XCTAssertEqual(Int(entry.rawSize), raw.count)
            XCTAssertEqual(entry.rawCRC32, CRC32.checksum(raw))
            XCTAssertEqual(reader.index(ofTile: entry.tileID), i)
        }
        XCTAssertEqual(try reader.tileBytes(id: 44), PackFixtures.tileBytes(id: 44))
        XCTAssertNil(try reader.tileBytes(id: 5))
        XCTAssertNil(reader.index(ofTile: 0))
        XCTAssertEqual(scratch.leftovers(), [], "atomic write left a temporary file")
    }

    func testSameInputsGiveByteIdenticalFilesWhateverTheTileOrder() throws {
        let ids: [UInt32] = Array(100..<140)
        let header = PackFixtures.header()
        let a = try PackFixtures.writePack(scratch, name: "a.routing.pack", ids: ids, header: header)
        let b = scratch.path("b.routing.pack")
        try RoutingPackWriter.write(header: header, tiles: PackFixtures.tiles(ids: ids.reversed()), to: b)
        XCTAssertEqual(PackFixtures.bytes(a), PackFixtures.bytes(b))
        XCTAssertEqual(PackFixtures.bytes(a), try RoutingPackWriter.encode(header: header, tiles: PackFixtures.tiles(ids: ids)))

        // Rewriting over an existing file replaces it atomically with the same bytes.
        try PackFixtures.writePack(scratch, name: "a.routing.pack", ids: ids, header: header)
        XCTAssertEqual(PackFixtures.bytes(a), PackFixtures.bytes(b))
    }

    func testLayoutMatchesTheDocumentedOffsets() throws {
        let header = PackFixtures.header()
        let bytes = try RoutingPackWriter.encode(header: header, tiles: PackFixtures.tiles(ids: [7, 9]))
        var r = ByteReader(bytes)
        XCTAssertEqual(Array(try r.bytes(8)), Array("OGRPACK\0".utf8))
        XCTAssertEqual(try r.u32(), 2)                       // 8 version
        XCTAssertEqual(try r.u32(), 1)                       // 12 flags: compressed entries
        XCTAssertEqual(try r.u64(), UInt64(bytes.count))     // 16 file size
        let headerLength = Int(try r.u32())                  // 24
        XCTAssertEqual(try r.u32(), CRC32.checksum(bytes[64..<64 + headerLength]))  // 28
        XCTAssertEqual(try r.u32(), 2)                       // 32 entry count
        let indexLength = Int(try r.u32())                   // 36
        let indexCRC = try r.u32()                           // 40
        XCTAssertEqual(try r.u32(), 0)                       // 44 reserved
        let indexOffset = Int(try r.u64())                   // 48
        XCTAssertEqual(try r.u32(), 0)                       // 56 reserved
        XCTAssertEqual(try r.u32(), CRC32.checksum(bytes[0..<60]))  // 60
        XCTAssertEqual(indexOffset, (64 + headerLength + 7) / 8 * 8)
        let dataOffset = indexOffset + indexLength
        XCTAssertEqual(indexLength, 2 * 34, "u16 key length, 4-byte key, offset, length, raw length, CRC32")
        XCTAssertEqual(indexCRC, CRC32.checksum(bytes[indexOffset..<dataOffset]))
        try r.seek(64)
        XCTAssertEqual(try r.f64(), 0.25)
        XCTAssertEqual(try r.f64(), 9.47)
        try r.seek(64 + 40)
        XCTAssertEqual(try r.string(), "2024-05-01-1")
        try r.seek(indexOffset)
        XCTAssertEqual(try r.u16(), 4)
        XCTAssertEqual(Array(try r.bytes(4)), [0, 0, 0, 7])  // tile id, big-endian
        XCTAssertEqual(try r.u64(), UInt64(dataOffset))
        let compressed = Int(try r.u64())
        let raw = PackFixtures.tileBytes(id: 7)
        XCTAssertEqual(try r.u64(), UInt64(raw.count))
        XCTAssertEqual(try r.u32(), CRC32.checksum(raw))
        XCTAssertEqual(try Zlib.decompress(Array(bytes[dataOffset..<dataOffset + compressed]), rawSize: raw.count), raw)
    }

    func testEmptyPackAndEmptyTileRoundTrip() throws {
        let empty = scratch.path("empty.routing.pack")
        try RoutingPackWriter.write(header: PackFixtures.header(), tiles: [], to: empty)
        XCTAssertEqual(try RoutingPackReader(path: empty).tileCount, 0)

        let withEmptyTile = scratch.path("e.routing.pack")
        try RoutingPackWriter.write(header: PackFixtures.header(), tiles: [(id: 1, raw: []), (id: 2, raw: [42])],
                                    to: withEmptyTile)
        let reader = try RoutingPackReader(path: withEmptyTile)
        XCTAssertEqual(try reader.tileBytes(at: 0), [])
        XCTAssertEqual(try reader.tileBytes(at: 1), [42])
    }

    func testWriterRefusesBadInputAndKeepsThePreviousFile() throws {
        let path = try PackFixtures.writePack(scratch, name: "keep.routing.pack", ids: [1, 2])
        let before = PackFixtures.bytes(path)
        assertInputError(try RoutingPackWriter.write(header: PackFixtures.header(),
                                                     tiles: PackFixtures.tiles(ids: [5, 6, 5]), to: path),
                         contains: "tile 5 is given twice")
        assertInputError(try RoutingPackWriter.write(header: PackFixtures.header(dataVersion: "2024-5-1"),
                                                     tiles: [], to: path), contains: "yyyy-MM-dd-N")
        assertInputError(try RoutingPackWriter.write(header: PackFixtures.header(profileHash: "xyz"),
                                                     tiles: [], to: path), contains: "not hexadecimal")
        assertInputError(try RoutingPackWriter.write(header: PackFixtures.header(gridDegrees: 0), tiles: [], to: path),
                         contains: "grid")
        assertInputError(try RoutingPackWriter.write(header: PackFixtures.header(geoJSON: "[1,2]"), tiles: [], to: path),
                         contains: "GeoJSON")
        assertInputError(try RoutingPackWriter.write(header: PackFixtures.header(), tiles: [],
                                                     to: scratch.path("no/such/dir/x.routing.pack")),
                         contains: "cannot create temporary file")
        XCTAssertEqual(PackFixtures.bytes(path), before)
        XCTAssertEqual(scratch.leftovers(), [])
    }

    func testDataVersionSyntax() {
        XCTAssertTrue(RoutingPackHeader.isDataVersion("2024-05-01-1"))
        XCTAssertTrue(RoutingPackHeader.isDataVersion("2024-05-01-12"))
        for bad in ["", "2024-05-01", "2024-05-01-", "2024-5-01-1", "2024-05-01-1-2", "abcd-05-01-1", "2024-05-01-x"] {
            XCTAssertFalse(RoutingPackHeader.isDataVersion(bad), bad)
        }
    }
}
