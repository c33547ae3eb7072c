import OffgridCore

/// The batch answer line straight into a byte buffer: the bytes of `writeJSON(to: String)`
/// (and so of the generic encoder), without making a `String` per line. The common answers
/// (no route, no message, an id that needs no escaping) are written field by field, numbers
/// digit by digit; anything else goes through the string writer.
extension BatchAnswer {
    public func writeJSON(to out: inout [UInt8]) {
        guard route == nil, message == nil, JSONBytes.isPlain(code), JSONBytes.isPlain(id) else {
            var text = ""
            writeJSON(to: &text)
            out.append(contentsOf: text.utf8)
            return
        }
        JSONBytes.append("{\"code\":\"", to: &out)
        out.append(contentsOf: code.utf8)
        out.append(UInt8(ascii: "\""))
        if let distanceMeters { JSONBytes.append(",\"distance_m\":", to: &out); JSONBytes.writeDouble(distanceMeters, to: &out) }
        if let durationSeconds { JSONBytes.append(",\"duration_s\":", to: &out); JSONBytes.writeDouble(durationSeconds, to: &out) }
        JSONBytes.append(",\"id\":", to: &out)
        switch id {
        case .int(let i): JSONBytes.writeInt(Int64(i), to: &out)
        case .double(let d): JSONBytes.writeDouble(d, to: &out)
        case .string(let s):
            out.append(UInt8(ascii: "\""))
            out.append(contentsOf: s.utf8)
            out.append(UInt8(ascii: "\""))
        default: JSONBytes.append("null", to: &out)
        }
        out.append(UInt8(ascii: "}"))
    }
}

/// JSON pieces as bytes, spelled as `JSONWriter` spells them.
enum JSONBytes {
    @inline(__always) static func append(_ s: StaticString, to out: inout [UInt8]) {
        s.withUTF8Buffer { out.append(contentsOf: $0) }
    }

    /// A string `JSONWriter.writeString` writes between its quotes unchanged (no quote, backslash
    /// or control character).
    @inline(__always) static func isPlain(_ s: String) -> Bool {
        !s.utf8.contains { $0 == 0x22 || $0 == 0x5C || $0 < 0x20 }
    }

    /// An id written here rather than by the string writer.
    static func isPlain(_ id: JSONValue) -> Bool {
        switch id {
        case .null, .int: return true
        case .double(let d): return d.isFinite
        case .string(let s): return isPlain(s)
        default: return false
        }
    }

    static func writeInt(_ v: Int64, to out: inout [UInt8]) {
        if v < 0 { out.append(UInt8(ascii: "-")) }
        var m = v.magnitude
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var n = 0
            repeat {
                digits[19 - n] = UInt8(truncatingIfNeeded: m % 10) + 0x30
                m /= 10
                n += 1
            } while m > 0
            out.append(contentsOf: UnsafeBufferPointer(rebasing: digits[(20 - n)...]))
        }
    }

    /// `JSONWriter.writeDouble`'s spelling: an integral value (under 1e15) as an integer, any
    /// other as Swift's shortest round-trip `description`. A value that is a whole number of
    /// tenths below 1e14 (every rounded distance and duration) is written as `q.r` directly:
    /// with at most 15 significant digits that decimal is the only one of its length naming
    /// the double, so it is exactly what `description` prints.
    static func writeDouble(_ d: Double, to out: inout [UInt8]) {
        precondition(d.isFinite, "JSONBytes: non-finite number \(d) has no JSON spelling")
        if d == d.rounded(), abs(d) < 1e15 {
            writeInt(Int64(d), to: &out)
            return
        }
        if abs(d) >= 0.1, abs(d) < 1e14 {
            let k = Int64((d * 10).rounded())
            if Double(k) / 10 == d {
                if k < 0 { out.append(UInt8(ascii: "-")) }
                writeInt(Int64(k.magnitude / 10), to: &out)
                out.append(UInt8(ascii: "."))
                out.append(UInt8(truncatingIfNeeded: k.magnitude % 10) + 0x30)
                return
            }
        }
        out.append(contentsOf: d.description.utf8)
    }
}
