/// Bad input: reported as one line naming the file (and byte offset when known), exit code 1.
public struct InputError: Error, CustomStringConvertible {
    public let file: String?
    public let offset: Int?
    public let message: String

    public init(file: String? = nil, offset: Int? = nil, _ message: String) {
        self.file = file
        self.offset = offset
        self.message = message
    }

    /// One line whatever the file name or the quoted content holds: a hostile name or value
    /// echoed in the message (a newline, a carriage return, an escape sequence) is escaped, so
    /// it can neither forge a second line of the tool's stderr nor drive the terminal.
    public var description: String {
        var s = ""
        if let file { s += OneLine.escaped(file) }
        if let offset { s += (s.isEmpty ? "" : " ") + "at byte \(offset)" }
        return s.isEmpty ? OneLine.escaped(message) : "\(s): \(OneLine.escaped(message))"
    }
}

/// Text made safe for a one-line message: C0 controls, DEL and the C1 controls and line/paragraph
/// separators (U+0085, U+2028, U+2029) are written as escapes (`\n`, `\r`, `\t`, `\u{1B}`); a
/// backslash stays as is (a message is read by people, not parsed back).
public enum OneLine {
    public static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var out = ""
        out.unicodeScalars.reserveCapacity(text.unicodeScalars.count + 8)
        for u in text.unicodeScalars {
            guard needsEscape(u) else { out.unicodeScalars.append(u); continue }
            switch u {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default: out += "\\u{\(String(u.value, radix: 16, uppercase: true))}"
            }
        }
        return out
    }

    @inline(__always) static func needsEscape(_ u: Unicode.Scalar) -> Bool {
        u.value < 0x20 || (0x7F...0x9F).contains(u.value) || u.value == 0x2028 || u.value == 0x2029
    }
}
