import OffgridCore

/// The batch answer line straight into a byte buffer: the bytes of `writeJSON(to: String)`
/// (and so of the generic encoder), without making a `String` per line. The common answers
/// (no route, no message, an id that needs no escaping) are written field by field, numbers
/// digit by digit; anything else goes through the string writer.
extension BatchAnswer {
    public func writeJSON(to out: inout [UInt8]) {
        guard route == nil, message == nil, JSONBytes.isPlain(code), isPlainId(id) else {
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

/// An id written by the byte path rather than by the string writer.
private func isPlainId(_ id: JSONValue) -> Bool {
    switch id {
    case .null, .int: return true
    case .double(let d): return d.isFinite
    case .string(let s): return JSONBytes.isPlain(s)
    default: return false
    }
}
