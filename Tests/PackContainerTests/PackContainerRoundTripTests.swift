import OffgridCore
import PackContainer
import TestSupport
import XCTest
import Foundation

/// Real bytes through the one container: what goes in comes out, byte-identical for the same
/// input, and one entry is read without touching the others.
final class PackContainerRoundTripTests: XCTestCase {
    static let plain = PackKind(name: "test pack", magic: "OGTPACK", version: 1, compressed: false, hasSHA256: true,
                                maxHeaderLength: 1 << 16, maxEntries: 1 << 16, maxKeyLength: 64, maxEntryLength: 1 << 20,
                                describeKey: { "entry \(String(decoding: $0, as: UTF8.self))" })
    static let zipped = PackKind(name: "zipped pack", magic: "OGZPACK", version: 3, compressed: true, hasSHA256: false,
                                 maxHeaderLength: 1 << 16, maxEntries: 1 << 16, maxKeyLength: 8, maxEntryLength: 1 << 20,
                                 describeKey: { "entry \(Array($0))" })

    private func items(_ rng: inout SplitMix64, count: Int) -> [PackWriter.Item] {
        (0..<count).map { i in (Array("k\(i * 7919 % 1000)".utf8), rng.bytes(rng.int(0, 300))[...]) }
    }

    func testRoundTripBothKindsInMemoryAndFromFile() throws {
        var rng = SplitMix64(seed: 1)
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("packcontainer-\(getpid())").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for kind in [Self.plain, Self.zipped] {
            let input = items(&rng, count: 50)
            let header = rng.bytes(13)
            let bytes = try PackWriter.encode(kind: kind, header: header, items: input)
            XCTAssertEqual(try PackWriter.encode(kind: kind, header: header, items: input.reversed()), bytes, "order-independent bytes")
            let path = dir + "/p.pack"
            XCTAssertEqual(try PackWriter.write(kind: kind, header: header, items: input, to: path), bytes.count)
            XCTAssertEqual(Array(try Data(contentsOf: URL(fileURLWithPath: path))), bytes)
            for reader in [try PackReader(bytes: bytes, name: "mem", kind: kind), try PackReader(path: path, kind: kind)] {
                XCTAssertEqual(reader.headerBytes, header)
                XCTAssertEqual(reader.entryCount, input.count)
                for (key, content) in input {
                    XCTAssertEqual(try reader.entryBytes(key: key), Array(content))
                }
                XCTAssertNil(try reader.entryBytes(key: Array("absent".utf8)))
                for i in 1..<reader.entryCount {
                    XCTAssertTrue(reader.index.key(i - 1).lexicographicallyPrecedes(reader.index.key(i)))
                }
                try reader.verifyAll()
            }
        }
    }

    func testDeduplicatedContentIsStoredOnce() throws {
        let same: ArraySlice<UInt8> = Array(repeating: 7, count: 100)[...]
        let input: [PackWriter.Item] = [(Array("a".utf8), same), (Array("b".utf8), [1, 2][...]), (Array("c".utf8), same),
                                        (Array("d".utf8), [][...]), (Array("e".utf8), [][...])]
        let parts = try PackWriter.encodeParts(kind: Self.plain, header: [], items: input, deduplicate: true)
        XCTAssertEqual(parts.uniqueBlobs, 3)
        let bytes = try PackWriter.encode(kind: Self.plain, header: [], items: input, deduplicate: true)
        let reader = try PackReader(bytes: bytes, name: "d", kind: Self.plain)
        XCTAssertEqual(reader.index.uniqueBlobs, 3)
        XCTAssertEqual(reader.index.offset(0), reader.index.offset(2))
        for (key, content) in input { XCTAssertEqual(try reader.entryBytes(key: key), Array(content)) }
    }

    func testSingleEntryReadChecksOnlyThatEntry() throws {
        var rng = SplitMix64(seed: 2)
        let input = items(&rng, count: 10).map { ($0.key, rng.bytes(50)[...]) }
        var bytes = try PackWriter.encode(kind: Self.plain, header: [1], items: input)
        let reader = try PackReader(bytes: bytes, name: "x", kind: Self.plain)
        let victim = 4
        bytes[reader.index.offset(victim) + 10] ^= 0x20
        let damaged = try PackReader(bytes: bytes, name: "x", kind: Self.plain)   // the index is intact
        for i in 0..<damaged.entryCount where i != victim { _ = try damaged.entryBytes(at: i) }
        XCTAssertThrowsError(try damaged.entryBytes(at: victim)) { error in
            let e = error as? InputError
            XCTAssertEqual(e?.file, "x")
            XCTAssertEqual(e?.offset, reader.index.offset(victim))
            XCTAssertTrue(e?.message.contains("CRC32") ?? false, "\(error)")
        }
    }

    func testWriterRefusesDuplicateAndOversizedKeys() {
        XCTAssertThrowsError(try PackWriter.encode(kind: Self.plain, header: [], items: [([1], [][...]), ([1], [2][...])]))
        XCTAssertThrowsError(try PackWriter.encode(kind: Self.zipped, header: [], items: [(Array(repeating: 1, count: 9), [][...])]))
        XCTAssertThrowsError(try PackWriter.encode(kind: Self.plain, header: [], items: [([], [][...])]))
    }

    func testForeignAndWrongKindFilesAreNamed() throws {
        let bytes = try PackWriter.encode(kind: Self.plain, header: [], items: [])
        XCTAssertThrowsError(try PackReader(bytes: bytes, name: "w", kind: Self.zipped)) { error in
            XCTAssertTrue("\(error)".contains("not a zipped pack"), "\(error)")
        }
        XCTAssertThrowsError(try PackReader(bytes: [0x1f, 0x8b, 8, 0], name: "g", kind: Self.plain)) { error in
            XCTAssertTrue("\(error)".contains("gzip"), "\(error)")
        }
    }
}
