import CFuzzDriver
import Foundation
import OffgridCore

/// What every fuzz target shares: the input as bytes, the rule that a reader either returns or
/// throws an error whose message is one line (a trap, an out-of-bounds access, a leak, a hang or
/// a multi-line message is a finding), and scratch files for readers that take a path.
public enum FuzzInput {
    /// An executable's main: SwiftPM links an executable target's entry point as `<module>_main`
    /// (so that tests can import executables), which leaves no room for libFuzzer's own `main`;
    /// each target defines that symbol and hands over to libFuzzer's driver here.
    public static func main(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
                            _ callback: offgrid_fuzz_callback) -> Int32 {
        offgrid_fuzz_run_driver(argc, argv, callback)
    }

    /// Runs `body` on the fuzzer's bytes. Thrown errors are the reader refusing the input, which
    /// is fine; their text must still be one line, as the tools print it.
    public static func run(_ data: UnsafePointer<UInt8>?, _ size: Int, _ body: ([UInt8]) throws -> Void) -> Int32 {
        let bytes = size == 0 || data == nil ? [] : Array(UnsafeBufferPointer(start: data, count: size))
        do {
            try body(bytes)
        } catch {
            requireOneLine(error)
        }
        return 0
    }

    /// A reader's error as the tools print it (`"\(error)"`) must not span lines.
    public static func requireOneLine(_ error: Error) {
        let text = "\(error)"
        if text.contains(where: { $0 == "\n" || $0 == "\r" }) {
            fatalError("error message spans several lines (\(type(of: error))): \(text.debugDescription)")
        }
    }

    /// Where scratch files go: /dev/shm when there is one (no disk writes per execution).
    static let scratchDirectory: String = {
        var isDir: ObjCBool = false
        if FileManager.default.fileExists(atPath: "/dev/shm", isDirectory: &isDir), isDir.boolValue,
           access("/dev/shm", W_OK) == 0 {
            return "/dev/shm"
        }
        return NSTemporaryDirectory()
    }()

    /// Writes `bytes` to a scratch file (named per process, so parallel fuzzers do not collide),
    /// runs `body` on its path and removes it with the companions a reader may create (SQLite's
    /// `-journal`, `-wal`, `-shm`).
    public static func withFile<R>(_ bytes: [UInt8], suffix: String, _ body: (String) throws -> R) throws -> R {
        let path = "\(scratchDirectory)/offgrid-fuzz-\(getpid())\(suffix)"
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { fatalError("fuzz: cannot create \(path): \(String(cString: strerror(errno)))") }
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + written, $0.count - written) }
            guard n > 0 else { fatalError("fuzz: cannot write \(path): \(String(cString: strerror(errno)))") }
            written += n
        }
        close(fd)
        defer { for extra in ["", "-journal", "-wal", "-shm"] { unlink(path + extra) } }
        return try body(path)
    }

    /// The sample's car graph the query targets (OSRM URLs, batch lines) answer from:
    /// `OFFGRID_FUZZ_GRAPH`, which `make fuzz` sets (Tests/fuzz/make-seeds builds it). Missing is
    /// an error that says so, never a silent fallback.
    public static func sampleGraphPath() -> String {
        guard let path = ProcessInfo.processInfo.environment["OFFGRID_FUZZ_GRAPH"], !path.isEmpty else {
            fputs("fuzz: set OFFGRID_FUZZ_GRAPH to the sample's car graph (make fuzz does; Tests/fuzz/make-seeds builds it)\n", stderr)
            exit(2)
        }
        guard FileManager.default.fileExists(atPath: path) else {
            fputs("fuzz: OFFGRID_FUZZ_GRAPH=\(path) does not exist (run Tests/fuzz/make-seeds)\n", stderr)
            exit(2)
        }
        return path
    }
}

/// Little-endian field access for the checksum fix-ups.
extension Array where Element == UInt8 {
    func u32(at i: Int) -> UInt32 {
        UInt32(self[i]) | UInt32(self[i + 1]) << 8 | UInt32(self[i + 2]) << 16 | UInt32(self[i + 3]) << 24
    }

    func u64(at i: Int) -> UInt64 { UInt64(u32(at: i)) | UInt64(u32(at: i + 4)) << 32 }

    mutating func put32(_ v: UInt32, at i: Int) { for k in 0..<4 { self[i + k] = UInt8(truncatingIfNeeded: v >> (8 * k)) } }

    mutating func put64(_ v: UInt64, at i: Int) { for k in 0..<8 { self[i + k] = UInt8(truncatingIfNeeded: v >> (8 * k)) } }
}
