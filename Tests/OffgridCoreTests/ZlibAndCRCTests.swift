import XCTest
@testable import OffgridCore
import TestSupport

final class ZlibAndCRCTests: XCTestCase {
    func testCRC32CheckValue() {
        // The standard check value of CRC-32/ISO-HDLC.
        XCTAssertEqual(CRC32.checksum(Array("123456789".utf8)), 0xCBF4_3926)
        XCTAssertEqual(CRC32.checksum([UInt8]()), 0)
    }

    func testCRC32Incremental() {
        let bytes = Array("123456789".utf8)
        let first = CRC32.checksum(bytes[0..<4])
        XCTAssertEqual(CRC32.checksum(bytes[4...], seed: first), 0xCBF4_3926)
    }

    func testRoundTrips() throws {
        var rng = SplitMix64(seed: 3)
        let inputs: [[UInt8]] = [
            [],
            [42],
            rng.bytes(10_000),                                          // incompressible
            [UInt8](repeating: 7, count: 100_000),                      // very compressible
            Array(String(repeating: "highway=residential;", count: 500).utf8),
        ]
        for input in inputs {
            let packed = Zlib.compress(input)
            XCTAssertEqual(try Zlib.decompress(packed, rawSize: input.count), input)
            XCTAssertEqual(Zlib.compress(input), packed, "compression must be deterministic")
        }
        XCTAssertLessThan(Zlib.compress([UInt8](repeating: 7, count: 100_000)).count, 1000)
    }

    func testCorruptStream() {
        let input = Array(String(repeating: "offgrid ", count: 200).utf8)
        var packed = Zlib.compress(input)
        packed[0] ^= 0xFF // header check fails
        XCTAssertThrowsError(try Zlib.decompress(packed, rawSize: input.count)) { error in
            XCTAssertTrue("\(error)".contains("corrupt"), "\(error)")
        }
        var garbage = Zlib.compress(input)
        for i in 2..<garbage.count - 4 { garbage[i] = 0xFF }
        XCTAssertThrowsError(try Zlib.decompress(garbage, rawSize: input.count))
        // Checksum (Adler-32 trailer) mismatch.
        var badTrailer = Zlib.compress(input)
        badTrailer[badTrailer.count - 1] ^= 0x01
        XCTAssertThrowsError(try Zlib.decompress(badTrailer, rawSize: input.count))
    }

    func testTruncatedStream() {
        var rng = SplitMix64(seed: 11)
        let input = rng.bytes(5000)
        let packed = Zlib.compress(input)
        XCTAssertThrowsError(try Zlib.decompress(Array(packed[0..<packed.count / 2]), rawSize: input.count)) { error in
            XCTAssertTrue("\(error)".contains("truncated"), "\(error)")
        }
        XCTAssertThrowsError(try Zlib.decompress([], rawSize: input.count))
    }

    /// The header, every deflate block and the 4-byte trailer's Adler-32 are all checked (zlib
    /// inflates the deflate data raw; the header and the checksum are checked by `decompress`).
    func testHeaderAndTrailerAreChecked() throws {
        var rng = SplitMix64(seed: 5)
        for input in [[], rng.bytes(7_000), Array(String(repeating: "junction;", count: 900).utf8)] {
            let packed = Zlib.compress(input)
            XCTAssertEqual(try Zlib.decompress(packed[...], rawSize: input.count), input)
            for at in packed.count - 4 ..< packed.count {
                var otherSum = packed
                otherSum[at] ^= 0x01
                XCTAssertThrowsError(try Zlib.decompress(otherSum, rawSize: input.count)) { error in
                    XCTAssertTrue("\(error)".contains("incorrect data check"), "\(error)")
                }
            }
            for cut in 1...4 {
                XCTAssertThrowsError(try Zlib.decompress(packed[..<(packed.count - cut)], rawSize: input.count)) { error in
                    XCTAssertTrue("\(error)".contains("truncated"), "\(error)")
                }
            }
            XCTAssertThrowsError(try Zlib.decompress(packed[..<1], rawSize: input.count))
            for (at, flip) in [(0, 0x01), (0, 0x80), (1, 0x01)] {
                var header = packed
                header[at] ^= UInt8(flip)
                XCTAssertThrowsError(try Zlib.decompress(header[...], rawSize: input.count)) { error in
                    XCTAssertTrue("\(error)".contains("corrupt zlib stream"), "byte \(at) ^ \(flip): \(error)")
                }
            }
            // A preset dictionary (FDICT) with a valid header check: zlib would ask for the dictionary.
            var dictionary = packed
            dictionary[1] = 0x20
            dictionary[1] += UInt8(31 - (Int(dictionary[0]) << 8 | Int(dictionary[1])) % 31)
            XCTAssertThrowsError(try Zlib.decompress(dictionary[...], rawSize: input.count)) { error in
                XCTAssertTrue("\(error)".contains("preset dictionary"), "\(error)")
            }
        }
    }

    func testWrongExpectedSize() {
        let input = Array(String(repeating: "abc", count: 100).utf8)
        let packed = Zlib.compress(input)
        XCTAssertThrowsError(try Zlib.decompress(packed, rawSize: input.count + 1)) { error in
            XCTAssertTrue("\(error)".contains("expected"), "\(error)")
        }
        XCTAssertThrowsError(try Zlib.decompress(packed, rawSize: input.count - 1)) { error in
            XCTAssertTrue("\(error)".contains("more than"), "\(error)")
        }
    }
}
