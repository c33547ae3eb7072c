/// Reads JSON text (RFC 8259) into a `JSONValue`, exactly: numbers with a fraction or exponent
/// are correctly rounded doubles (Foundation's JSON parser on Linux rounds some decimals to
/// a neighbouring double, which would move coordinates between a manifest and the store), whole
/// numbers that fit 64 bits stay integers. Hostile input is refused, never trusted: invalid
/// UTF-8, nesting deeper than `maxDepth`, trailing bytes, and unpaired surrogates are errors.
public enum JSONReader {
    public static let maxDepth = 512

    public struct ParseError: Error, CustomStringConvertible {
        /// Byte offset in the text where the problem was found.
        public let offset: Int
        public let message: String
        public var description: String { "invalid JSON at byte \(offset): \(message)" }
    }

    public static func parse(_ bytes: [UInt8]) throws -> JSONValue {
        try bytes.withUnsafeBufferPointer { try parse($0) }
    }

    public static func parse(_ text: String) throws -> JSONValue {
        var text = text
        return try text.withUTF8 { try parse($0) }
    }

    public static func parse(_ buffer: UnsafeBufferPointer<UInt8>) throws -> JSONValue {
        var parser = Parser(bytes: buffer)
        parser.skipSpace()
        let value = try parser.value(depth: 0)
        parser.skipSpace()
        guard parser.pos == buffer.count else { throw parser.error("unexpected text after the JSON value") }
        return value
    }

    /// Reads a file and parses it; errors name the file and the byte offset.
    public static func parse(file path: String, maxBytes: Int = 256 << 20) throws -> JSONValue {
        let bytes = try FileTools.readFile(path, maxBytes: maxBytes)
        do {
            return try parse(bytes)
        } catch let e as ParseError {
            throw InputError(file: path, offset: e.offset, "invalid JSON: \(e.message)")
        }
    }

    private struct Parser {
        let bytes: UnsafeBufferPointer<UInt8>
        var pos = 0

        init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

        func error(_ message: String) -> ParseError { ParseError(offset: pos, message: message) }

        mutating func skipSpace() {
            while pos < bytes.count {
                switch bytes[pos] {
                case 0x20, 0x09, 0x0A, 0x0D: pos += 1
                default: return
                }
            }
        }

        mutating func value(depth: Int) throws -> JSONValue {
            guard depth < JSONReader.maxDepth else { throw error("nesting deeper than \(JSONReader.maxDepth) levels") }
            guard pos < bytes.count else { throw error("unexpected end of text") }
            switch bytes[pos] {
            case UInt8(ascii: "{"): return try object(depth: depth)
            case UInt8(ascii: "["): return try array(depth: depth)
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): try literal("true"); return .bool(true)
            case UInt8(ascii: "f"): try literal("false"); return .bool(false)
            case UInt8(ascii: "n"): try literal("null"); return .null
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
            default: throw error("unexpected character")
            }
        }

        mutating func literal(_ word: StaticString) throws {
            let n = word.utf8CodeUnitCount
            guard pos + n <= bytes.count else { throw error("unexpected end of text") }
            for i in 0..<n where bytes[pos + i] != word.utf8Start[i] { throw error("unexpected character") }
            pos += n
        }

        mutating func object(depth: Int) throws -> JSONValue {
            pos += 1
            var members: [String: JSONValue] = [:]
            skipSpace()
            if pos < bytes.count, bytes[pos] == UInt8(ascii: "}") { pos += 1; return .object(members) }
            while true {
                skipSpace()
                guard pos < bytes.count, bytes[pos] == UInt8(ascii: "\"") else { throw error("expected a member name") }
                let key = try string()
                skipSpace()
                guard pos < bytes.count, bytes[pos] == UInt8(ascii: ":") else { throw error("expected ':'") }
                pos += 1
                skipSpace()
                let v = try value(depth: depth + 1)
                guard members.updateValue(v, forKey: key) == nil else { throw error("duplicate member \"\(key)\"") }
                skipSpace()
                guard pos < bytes.count else { throw error("unexpected end of text") }
                if bytes[pos] == UInt8(ascii: ",") { pos += 1; continue }
                if bytes[pos] == UInt8(ascii: "}") { pos += 1; return .object(members) }
                throw error("expected ',' or '}'")
            }
        }

        mutating func array(depth: Int) throws -> JSONValue {
            pos += 1
            var items: [JSONValue] = []
            skipSpace()
            if pos < bytes.count, bytes[pos] == UInt8(ascii: "]") { pos += 1; return .array(items) }
            while true {
                skipSpace()
                items.append(try value(depth: depth + 1))
                skipSpace()
                guard pos < bytes.count else { throw error("unexpected end of text") }
                if bytes[pos] == UInt8(ascii: ",") { pos += 1; continue }
                if bytes[pos] == UInt8(ascii: "]") { pos += 1; return .array(items) }
                throw error("expected ',' or ']'")
            }
        }

