/// Where `JSONBytes` writes: a `[UInt8]`, or a `JSONBuffer` (the fast one).
public protocol JSONByteOutput: ~Copyable {
    mutating func append(_ byte: UInt8)
    mutating func append(bytes: UnsafeBufferPointer<UInt8>)
}

extension Array: JSONByteOutput where Element == UInt8 {
    @inlinable public mutating func append(bytes: UnsafeBufferPointer<UInt8>) { append(contentsOf: bytes) }
}

/// JSON pieces written into byte buffers, spelled exactly as `JSONWriter` spells them (for
/// writers that must not make a `String` per record).
public enum JSONBytes {
    /// A string `JSONWriter.writeString` writes between its quotes unchanged (no quote, backslash
    /// or control character).
    @inlinable @inline(__always) public static func isPlain(_ s: String) -> Bool {
        !s.utf8.contains { $0 == 0x22 || $0 == 0x5C || $0 < 0x20 }
    }

    /// `JSONWriter.writeString`'s spelling: quoted, with `"`, `\` and control characters
    /// escaped (the short forms where JSON has them, else `\u00xx` in lower-case hex). Runs
    /// without an escape are copied whole: a polyline has a backslash every few dozen bytes.
    @inlinable public static func writeString<Out: JSONByteOutput & ~Copyable>(_ s: String, to out: inout Out) {
        out.append(UInt8(ascii: "\""))
        var text = s
        text.withUTF8 { writeEscaped($0, to: &out) }
        out.append(UInt8(ascii: "\""))
    }

    /// UTF-8 text as `writeString` writes it between its quotes: a string kept as bytes (a
    /// step's polyline is its first point's characters, then a run of its leg's) is written in
    /// pieces, each escaped the same way, with no `String` made for it.
    @inlinable public static func writeEscaped<Out: JSONByteOutput & ~Copyable>(_ bytes: UnsafeBufferPointer<UInt8>, to out: inout Out) {
        var runStart = 0
        var i = 0
        while i < bytes.count {
            // Eight bytes at a time while none needs escaping (a quote, a backslash, a
            // control character): the bytes of a step's JSON are mostly polyline text.
            if i + 8 <= bytes.count, !mayNeedEscape(UnsafeRawPointer(bytes.baseAddress.unsafelyUnwrapped + i).loadUnaligned(as: UInt64.self)) {
                i += 8
                continue
            }
            let c = bytes[i]
            i += 1
            guard c == 0x22 || c == 0x5C || c < 0x20 else { continue }
            let at = i - 1
            out.append(bytes: UnsafeBufferPointer(rebasing: bytes[runStart..<at]))
            runStart = at + 1
            out.append(0x5C)
            switch c {
            case 0x22, 0x5C: out.append(c)
            case 0x0A: out.append(UInt8(ascii: "n"))
            case 0x0D: out.append(UInt8(ascii: "r"))
            case 0x09: out.append(UInt8(ascii: "t"))
            case 0x08: out.append(UInt8(ascii: "b"))
            case 0x0C: out.append(UInt8(ascii: "f"))
            default:
                for b in [UInt8(ascii: "u"), 0x30, 0x30, hexDigit(c >> 4), hexDigit(c & 0xF)] { out.append(b) }
            }
        }
        out.append(bytes: UnsafeBufferPointer(rebasing: bytes[runStart...]))
    }

    /// True when one of the eight bytes of `word` may be a quote, a backslash or below 0x20
    /// (never false when one is): the zero-byte test on `word ^ "..."`, `word ^ "\\..."` and
    /// `word - 0x20...`.
    @inlinable @inline(__always) static func mayNeedEscape(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        let quote = word ^ (ones &* 0x22), backslash = word ^ (ones &* 0x5C)
        let hasQuote = (quote &- ones) & ~quote & highs
        let hasBackslash = (backslash &- ones) & ~backslash & highs
        let hasControl = (word &- ones &* 0x20) & ~word & highs
        return hasQuote | hasBackslash | hasControl != 0
    }

    /// The lower-case hex digit of `v` (0…15).
    @inlinable @inline(__always) static func hexDigit(_ v: UInt8) -> UInt8 { v < 10 ? 0x30 + v : 0x61 + v - 10 }

    @inlinable public static func writeInt<Out: JSONByteOutput & ~Copyable>(_ v: Int64, to out: inout Out) {
        if v < 0 { out.append(UInt8(ascii: "-")) }
        var m = v.magnitude
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var n = 0
            repeat {
                digits[19 - n] = UInt8(truncatingIfNeeded: m % 10) + 0x30
                m /= 10
                n += 1
            } while m > 0
            out.append(bytes: UnsafeBufferPointer(rebasing: digits[(20 - n)...]))
        }
    }

    /// `JSONWriter.writeDouble`'s spelling: an integral value (under 1e15) as an integer, any
    /// other as Swift's shortest round-trip `description`. A value that is a whole number of
    /// millionths below 1e9 (every coordinate), or of tenths below 1e14 (every rounded distance
    /// and duration), is written as a decimal directly, without its trailing zeros: with at
    /// most 15 significant digits that decimal is the only one of its length naming the double,
    /// so it is exactly what `description` prints.
    @inlinable public static func writeDouble<Out: JSONByteOutput & ~Copyable>(_ d: Double, to out: inout Out) {
        precondition(d.isFinite, "JSONBytes: non-finite number \(d) has no JSON spelling")
        if d == d.rounded(), abs(d) < 1e15 {
            writeInt(Int64(d), to: &out)
            return
        }
        let magnitude = abs(d)
        if magnitude >= 0.1, magnitude < 1e14 {
            let places = magnitude < 1e9 ? 6 : 1
            let scale: Double = places == 6 ? 1e6 : 10
            let k = Int64((d * scale).rounded())
            if Double(k) / scale == d {
                let units = UInt64(scale)
                if k < 0 { out.append(UInt8(ascii: "-")) }
                writeInt(Int64(k.magnitude / units), to: &out)
                out.append(UInt8(ascii: "."))
                // Not zero: d is not integral.
                var fraction = k.magnitude % units, digits = places
                while fraction % 10 == 0 { fraction /= 10; digits -= 1 }
                var divisor: UInt64 = 1
                for _ in 1..<digits { divisor *= 10 }
                while divisor > 0 {
                    out.append(UInt8(truncatingIfNeeded: fraction / divisor % 10) + 0x30)
                    divisor /= 10
                }
                return
            }
        }
        var text = d.description
        text.withUTF8 { out.append(bytes: $0) }
    }
}
