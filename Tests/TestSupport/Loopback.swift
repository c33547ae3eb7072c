import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Loopback ports for the servers tests start (nginx, osrm-routed, the fault proxy): 127.0.0.1 only.
public enum Loopback {
    /// A test server that could not start: thrown, so the test fails (never skips) with the reason.
    public struct StartFailure: Error, CustomStringConvertible {
        public let description: String
        public init(_ description: String) { self.description = description }
    }

    /// A port free right now (bound to port 0, read, released), for servers that cannot bind
    /// port 0 and report it; the server binds it right after.
    public static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        addr.sin_port = 0
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &addr) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, len) == 0 && getsockname(fd, $0, &len) == 0 }
        }
        guard ok else { throw StartFailure("cannot bind a loopback socket") }
        return Int(UInt16(bigEndian: addr.sin_port))
    }

    /// Waits until something accepts connections on 127.0.0.1:port.
    public static func waitForPort(_ port: Int, seconds: Double = 10) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var addr = sockaddr_in()
            addr.sin_family = sa_family_t(AF_INET)
            addr.sin_addr.s_addr = inet_addr("127.0.0.1")
            addr.sin_port = in_port_t(UInt16(port).bigEndian)
            let ok = withUnsafePointer(to: &addr) { p in
                p.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
            }
            close(fd)
            if ok { return true }
            usleep(50_000)
        }
        return false
    }
}