        mutating func string() throws -> String {
            pos += 1
            let start = pos
            // Fast path: no escapes.
            while pos < bytes.count {
                let c = bytes[pos]
                if c == UInt8(ascii: "\"") {
                    let slice = UnsafeBufferPointer(rebasing: bytes[start..<pos])
                    guard let s = String(validating: slice, as: UTF8.self) else {
                        pos = start
                        throw error("string is not valid UTF-8")
                    }
                    pos += 1
                    return s
                }
                if c == UInt8(ascii: "\\") { break }
                if c < 0x20 { throw error("control character in string") }
                pos += 1
            }
            var out: [UInt8] = Array(bytes[start..<pos])
            while pos < bytes.count {
                let c = bytes[pos]
                if c == UInt8(ascii: "\"") {
                    guard let s = String(validating: out, as: UTF8.self) else {
                        pos = start
                        throw error("string is not valid UTF-8")
                    }
                    pos += 1
                    return s
                }
                if c < 0x20 { throw error("control character in string") }
                if c != UInt8(ascii: "\\") { out.append(c); pos += 1; continue }
                pos += 1
                guard pos < bytes.count else { break }
                let e = bytes[pos]
                pos += 1
                switch e {
                case UInt8(ascii: "\""): out.append(0x22)
                case UInt8(ascii: "\\"): out.append(0x5C)
                case UInt8(ascii: "/"): out.append(0x2F)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    if (0xD800..<0xDC00).contains(scalar) {
                        guard pos + 1 < bytes.count, bytes[pos] == UInt8(ascii: "\\"), bytes[pos + 1] == UInt8(ascii: "u") else {
                            throw error("unpaired surrogate in string")
                        }
                        pos += 2
                        let low = try hex4()
                        guard (0xDC00..<0xE000).contains(low) else { throw error("unpaired surrogate in string") }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00..<0xE000).contains(scalar) {
                        throw error("unpaired surrogate in string")
                    }
                    out.append(contentsOf: Array(String(Character(Unicode.Scalar(scalar)!)).utf8))
                default:
                    pos -= 1
                    throw error("invalid escape in string")
                }
            }
            throw error("unterminated string")
        }

        mutating func hex4() throws -> UInt32 {
            guard pos + 4 <= bytes.count else { throw error("unexpected end of text") }
            var v: UInt32 = 0
            for _ in 0..<4 {
                let c = bytes[pos]
                let d: UInt8
                switch c {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): d = c - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): d = c - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): d = c - UInt8(ascii: "A") + 10
                default: throw error("invalid \\u escape")
                }
                v = v << 4 | UInt32(d)
                pos += 1
            }
            return v
        }

        mutating func number() throws -> JSONValue {
            let start = pos
            var isInteger = true
            if bytes[pos] == UInt8(ascii: "-") { pos += 1 }
            guard pos < bytes.count, isDigit(bytes[pos]) else { throw error("invalid number") }
            if bytes[pos] == UInt8(ascii: "0") {
                pos += 1
                if pos < bytes.count, isDigit(bytes[pos]) { throw error("number with a leading zero") }
            } else {
                while pos < bytes.count, isDigit(bytes[pos]) { pos += 1 }
            }
            if pos < bytes.count, bytes[pos] == UInt8(ascii: ".") {
                isInteger = false
                pos += 1
                guard pos < bytes.count, isDigit(bytes[pos]) else { throw error("invalid number") }
                while pos < bytes.count, isDigit(bytes[pos]) { pos += 1 }
            }
            if pos < bytes.count, bytes[pos] == UInt8(ascii: "e") || bytes[pos] == UInt8(ascii: "E") {
                isInteger = false
                pos += 1
                if pos < bytes.count, bytes[pos] == UInt8(ascii: "+") || bytes[pos] == UInt8(ascii: "-") { pos += 1 }
                guard pos < bytes.count, isDigit(bytes[pos]) else { throw error("invalid number") }
                while pos < bytes.count, isDigit(bytes[pos]) { pos += 1 }
            }
            let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<pos]), as: UTF8.self)
            if isInteger, let i = Int(text) { return .int(i) }
            guard let d = Double(text), d.isFinite else {
                pos = start
                throw error("number out of range")
            }
            return .double(d)
        }

        @inline(__always) func isDigit(_ c: UInt8) -> Bool { c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") }
    }
}
