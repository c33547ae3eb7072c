import OffgridCore

/// The common batch line, `{"id":…,"from":[lon,lat],"to":[lon,lat]}` (keys in any order, `id`
/// optional, JSON whitespace anywhere), read straight from its bytes: no value tree, no
/// dictionary, no copy of the line. Anything else (another key, an escaped or non-ASCII string,
/// a nested value, bad JSON) is not this shape and returns nil, and the caller takes the exact
/// reader's path, which also produces the error messages. What it returns is what
/// `JSONReader` + `BatchQuery` would make of the same line: an integer id is `.int` when `Int`
/// holds it, numbers are parsed from the same text by the same `Int`/`Double` initialisers.
enum BatchLineScanner {
    struct Line {
        var id: JSONValue
        var from: (lon: Double, lat: Double)
        var to: (lon: Double, lat: Double)
    }

    static func scan(_ line: Substring) -> Line? {
        var line = line
        return line.withUTF8 { scan($0) }
    }

    /// The same, straight from a line's bytes (without its newline).
    static func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> Line? {
        var s = Cursor(bytes: bytes)
        return s.line()
    }

    private struct Cursor {
        let bytes: UnsafeBufferPointer<UInt8>
        var pos = 0

        init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

        @inline(__always) mutating func skipSpace() {
            while pos < bytes.count {
                let c = bytes[pos]
                guard c == 0x20 || c == 0x09 || c == 0x0D || c == 0x0A else { return }
                pos += 1
            }
        }

        @inline(__always) mutating func take(_ c: UInt8) -> Bool {
            skipSpace()
            guard pos < bytes.count, bytes[pos] == c else { return false }
            pos += 1
            return true
        }

        mutating func line() -> Line? {
            var id: JSONValue = .null
            var from: (Double, Double)?, to: (Double, Double)?
            var seenID = false
            guard take(UInt8(ascii: "{")) else { return nil }
            if take(UInt8(ascii: "}")) { return nil }   // no from/to: the exact path reports it
            repeat {
                guard let key = plainString(), take(UInt8(ascii: ":")) else { return nil }
                switch key {
                case "id":
                    guard !seenID, let v = idValue() else { return nil }
                    seenID = true
                    id = v
                case "from":
                    guard from == nil, let p = pair() else { return nil }
                    from = p
                case "to":
                    guard to == nil, let p = pair() else { return nil }
                    to = p
                default:
                    return nil
                }
            } while take(UInt8(ascii: ","))
            guard take(UInt8(ascii: "}")) else { return nil }
            skipSpace()
            guard pos == bytes.count, let from, let to else { return nil }
            return Line(id: id, from: from, to: to)
        }

        /// A string of printable ASCII without escapes.
        mutating func plainString() -> String? {
            guard take(UInt8(ascii: "\"")) else { return nil }
            let start = pos
            while pos < bytes.count {
                let c = bytes[pos]
                if c == UInt8(ascii: "\"") {
                    pos += 1
                    return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<pos - 1]), as: UTF8.self)
                }
                guard c >= 0x20, c < 0x7F, c != UInt8(ascii: "\\") else { return nil }
                pos += 1
            }
            return nil
        }

        mutating func idValue() -> JSONValue? {
            skipSpace()
            guard pos < bytes.count else { return nil }
            switch bytes[pos] {
            case UInt8(ascii: "\""): return plainString().map(JSONValue.string)
            case UInt8(ascii: "n"):
                guard pos + 4 <= bytes.count, bytes[pos + 1] == UInt8(ascii: "u"), bytes[pos + 2] == UInt8(ascii: "l"),
                      bytes[pos + 3] == UInt8(ascii: "l") else { return nil }
                pos += 4
                return .null
            default:
                return number()
            }
        }

        mutating func pair() -> (Double, Double)? {
            guard take(UInt8(ascii: "[")), let a = number()?.doubleValue, take(UInt8(ascii: ",")),
                  let b = number()?.doubleValue, take(UInt8(ascii: "]")) else { return nil }
            return (a, b)
        }

        /// A JSON number, as `JSONReader` reads it.
        mutating func number() -> JSONValue? {
            skipSpace()
            let start = pos
            var isInteger = true
            @inline(__always) func digit() -> Bool { pos < bytes.count && bytes[pos] >= 0x30 && bytes[pos] <= 0x39 }
            if pos < bytes.count, bytes[pos] == UInt8(ascii: "-") { pos += 1 }
            guard digit() else { return nil }
            if bytes[pos] == 0x30 {
                pos += 1
                if digit() { return nil }
            } else {
                while digit() { pos += 1 }
            }
            if pos < bytes.count, bytes[pos] == UInt8(ascii: ".") {
                isInteger = false
                pos += 1
                guard digit() else { return nil }
                while digit() { pos += 1 }
            }
            if pos < bytes.count, bytes[pos] == UInt8(ascii: "e") || bytes[pos] == UInt8(ascii: "E") {
                isInteger = false
                pos += 1
                if pos < bytes.count, bytes[pos] == UInt8(ascii: "+") || bytes[pos] == UInt8(ascii: "-") { pos += 1 }
                guard digit() else { return nil }
                while digit() { pos += 1 }
            }
            let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<pos]), as: UTF8.self)
            if isInteger, let i = Int(text) { return .int(i) }
            guard let d = Double(text), d.isFinite else { return nil }
            return .double(d)
        }
    }
}
