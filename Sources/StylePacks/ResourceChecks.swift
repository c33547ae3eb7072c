import Foundation
import OffgridCore

/// Content checks the builder runs on every resource before packing it, so a pack never carries
/// a file a renderer would choke on: sprite indexes must be GL sprite JSON whose icons lie inside
/// their sheet, sheets must be PNG, glyph ranges must be well-formed glyph protobufs for their range.
/// Each check returns a result whose failure message the caller prefixes with the file's name.
enum ResourceChecks {
    /// Width and height from a PNG's IHDR chunk, or a message saying why the bytes are not a PNG.
    static func pngSize(_ bytes: [UInt8]) -> Result<(width: Int, height: Int), CheckFailure> {
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        guard bytes.count >= 33, bytes.starts(with: signature) else {
            return .failure(CheckFailure("not a PNG image (no PNG signature and IHDR chunk)"))
        }
        guard bytes[12..<16].elementsEqual(Array("IHDR".utf8)) else {
            return .failure(CheckFailure("not a PNG image (the first chunk is not IHDR)"))
        }
        func be32(_ at: Int) -> Int { Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3]) }
        let width = be32(16), height = be32(20)
        guard width > 0, height > 0 else { return .failure(CheckFailure("PNG image of \(width)×\(height) pixels")) }
        return .success((width, height))
    }

    /// Checks a sprite index against its sheet: a JSON object of icons, each with integer `x`, `y`,
    /// `width`, `height` inside the sheet, and `pixelRatio` (when present) equal to the file's ratio.
    /// Returns the number of icons.
    static func checkSprite(json: [UInt8], sheet: (width: Int, height: Int), ratio: Int) -> Result<Int, CheckFailure> {
        guard let parsed = try? JSONReader.parse(json), let icons = parsed.objectValue else {
            return .failure(CheckFailure("not a sprite index (a JSON object of icons)"))
        }
        for name in icons.keys.sorted() {
            guard let icon = icons[name]?.objectValue else {
                return .failure(CheckFailure("icon \"\(name)\" is not an object"))
            }
            var v: [String: Int] = [:]
            for key in ["x", "y", "width", "height"] {
                guard let d = icon[key]?.doubleValue, let i = Int(exactly: d), i >= 0 else {
                    return .failure(CheckFailure("icon \"\(name)\": \"\(key)\" is not a non-negative integer"))
                }
                v[key] = i
            }
            guard v["x"]! + v["width"]! <= sheet.width, v["y"]! + v["height"]! <= sheet.height else {
                return .failure(CheckFailure("icon \"\(name)\" (\(v["x"]!),\(v["y"]!) \(v["width"]!)×\(v["height"]!)) lies outside the \(sheet.width)×\(sheet.height) sheet"))
            }
            if let r = icon["pixelRatio"] {
                guard let d = r.doubleValue, d == Double(ratio) else {
                    return .failure(CheckFailure("icon \"\(name)\": pixelRatio \(JSONWriter.string(r, pretty: false)) in the @\(ratio)x sprite"))
                }
            }
        }
        return .success(icons.count)
    }

    /// Checks a glyph range file: protobuf wire format throughout; every `fontstack` (field 1)
    /// with a `range` (field 2) equal to `<start>-<end>`, and every glyph's `id` inside the range.
    /// An empty file is a valid, empty range. Returns the number of glyphs.
    static func checkGlyphRange(_ bytes: [UInt8], start: Int) -> Result<Int, CheckFailure> {
        let expected = GlyphRanges.name(start: start)
        var glyphCount = 0
        do {
            var top = ProtoReader(bytes[...])
            while let field = try top.next() {
                guard field.number == 1, case .bytes(let stackBytes) = field.value else { continue }
                var stack = ProtoReader(stackBytes)
                while let f = try stack.next() {
                    switch (f.number, f.value) {
                    case (2, .bytes(let range)):
                        let text = String(decoding: range, as: UTF8.self)
                        guard text == expected else {
                            return .failure(CheckFailure("glyph range file says range \"\(text)\", expected \"\(expected)\""))
                        }
                    case (3, .bytes(let glyph)):
                        var g = ProtoReader(glyph)
                        while let gf = try g.next() {
                            if gf.number == 1, case .varint(let id) = gf.value {
                                guard id >= UInt64(start), id <= UInt64(start + 255) else {
                                    return .failure(CheckFailure("glyph \(id) lies outside range \(expected)"))
                                }
                            }
                        }
                        glyphCount += 1
                    default:
                        break
                    }
                }
            }
        } catch let e as CheckFailure {
            return .failure(CheckFailure("not a glyph range protobuf: \(e.message)"))
        } catch {
            return .failure(CheckFailure("not a glyph range protobuf: \(error)"))
        }
        return .success(glyphCount)
    }
}

struct CheckFailure: Error {
    let message: String
    init(_ message: String) { self.message = message }
}

/// Minimal protobuf wire-format reader (varint, 64-bit, length-delimited, 32-bit fields).
struct ProtoReader {
    enum Value {
        case varint(UInt64)
        case fixed64
        case bytes(ArraySlice<UInt8>)
        case fixed32
    }

    private let bytes: ArraySlice<UInt8>
    private var at: Int

    init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        at = bytes.startIndex
    }

    mutating func next() throws -> (number: Int, value: Value)? {
        guard at < bytes.endIndex else { return nil }
        let key = try varint()
        let number = Int(key >> 3)
        guard number > 0 else { throw CheckFailure("field number 0 at byte \(at - bytes.startIndex)") }
        switch key & 7 {
        case 0: return (number, .varint(try varint()))
        case 1: try skip(8); return (number, .fixed64)
        case 2:
            let n = try varint()
            guard n <= UInt64(bytes.endIndex - at) else { throw CheckFailure("field \(number) runs past the end") }
            let slice = bytes[at..<(at + Int(n))]
            at += Int(n)
            return (number, .bytes(slice))
        case 5: try skip(4); return (number, .fixed32)
        default: throw CheckFailure("unsupported wire type \(key & 7) at byte \(at - bytes.startIndex)")
        }
    }

    private mutating func skip(_ n: Int) throws {
        guard bytes.endIndex - at >= n else { throw CheckFailure("truncated field") }
        at += n
    }

    private mutating func varint() throws -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard at < bytes.endIndex else { throw CheckFailure("truncated varint") }
            let b = bytes[at]
            at += 1
            if shift == 63 && b > 1 { throw CheckFailure("varint overflows 64 bits") }
            result |= UInt64(b & 0x7F) << shift
            if b & 0x80 == 0 { return result }
            shift += 7
            if shift > 63 { throw CheckFailure("varint longer than 10 bytes") }
        }
    }
}
