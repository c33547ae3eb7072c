import Foundation
import XCTest
@testable import OffgridCore
import TestSupport

final class JSONTests: XCTestCase {
    func testReadsEveryKindAndWritesSortedExactText() throws {
        let text = #"{"b":[1,-2.5,true,false,null,"x\n\"y\u00e9\ud83d\ude00"],"a":{"z":1e2,"y":47.123013592725506}}"#
        let v = try JSONReader.parse(text)
        XCTAssertEqual(v["a"]?["y"], .double(47.123013592725506))
        XCTAssertEqual(v["a"]?["z"], .double(100))
        XCTAssertEqual(v["b"]?.arrayValue?.last, .string("x\n\"yé😀"))
        XCTAssertEqual(JSONWriter.string(v, pretty: false),
                       #"{"a":{"y":47.123013592725506,"z":100},"b":[1,-2.5,true,false,null,"x\n\"yé😀"]}"#)
        XCTAssertEqual(try JSONReader.parse(JSONWriter.string(v, pretty: true)), v)
    }

    func testNumbersReadBackExactly() throws {
        var rng = SplitMix64(seed: 5)
        for _ in 0..<2000 {
            let d = rng.double(-180, 180)
            var out = ""
            JSONWriter.writeDouble(d, to: &out)
            XCTAssertEqual(try JSONReader.parse(out).doubleValue, d)
        }
        XCTAssertEqual(try JSONReader.parse("9223372036854775807"), .int(Int.max))
        XCTAssertEqual(try JSONReader.parse("9223372036854775808"), .double(9223372036854775808))
    }

    func testHostileTextIsRefusedWithAnOffset() {
        let bad = ["", " ", "{", "[1,]", "{\"a\":1,}", "01", "1.", "-", "\"\\x\"", "\"\u{01}\"", "nul", "[1] 2",
                   "{\"a\":1,\"a\":2}", "\"\\ud800\"", "1e999", String(repeating: "[", count: 10_000)]
        for text in bad {
            XCTAssertThrowsError(try JSONReader.parse(text), text) { error in
                XCTAssertTrue(error is JSONReader.ParseError, "\(text): \(error)")
            }
        }
        XCTAssertThrowsError(try JSONReader.parse([0x22, 0xFF, 0xFE, 0x22]))  // invalid UTF-8
        var rng = SplitMix64(seed: 11)
        for _ in 0..<2000 {
            _ = try? JSONReader.parse(rng.bytes(rng.int(0, 40)).map { [0x7B, 0x7D, 0x5B, 0x5D, 0x22, 0x3A, 0x2C, 0x31, 0x2E, 0x65][Int($0) % 10] })
        }
    }

    func testFileErrorsNameTheFileAndOffset() throws {
        let path = NSTemporaryDirectory() + "/og-json-\(getpid()).json"
        try Data("{\"a\": [1, 2,, 3]}".utf8).write(to: URL(fileURLWithPath: path))
        defer { unlink(path) }
        XCTAssertThrowsError(try JSONReader.parse(file: path)) { error in
            XCTAssertEqual("\(error)", "\(path) at byte 12: invalid JSON: unexpected character")
        }
    }

    private struct Summary: Encodable {
        var name: String
        var count: Int
        var ratio: Double
        var skipped: Int?
        var tags: [String]
        var nested: [String: [Int]]
        var extra: JSONValue
    }

    func testEncodableValuesWriteLikeTheirTrees() throws {
        let s = Summary(name: "a\"b", count: 3, ratio: 0.25, skipped: nil, tags: ["x", "y"], nested: ["k": [1, 2]],
                        extra: ["z": .bool(true)])
        XCTAssertEqual(try JSONEncoding.string(s, pretty: false),
                       #"{"count":3,"extra":{"z":true},"name":"a\"b","nested":{"k":[1,2]},"ratio":0.25,"tags":["x","y"]}"#)
        XCTAssertEqual(try JSONEncoding.string([1.5, 2.0], pretty: false), "[1.5,2]")
        XCTAssertThrowsError(try JSONEncoding.value(Double.nan))
        XCTAssertEqual(try JSONEncoding.string([Int64(7), -8] as [Int64], pretty: false), "[7,-8]")
        XCTAssertEqual(try JSONEncoding.string(UInt64.max, pretty: false), "1.8446744073709552e+19")
        XCTAssertEqual(try JSONEncoding.string([UInt8(1)], pretty: false), "[1]")
        XCTAssertEqual(try JSONEncoding.string(Int32(-3), pretty: false), "-3")
    }

    func testPrettyOutputMatchesTheDocumentedLayout() {
        let v: JSONValue = ["b": [1, 2], "a": [:], "c": []]
        XCTAssertEqual(JSONWriter.string(v), "{\n  \"a\" : {},\n  \"b\" : [\n    1,\n    2\n  ],\n  \"c\" : []\n}")
    }
}

final class ISO8601Tests: XCTestCase {
    func testParsesTheAcceptedFormsAndRefusesOthers() {
        XCTAssertEqual(ISO8601.parse("2025-06-01T00:00:00Z"), 1_748_736_000)
        XCTAssertEqual(ISO8601.parse("2025-06-01"), 1_748_736_000)
        XCTAssertEqual(ISO8601.parse(" 2025-06-01T02:30:00.123+02:30 "), 1_748_736_000)
        XCTAssertEqual(ISO8601.parse("Sun, 01 Jun 2025 00:00:00 GMT"), 1_748_736_000)
        XCTAssertEqual(ISO8601.parse("1748736000"), 1_748_736_000)
        XCTAssertEqual(ISO8601.parse(ISO8601.string(1_748_736_123)), 1_748_736_123)
        for bad in ["", "2025-13-01", "2025-02-30", "2025-06-01T25:00:00Z", "2025-06-01T00:00:00", "tomorrow",
                    "2025-06-01T00:00:00Zjunk", "Sun, 01 Foo 2025 00:00:00 GMT"] {
            XCTAssertNil(ISO8601.parse(bad), bad)
        }
    }
}
