import Foundation

/// JSON text for stdout and for files, with sorted keys and unescaped slashes so that the same
/// value always gives the same bytes (manifests are compared byte for byte across runs).
public enum JSONOutput {
    /// Serializes a JSON-compatible value (dictionaries with String keys, arrays, String, numbers,
    /// Bool, NSNull). Top-level scalars are allowed. Pretty output uses Foundation's indentation.
    ///
    /// Passing a value JSON cannot represent (a NaN, a Date, a custom struct) is a programming
    /// error and stops the process with a message.
    public static func string(_ value: Any, pretty: Bool = true) -> String {
        var options: JSONSerialization.WritingOptions = [.sortedKeys, .withoutEscapingSlashes, .fragmentsAllowed]
        if pretty { options.insert(.prettyPrinted) }
        guard isRepresentable(value),
              let data = try? JSONSerialization.data(withJSONObject: value, options: options),
              let text = String(data: data, encoding: .utf8)
        else {
            preconditionFailure("JSONOutput: value is not representable as JSON: \(value)")
        }
        return text
    }

    /// Pretty JSON followed by a newline on stdout.
    public static func printStdout(_ value: Any) {
        StdIO.out(string(value, pretty: true) + "\n")
    }

    /// Checked before serializing because Foundation raises (rather than throws) on some
    /// invalid values on Darwin, and non-finite numbers have no JSON spelling.
    private static func isRepresentable(_ value: Any) -> Bool {
        switch value {
        case is String, is Bool, is NSNull:
            return true
        case let d as Double:
            return d.isFinite
        case let f as Float:
            return f.isFinite
        case is Int, is Int8, is Int16, is Int32, is Int64, is UInt, is UInt8, is UInt16, is UInt32, is UInt64:
            return true
        case let n as NSNumber:
            return !n.doubleValue.isNaN && !n.doubleValue.isInfinite
        case let array as [Any]:
            return array.allSatisfy(isRepresentable)
        case let dict as [String: Any]:
            return dict.values.allSatisfy(isRepresentable)
        default:
            return false
        }
    }
}
