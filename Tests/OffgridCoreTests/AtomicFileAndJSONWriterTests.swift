import Foundation
import OffgridCore
import TestSupport
import XCTest

final class JSONWriterTests: XCTestCase {
    func testSortedKeysUnescapedSlashesAndDeterminism() {
        let value: JSONValue = ["z": 1, "a": ["path": "out/routing", "b": [true, nil]], "m": 0.25]
        XCTAssertEqual(JSONWriter.string(value, pretty: false),
                       #"{"a":{"b":[true,null],"path":"out/routing"},"m":0.25,"z":1}"#)
        let pretty = JSONWriter.string(value)
        XCTAssertTrue(pretty.contains("\n"))
        XCTAssertTrue(pretty.contains("out/routing"))
        XCTAssertEqual(pretty, JSONWriter.string(value))
        XCTAssertEqual(JSONWriter.string("a\"b", pretty: false), #""a\"b""#)
        XCTAssertEqual(try JSONEncoding.string(UInt32.max, pretty: false), "4294967295")
    }

    /// Every escape, spelled as before, and strings with many (polylines) that read back whole,
    /// the same from the string writer and the byte writer.
    func testEscapesReadBackAndKeepTheirSpelling() throws {
        XCTAssertEqual(JSONWriter.string("q\"b\\n\nr\rt\tb\u{8}f\u{C}x\u{1}y\u{1F}é€", pretty: false),
                       #""q\"b\\n\nr\rt\tb\bf\fx\u0001y\u001fé€""#)
        var state: UInt32 = 7
        for length in [0, 1, 2, 31, 1000] {
            var scalars = ""
            for _ in 0..<length {
                state = state &* 1_103_515_245 &+ 12345
                let pick = Int(state >> 16) % 40
                scalars.unicodeScalars.append(pick < 32 ? Unicode.Scalar(UInt8(pick)) : pick < 36 ? "\\" : pick < 38 ? "\"" : "ü")
            }
            let text = JSONWriter.string(.array([.string(scalars)]), pretty: false)
            let back = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String]
            XCTAssertEqual(back, [scalars], text)
            // The byte writer spells it the same.
            var bytes: [UInt8] = [], string = ""
            JSONBytes.writeString(scalars, to: &bytes)
            JSONWriter.writeString(scalars, to: &string)
            XCTAssertEqual(bytes, Array(string.utf8))
        }
        // Mostly plain text with a rare escape at every offset within the byte writer's
        // eight-byte words (as in polylines), and lengths around word multiples.
        for length in [7, 8, 9, 15, 16, 17, 64, 1000, 5000] {
            var scalars = ""
            for _ in 0..<length {
                state = state &* 1_103_515_245 &+ 12345
                let pick = Int(state >> 16) % 400
                scalars.unicodeScalars.append(pick < 4 ? Unicode.Scalar(UInt8(pick * 7)) : pick < 8 ? "\\" : pick < 10 ? "\"" : pick < 12 ? "ü"
                                              : Unicode.Scalar(UInt8(0x23 + pick % 0x39)))
            }
            var bytes: [UInt8] = [], string = ""
            JSONBytes.writeString(scalars, to: &bytes)
            JSONWriter.writeString(scalars, to: &string)
            XCTAssertEqual(bytes, Array(string.utf8), "length \(length)")
        }
    }
}

final class AtomicFileTests: XCTestCase {
    var scratch: Scratch!
    override func setUp() { scratch = Scratch("atomic-file") }
    override func tearDown() { scratch.remove() }

    func testWriteReplacesTheTargetAndLeavesNoTemporaryFile() throws {
        let path = scratch.path("out.bin")
        try AtomicFile.write([1, 2, 3], to: path)
        try AtomicFile.write([4, 5], to: path)
        XCTAssertEqual([UInt8](FileManager.default.contents(atPath: path) ?? Data()), [4, 5])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: scratch.root), ["out.bin"])
    }

    func testStreamingWriterCommitAbandonAndDrop() throws {
        let path = scratch.path("out.bin")
        try AtomicFile.write([9], to: path)
        let baseline = TempPathRegistry.registeredCount

        let writer = try AtomicFile.create(path)
        XCTAssertTrue((writer.temporaryPath as NSString).lastPathComponent.hasPrefix(".out.bin.tmp-\(getpid())-"))
        XCTAssertEqual(TempPathRegistry.registeredCount, baseline + 1)
        try writer.write([1, 2])
        try writer.write([3])
        XCTAssertEqual([UInt8](FileManager.default.contents(atPath: path) ?? Data()), [9], "target untouched until commit")
        try writer.commit()
        XCTAssertEqual([UInt8](FileManager.default.contents(atPath: path) ?? Data()), [1, 2, 3])
        XCTAssertThrowsError(try writer.write([4]))

        let abandoned = try AtomicFile.create(path)
        try abandoned.write([7, 7, 7])
        abandoned.abandon()
        abandoned.abandon()
        do {
            let dropped = try AtomicFile.create(path)
            try dropped.write([8])
        }
        XCTAssertEqual([UInt8](FileManager.default.contents(atPath: path) ?? Data()), [1, 2, 3])
        XCTAssertEqual(scratch.leftovers(), [])
        XCTAssertEqual(TempPathRegistry.registeredCount, baseline)
    }

    func testFailureNamesThePathAndLeavesNothing() {
        assertInputError(try AtomicFile.write([1], to: scratch.path("missing/out.bin")), contains: "missing/out.bin")
        // Renaming a file over a directory fails after the temporary file was written.
        try? FileManager.default.createDirectory(atPath: scratch.path("dir"), withIntermediateDirectories: true)
        FileManager.default.createFile(atPath: scratch.path("dir/keep"), contents: Data([0]))
        assertInputError(try AtomicFile.write([1], to: scratch.path("dir")), contains: "cannot rename")
        XCTAssertEqual(scratch.leftovers(), [])
    }

    func testSignalTimeCleanupRemovesRegisteredFiles() throws {
        let writer = try AtomicFile.create(scratch.path("out.bin"))
        try writer.write([1])
        XCTAssertTrue(FileManager.default.fileExists(atPath: writer.temporaryPath))
        // What the SIGINT/SIGTERM handler runs before re-raising the signal.
        TempPathRegistry.removeRegisteredPaths()
        XCTAssertFalse(FileManager.default.fileExists(atPath: writer.temporaryPath))
        writer.abandon()
        XCTAssertNil(TempPathRegistry.register(String(repeating: "x", count: TempPathRegistry.maxPathBytes)))
    }
}
