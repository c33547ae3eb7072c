import Foundation

/// JSON parsed with `JSONDecoder`, whose number parsing is exact, into the plain values
/// `JSONOutput` writes (`Int`, `Double`, `String`, `Bool`, `NSNull`, `[Any]`, `[String: Any]`).
/// `JSONSerialization` on Linux rounds some decimals to a neighbouring double (47.123013592725506
/// reads as 47.12301359272549), which would change coordinates between a manifest and the store.
public enum JSONText {
    /// Parses any JSON value (objects, arrays, scalars).
    public static func parse(_ data: Data) throws -> Any {
        try JSONDecoder().decode(Value.self, from: data).any
    }

    public static func parse(_ text: String) throws -> Any {
        try parse(Data(text.utf8))
    }

    private indirect enum Value: Decodable {
        case null, bool(Bool), int(Int), double(Double), string(String), array([Value]), object([String: Value])

        init(from decoder: Decoder) throws {
            if var array = try? decoder.unkeyedContainer() {
                var items: [Value] = []
                while !array.isAtEnd { items.append(try array.decode(Value.self)) }
                self = .array(items)
                return
            }
            if let object = try? decoder.container(keyedBy: Key.self) {
                var out: [String: Value] = [:]
                for key in object.allKeys { out[key.stringValue] = try object.decode(Value.self, forKey: key) }
                self = .object(out)
                return
            }
            let c = try decoder.singleValueContainer()
            if c.decodeNil() { self = .null }
            else if let b = try? c.decode(Bool.self) { self = .bool(b) }
            else if let i = try? c.decode(Int.self) { self = .int(i) }
            else if let d = try? c.decode(Double.self) { self = .double(d) }
            else { self = .string(try c.decode(String.self)) }
        }

        var any: Any {
            switch self {
            case .null: return NSNull()
            case .bool(let b): return b
            case .int(let i): return i
            case .double(let d): return d
            case .string(let s): return s
            case .array(let a): return a.map(\.any)
            case .object(let o): return o.mapValues(\.any)
            }
        }
    }

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
