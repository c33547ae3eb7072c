import Foundation

/// JSON text for stdout and for files: sorted keys, unescaped slashes, shortest round-trip
/// numbers, so that the same value always gives the same bytes (manifests are compared byte for
/// byte across runs). Written directly rather than through Foundation's JSONSerialization, which
/// bridges every value to an Objective-C object and dominated the time of large route answers.
public enum JSONOutput {
    /// Serializes a JSON-compatible value: dictionaries with String keys, arrays, String,
    /// integers, finite floating-point numbers, Bool, NSNull, NSNumber. Top-level scalars are
    /// allowed. Pretty output matches Foundation's (two-space indents, `"key" : value`).
    ///
    /// Passing a value JSON cannot represent (a NaN, a Date, a custom struct) is a programming
    /// error and stops the process with a message.
    public static func string(_ value: Any, pretty: Bool = true) -> String {
        var out = ""
        out.reserveCapacity(256)
        write(value, to: &out, pretty: pretty, indent: 0)
        return out
    }

    /// Pretty JSON followed by a newline on stdout.
    public static func printStdout(_ value: Any) {
        StdIO.out(string(value, pretty: true) + "\n")
    }

    static func write(_ value: Any, to out: inout String, pretty: Bool, indent: Int) {
        // Dispatch on the dynamic type without `as?` casts between unrelated types: casting a
        // Swift collection to a scalar type makes the runtime bridge it to Foundation whole. The
        // common scalars go first, by metatype, before any (slower) protocol conformance check.
        let type = type(of: value)
        if type == String.self { writeString(value as! String, to: &out); return }
        if type == Double.self { writeDouble(value as! Double, to: &out); return }
        if type == Int.self { out += String(value as! Int); return }
        if type == Bool.self { out += (value as! Bool) ? "true" : "false"; return }
        if let object = value as? JSONObjectValue {
            let keys = object.jsonKeys.sorted()
            if keys.isEmpty { out += "{}"; return }
            out += "{"
            for (i, key) in keys.enumerated() {
                if i > 0 { out += "," }
                if pretty { newline(&out, indent + 1) }
                writeString(key, to: &out)
                out += pretty ? " : " : ":"
                write(object.jsonValue(forKey: key), to: &out, pretty: pretty, indent: indent + 1)
            }
            if pretty { newline(&out, indent) }
            out += "}"
            return
        }
        if let array = value as? JSONArrayValue {
            let count = array.jsonCount
            if count == 0 { out += "[]"; return }
            out += "["
            for i in 0..<count {
                if i > 0 { out += "," }
                if pretty { newline(&out, indent + 1) }
                write(array.jsonElement(i), to: &out, pretty: pretty, indent: indent + 1)
            }
            if pretty { newline(&out, indent) }
            out += "]"
            return
        }
        if type is NSNumber.Type {
            // Numbers from Foundation (parsed JSON): the type code tells a bool from a number.
            let n = unsafeDowncast(value as AnyObject, to: NSNumber.self)
            let code = String(cString: n.objCType)
            if code == "c" || code == "B" { out += n.boolValue ? "true" : "false" }
            else if code == "d" || code == "f" { writeDouble(n.doubleValue, to: &out) }
            else { out += String(n.int64Value) }
            return
        }
        if type is NSNull.Type { out += "null"; return }
        if type is NSString.Type { writeString(String(describing: value), to: &out); return }
        switch value {
        case let i as Int64: out += String(i)
        case let i as Int32: out += String(i)
        case let i as Int16: out += String(i)
        case let i as Int8: out += String(i)
        case let i as UInt: out += String(i)
        case let i as UInt64: out += String(i)
        case let i as UInt32: out += String(i)
        case let i as UInt16: out += String(i)
        case let i as UInt8: out += String(i)
        case let f as Float: writeDouble(Double(f), to: &out)
        case let s as Substring: writeString(String(s), to: &out)
        default:
            preconditionFailure("JSONOutput: value is not representable as JSON: \(value)")
        }
    }

    @inline(__always) static func newline(_ out: inout String, _ indent: Int) { JSONWriter.newline(&out, indent) }
    static func writeDouble(_ d: Double, to out: inout String) { JSONWriter.writeDouble(d, to: &out) }
    static func writeString(_ s: String, to out: inout String) { JSONWriter.writeString(s, to: &out) }
}

/// Dictionaries with String keys, whatever their value type.
protocol JSONObjectValue {
    var jsonKeys: [String] { get }
    func jsonValue(forKey key: String) -> Any
}

extension Dictionary: JSONObjectValue where Key == String {
    var jsonKeys: [String] { Array(keys) }
    func jsonValue(forKey key: String) -> Any { self[key]! }
}

/// Arrays, whatever their element type.
protocol JSONArrayValue {
    var jsonCount: Int { get }
    func jsonElement(_ i: Int) -> Any
}

extension Array: JSONArrayValue {
    var jsonCount: Int { count }
    func jsonElement(_ i: Int) -> Any { self[i] }
}
