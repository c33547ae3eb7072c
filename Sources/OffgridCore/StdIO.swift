#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Minimal unbuffered stdout/stderr writes, independent of Foundation.
public enum StdIO {
    public static func err(_ s: String) { writeAll(s, to: 2) }

    public static func out(_ s: String) { writeAll(s, to: 1) }

    public static func out(_ bytes: [UInt8]) { bytes.withUnsafeBytes { _ = FileTools.writeAll(1, $0) } }

    private static func writeAll(_ s: String, to fd: Int32) {
        var s = s
        _ = s.withUTF8 { FileTools.writeAll(fd, UnsafeRawBufferPointer($0)) }
    }
}
