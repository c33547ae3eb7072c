import OffgridCore
import Foundation
@testable import StylePacks
import XCTest

/// The sample style shipped in samples/style.
let sampleDirectory: String = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("samples/style").path
let sampleStyle = sampleDirectory + "/style.json"

/// A fresh temporary directory, removed when the test ends.
func temporaryDirectory(_ test: XCTestCase) throws -> String {
    let dir = FileManager.default.temporaryDirectory
        .appendingPathComponent("stylepacks-\(getpid())-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    test.addTeardownBlock { try? FileManager.default.removeItem(atPath: dir) }
    return dir
}

/// Copies the sample resources directory (style, sprites, glyphs) into a temporary directory.
func copyOfSample(_ test: XCTestCase) throws -> String {
    let dir = try temporaryDirectory(test) + "/style"
    try FileManager.default.copyItem(atPath: sampleDirectory, toPath: dir)
    return dir
}

func write(_ text: String, to path: String) throws {
    try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
}

func write(_ bytes: [UInt8], to path: String) throws {
    try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try Data(bytes).write(to: URL(fileURLWithPath: path))
}

func fileBytes(_ path: String) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
}

// MARK: - Minimal resources

/// A valid glyph range PBF with no glyphs: glyphs { fontstack { name, range } }.
func emptyGlyphRange(name: String, start: Int) -> [UInt8] {
    func field(_ number: Int, _ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [UInt8(number << 3 | 2)]
        var n = bytes.count
        while n >= 0x80 { out.append(UInt8(n & 0x7F) | 0x80); n >>= 7 }
        out.append(UInt8(n))
        return out + bytes
    }
    let stack = field(1, Array(name.utf8)) + field(2, Array("\(start)-\(start + 255)".utf8))
    return field(1, stack)
}

/// Writes all 256 range files of `stack` under `dir`, skipping those `skip` says.
func writeGlyphRanges(stack: String, in dir: String, skip: (Int) -> Bool = { _ in false }) throws {
    try FileManager.default.createDirectory(atPath: dir + "/" + stack, withIntermediateDirectories: true)
    for start in stride(from: 0, to: 65536, by: 256) where !skip(start) {
        try Data(emptyGlyphRange(name: stack, start: start)).write(to: URL(fileURLWithPath: "\(dir)/\(stack)/\(start)-\(start + 255).pbf"))
    }
}

/// The first 33 bytes of a PNG: signature and IHDR chunk of the given size (enough for the checks).
func pngHeader(width: Int, height: Int) -> [UInt8] {
    func be32(_ v: Int) -> [UInt8] { [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
    var out: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    out += be32(13) + Array("IHDR".utf8) + be32(width) + be32(height) + [8, 6, 0, 0, 0]
    out += be32(Int(CRC32.checksum(Array(out[12...]))))
    return out
}

/// A sprite of one 10×10 icon at `ratio` × that size, written as `<base>[@Nx].json/png`.
func writeSprite(base: String, ratio: Int) throws {
    let suffix = ratio == 1 ? "" : "@\(ratio)x"
    let size = 10 * ratio
    try write("{\"icon\": {\"x\": 0, \"y\": 0, \"width\": \(size), \"height\": \(size), \"pixelRatio\": \(ratio)}}", to: base + suffix + ".json")
    try write(pngHeader(width: size, height: size), to: base + suffix + ".png")
}

// MARK: - Pack surgery

/// Rewrites the preamble, header and index CRCs after a test changed bytes on purpose, so that a
/// later check (not the CRCs) is what must catch the change.
func resealed(_ pack: [UInt8]) -> [UInt8] {
    var b = pack
    func u32(_ at: Int) -> Int { Int(b[at]) | Int(b[at + 1]) << 8 | Int(b[at + 2]) << 16 | Int(b[at + 3]) << 24 }
    func put(_ at: Int, _ v: UInt32) { for i in 0..<4 { b[at + i] = UInt8(v >> (8 * UInt32(i)) & 0xFF) } }
    let headerLength = u32(24), indexLength = u32(36)
    let indexStart = 64 + headerLength
    if indexStart <= b.count { put(28, CRC32.checksum(Array(b[64..<indexStart]))) }
    if indexStart + indexLength <= b.count { put(40, CRC32.checksum(Array(b[indexStart..<(indexStart + indexLength)]))) }
    put(60, CRC32.checksum(Array(b[0..<60])))
    return b
}

func putU32(_ bytes: inout [UInt8], at: Int, _ v: UInt32) {
    for i in 0..<4 { bytes[at + i] = UInt8(v >> (8 * UInt32(i)) & 0xFF) }
}

func readU32(_ bytes: [UInt8], at: Int) -> Int {
    Int(bytes[at]) | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) << 16 | Int(bytes[at + 3]) << 24
}

/// Asserts that `body` throws an error whose text contains every one of `parts`.
func assertThrows(_ parts: [String], file: StaticString = #filePath, line: UInt = #line, _ body: () throws -> Void) {
    do {
        try body()
        XCTFail("expected an error containing \(parts)", file: file, line: line)
    } catch {
        let text = "\(error)"
        for part in parts where !text.contains(part) {
            XCTFail("error \"\(text)\" does not contain \"\(part)\"", file: file, line: line)
        }
    }
}
