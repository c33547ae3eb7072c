/// Writes JSON text from a `JSONValue`: sorted keys, unescaped slashes, shortest round-trip
/// numbers (whole doubles below 1e15 without ".0"), so the same value always gives the same
/// bytes. Pretty output matches Foundation's (two-space indents, `"key" : value`).
public enum JSONWriter {
    public static func string(_ value: JSONValue, pretty: Bool = true) -> String {
        var out = ""
        out.reserveCapacity(256)
        write(value, to: &out, pretty: pretty, indent: 0)
        return out
    }

    /// The same bytes as `string`, as UTF-8 (no `String` in between: a large answer, such as a
    /// table's million numbers, is written straight into the buffer).
    public static func bytes(_ value: JSONValue, pretty: Bool = true) -> [UInt8] {
        var out = JSONBuffer(capacity: 256)
        write(value, to: &out, pretty: pretty, indent: 0)
        return Array(out.bytes)
    }

    /// Writes `value` into any `JSONSink`; its scalars are spelled by the sink, as this writer
    /// spells them.
    public static func write<Sink: JSONSink & ~Copyable>(_ value: JSONValue, to out: inout Sink, pretty: Bool, indent: Int = 0) {
        switch value {
        case .null: out.raw("null")
        case .bool(let b): out.raw(b ? "true" : "false")
        case .int(let i): out.int(i)
        case .double(let d): out.double(d)
        case .string(let s): out.string(s)
        case .array(let items):
            if items.isEmpty { out.raw("[]"); return }
            out.raw("[")
            for (i, item) in items.enumerated() {
                if i > 0 { out.raw(",") }
                if pretty { newline(&out, indent + 1) }
                write(item, to: &out, pretty: pretty, indent: indent + 1)
            }
            if pretty { newline(&out, indent) }
            out.raw("]")
        case .object(let members):
            if members.isEmpty { out.raw("{}"); return }
            out.raw("{")
            for (i, key) in members.keys.sorted().enumerated() {
                if i > 0 { out.raw(",") }
                if pretty { newline(&out, indent + 1) }
                out.string(key)
                out.raw(pretty ? " : " : ":")
                write(members[key]!, to: &out, pretty: pretty, indent: indent + 1)
            }
            if pretty { newline(&out, indent) }
            out.raw("}")
        }
    }

    @inline(__always) static func newline<Sink: JSONSink & ~Copyable>(_ out: inout Sink, _ indent: Int) {
        out.raw("\n")
        for _ in 0..<indent { out.raw("  ") }
    }

    /// Shortest text that reads back as the same double; integral values without ".0".
    /// A NaN or an infinity has no JSON spelling: it is a programming error.
    public static func writeDouble(_ d: Double, to out: inout String) {
        precondition(d.isFinite, "JSONWriter: non-finite number \(d) has no JSON spelling")
        if d == d.rounded(), abs(d) < 1e15 {
            out += String(Int64(d))
        } else {
            out += d.description
        }
    }

    public static func writeString(_ s: String, to out: inout String) {
        // Most strings (names, codes, polylines) need no escape: appended whole, not piece by piece.
        if JSONBytes.isPlain(s) {
            out += "\""
            out += s
            out += "\""
            return
        }
        // A string with escapes (rare): the byte writer's spelling, so the escapes live in one place.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(s.utf8.count + 8)
        JSONBytes.writeString(s, to: &bytes)
        out += String(decoding: bytes, as: UTF8.self)
    }
}
