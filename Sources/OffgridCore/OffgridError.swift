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

    public var description: String {
        var s = ""
        if let file { s += file }
        if let offset { s += (s.isEmpty ? "" : " ") + "at byte \(offset)" }
        return s.isEmpty ? message : "\(s): \(message)"
    }
}
