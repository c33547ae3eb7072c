import Foundation
import OffgridCore
import OSMPBF
import RoutingTiles
import TestSupport
import XCTest

/// Tile bytes depend on the roads only (not on the data version), and damaged tiles with a
/// recomputed CRC are refused by the decoder, never crash it.
final class TileBytesTests: XCTestCase {
    /// The sample PBF with its OSMHeader blob replaced by one with another replication state:
    /// same roads, another data version.
    private func sampleWithOtherHeader(_ scratch: Scratch) throws -> String {
        let sample = Array(try Data(contentsOf: URL(fileURLWithPath: samplePBF)))
        var writer = PBFWriter()
        writer.replicationTimestamp = 1_800_000_000
        writer.replicationSequenceNumber = 4242
        let header = try firstFrame(writer.encode(nodes: [], ways: [], relations: []))
        return try scratch.write("other.osm.pbf", Array(header) + sample[try firstFrame(sample).count...])
    }

    /// The first blob of a PBF file: u32 big-endian BlobHeader length, BlobHeader, Blob.
    private func firstFrame(_ bytes: [UInt8]) throws -> ArraySlice<UInt8> {
        let headerLength = Int(bytes[0]) << 24 | Int(bytes[1]) << 16 | Int(bytes[2]) << 8 | Int(bytes[3])
        var r = ByteReader(Array(bytes[4..<4 + headerLength]))
        var dataSize = 0
        while !r.isAtEnd {
            let key = try r.varint()
            switch key & 7 {
            case 0: let v = try r.varint(); if key >> 3 == 3 { dataSize = Int(v) }
            case 2: _ = try r.bytes(Int(try r.varint()))
            default: throw BinaryFormatError(offset: r.offset, "unexpected wire type in BlobHeader")
            }
        }
        return bytes[0..<4 + headerLength + dataSize]
    }

    func testTilesAreByteIdenticalAcrossDataVersions() throws {
        let scratch = Scratch()
        defer { scratch.remove() }
        let a = try buildTiles(samplePBF)
        let b = try buildTiles(try sampleWithOtherHeader(scratch))
        XCTAssertEqual(a.dataVersion, "2024-03-04-3988")
        XCTAssertEqual(b.dataVersion, "2027-01-15-4242")
        XCTAssertEqual(a.tiles.count, 3)
        XCTAssertEqual(a.tiles.map(\.id), b.tiles.map(\.id))
        for (x, y) in zip(a.tiles, b.tiles) { XCTAssertEqual(x.raw, y.raw, "tile \(x.id)") }
    }

    func testDamagedTilesWithValidChecksumsAreRefused() throws {
        let result = try buildTiles(samplePBF)
        let smallest = result.tiles.min { $0.raw.count < $1.raw.count }!.raw
        XCTAssertNoThrow(try RoutingTileCodec.decode(smallest))
        var rng = SplitMix64(seed: 3)
        var refused = 0, decoded = 0
        let total = 3_000
        for i in 0..<total {
            var b = smallest
            // The first third hits the header and counts (bytes 16..<60), the rest anywhere.
            let span = i < total / 3 ? 16..<min(60, b.count) : 16..<b.count
            switch rng.below(5) {
            case 0: b[rng.int(span.lowerBound, span.upperBound - 1)] ^= UInt8(1 << rng.below(8))
            case 1:
                let at = rng.int(span.lowerBound, span.upperBound - 1)
                for k in at..<min(b.count, at + 4) { b[k] = 0xFF }
            case 2:
                let at = rng.int(span.lowerBound, span.upperBound - 1)
                for k in at..<min(b.count, at + 1 + rng.below(64)) { b[k] = 0 }
            case 3:
                let x = rng.int(span.lowerBound, span.upperBound - 1), y = rng.int(16, b.count - 1)
                b.swapAt(x, y)
            default:
                let at = rng.int(span.lowerBound, span.upperBound - 1)
                for k in at..<min(b.count, at + 1 + rng.below(16)) { b[k] = UInt8(truncatingIfNeeded: rng.next()) }
            }
            let crc = b[16...].withUnsafeBytes { CRC32.checksum($0) }
            withUnsafeBytes(of: crc.littleEndian) { for k in 0..<4 { b[12 + k] = $0[k] } }
            do {
                let tile = try RoutingTileCodec.decode(b)
                // What decodes is usable: every index the readers follow is inside the tile.
                XCTAssertNil(tile.contentProblem())
                for e in tile.edges {
                    XCTAssertLessThan(Int(e.fromNode), tile.nodes.count)
                    XCTAssertLessThanOrEqual(Int(e.shapeStart + e.shapeCount), tile.shapeLatE7.count)
                    XCTAssertLessThan(Int(e.tags), tile.tagSetCount)
                }
                decoded += 1
            } catch is BinaryFormatError {
                refused += 1
            }
        }
        XCTAssertEqual(refused + decoded, total)
        XCTAssertGreaterThan(refused, total / 3, "decoded \(decoded)")
    }
}
