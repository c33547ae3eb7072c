import XCTest
@testable import OffgridCore

final class ByteIOTests: XCTestCase {
    func testFixedWidthRoundTripIsLittleEndian() throws {
        var w = ByteWriter()
        w.u8(0xAB)
        w.u16(0x1234)
        w.u32(0xDEAD_BEEF)
        w.u64(0x0102_0304_0506_0708)
        w.i32(-2)
        w.i64(Int64.min)
        w.f64(-0.5)
        w.f64(.infinity)
        XCTAssertEqual(Array(w.bytes[0..<7]), [0xAB, 0x34, 0x12, 0xEF, 0xBE, 0xAD, 0xDE])
        var r = ByteReader(w.bytes)
        XCTAssertEqual(try r.u8(), 0xAB)
        XCTAssertEqual(try r.u16(), 0x1234)
        XCTAssertEqual(try r.u32(), 0xDEAD_BEEF)
        XCTAssertEqual(try r.u64(), 0x0102_0304_0506_0708)
        XCTAssertEqual(try r.i32(), -2)
        XCTAssertEqual(try r.i64(), Int64.min)
        XCTAssertEqual(try r.f64(), -0.5)
        XCTAssertEqual(try r.f64(), .infinity)
        XCTAssertTrue(r.isAtEnd)
        XCTAssertEqual(r.remaining, 0)
    }

    func testVarintEncodingsAndEdgeValues() throws {
        func encoded(_ v: UInt64) -> [UInt8] { var w = ByteWriter(); w.varint(v); return w.bytes }
        XCTAssertEqual(encoded(0), [0x00])
        XCTAssertEqual(encoded(127), [0x7F])
        XCTAssertEqual(encoded(128), [0x80, 0x01])
        XCTAssertEqual(encoded(300), [0xAC, 0x02])
        XCTAssertEqual(encoded(UInt64.max), [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01])

        let values: [UInt64] = [0, 1, 127, 128, 16383, 16384, UInt64(UInt32.max), 1 << 63, UInt64.max - 1, UInt64.max]
        var w = ByteWriter()
        for v in values { w.varint(v) }
        var r = ByteReader(w.bytes)
        for v in values { XCTAssertEqual(try r.varint(), v) }
        XCTAssertTrue(r.isAtEnd)
    }

    func testSignedVarintZigZag() throws {
        func encoded(_ v: Int64) -> [UInt8] { var w = ByteWriter(); w.svarint(v); return w.bytes }
        XCTAssertEqual(encoded(0), [0x00])
        XCTAssertEqual(encoded(-1), [0x01])
        XCTAssertEqual(encoded(1), [0x02])
        XCTAssertEqual(encoded(-64), [0x7F])
        XCTAssertEqual(encoded(64), [0x80, 0x01])

        let values: [Int64] = [0, -1, 1, 63, -64, 64, -65, Int64(Int32.max), Int64(Int32.min), Int64.max, Int64.min, Int64.min + 1]
        var w = ByteWriter()
        for v in values { w.svarint(v) }
        var r = ByteReader(w.bytes)
        for v in values { XCTAssertEqual(try r.svarint(), v) }
        XCTAssertTrue(r.isAtEnd)
    }

    func testMalformedVarints() {
        var truncated = ByteReader([0x80, 0x80])
        XCTAssertThrowsError(try truncated.varint()) { error in
            XCTAssertTrue("\(error)".contains("truncated varint"), "\(error)")
        }
        // Ten bytes whose last carries more than the one remaining bit of a UInt64.
        var overflow = ByteReader([0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x02])
        XCTAssertThrowsError(try overflow.varint()) { error in
            XCTAssertTrue("\(error)".contains("overflows"), "\(error)")
        }
        var tooLong = ByteReader([UInt8](repeating: 0x80, count: 9) + [0x81, 0x00])
        XCTAssertThrowsError(try tooLong.varint())
    }

    func testTruncatedReadsThrowWithOffset() {
        var r = ByteReader([1, 2, 3])
        XCTAssertThrowsError(try r.u32()) { error in
            let e = error as? BinaryFormatError
            XCTAssertEqual(e?.offset, 0)
            XCTAssertTrue("\(error)".contains("truncated"), "\(error)")
        }
        XCTAssertEqual(r.offset, 0, "a failed read must not move the cursor")
        XCTAssertEqual(try r.u16(), 0x0201)
        XCTAssertThrowsError(try r.u16())
        XCTAssertThrowsError(try r.u64())
        XCTAssertThrowsError(try r.f64())
        XCTAssertThrowsError(try r.bytes(2))
        XCTAssertEqual(try r.u8(), 3)
        XCTAssertThrowsError(try r.u8())
        XCTAssertThrowsError(try r.bytes(-1))
    }

    func testStringsAndBytes() throws {
        var w = ByteWriter()
        w.string("")
        w.string("Vaduz – Schaan ✓")
        w.append(contentsOf: [9, 8, 7])
        var r = ByteReader(w.bytes)
        XCTAssertEqual(try r.string(), "")
        XCTAssertEqual(try r.string(), "Vaduz – Schaan ✓")
        XCTAssertEqual(Array(try r.bytes(3)), [9, 8, 7])

        // Length prefix promising more than is there.
        var short = ByteReader([10, 0, 0, 0, 65, 66])
        XCTAssertThrowsError(try short.string())
        // Invalid UTF-8.
        var bad = ByteReader([2, 0, 0, 0, 0xC3, 0x28])
        XCTAssertThrowsError(try bad.string()) { error in
            XCTAssertTrue("\(error)".contains("UTF-8"), "\(error)")
        }
    }

    func testSeekPadAndPatch() throws {
        var w = ByteWriter(capacity: 16)
        w.u8(1)
        w.pad(to: 8)
        XCTAssertEqual(w.count, 8)
        w.pad(to: 8)
        XCTAssertEqual(w.count, 8, "already aligned: no padding")
        w.u32(0)
        w.u64(0)
        w.patchU32(at: 8, 0xCAFE_BABE)
        w.patchU64(at: 12, 42)
        var r = ByteReader(w.bytes)
        try r.seek(8)
        XCTAssertEqual(try r.u32(), 0xCAFE_BABE)
        XCTAssertEqual(try r.u64(), 42)
        try r.seek(w.count)
        XCTAssertTrue(r.isAtEnd)
        XCTAssertThrowsError(try r.seek(w.count + 1))
        XCTAssertThrowsError(try r.seek(-1))
    }
}
