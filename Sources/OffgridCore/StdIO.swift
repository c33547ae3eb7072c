#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Minimal unbuffered stderr writes, independent of Foundation.
public enum StdIO {
    public static func err(_ s: String) {
        var s = s
        s.withUTF8 { buf in
            var p = buf.baseAddress
            var left = buf.count
            while left > 0, let base = p {
                let n = write(2, base, left)
                if n <= 0 { break }
                p = base + n
                left -= n
            }
        }
    }

    public static func out(_ s: String) {
        var s = s
        s.withUTF8 { buf in
            var p = buf.baseAddress
            var left = buf.count
            while left > 0, let base = p {
                let n = write(1, base, left)
                if n <= 0 { break }
                p = base + n
                left -= n
            }
        }
    }
}
