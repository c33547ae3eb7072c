import OffgridCore

/// Expiry dates as manifests give them: ISO 8601 (`2025-06-01T00:00:00Z`, with fractional seconds
/// or an offset, or a plain `2025-06-01`, midnight UTC), an HTTP date (`Sun, 01 Jun 2025 00:00:00
/// GMT`), or a number of seconds since 1970.
public enum Expiry {
    /// Seconds since 1970, or nil when the text is none of the accepted forms (`ISO8601.parse`).
    public static func parse(_ text: String) -> Int64? { ISO8601.parse(text) }

    /// A JSON manifest value (string, number or null) as seconds since 1970; throws naming `file`.
    static func fromJSON(_ value: JSONValue?, file: String, key: String) throws -> (text: String?, seconds: Int64?) {
        switch value {
        case nil, .null?:
            return (nil, nil)
        case .string(let s)?:
            guard let seconds = parse(s) else {
                throw InputError(file: file, "\(key) \"\(s)\" is not a date (ISO 8601, e.g. 2025-06-01T00:00:00Z)")
            }
            return (s, seconds)
        case .int(let n)?:
            return (ISO8601.string(Int64(n)), Int64(n))
        case .double(let n)? where n.isFinite && abs(n) < 9e18:
            let seconds = Int64(n.rounded(.down))
            return (ISO8601.string(seconds), seconds)
        default:
            throw InputError(file: file, "\(key) must be a date string or null")
        }
    }
}
