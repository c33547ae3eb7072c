import Foundation
import Glibc
import OffgridCore
import TestSupport
import XCTest

/// The sample graph made by the tools as a user makes it (routing pack → tiles → graph), once
/// per test process, in a directory removed at exit.
enum SampleGraph {
    static let directory = FileManager.default.temporaryDirectory.appendingPathComponent("offgrid-osrm-\(getpid())")
    private static let lock = NSLock()
    private static var built: Result<String, Error>?

    static func path() throws -> String {
        lock.lock()
        defer { lock.unlock() }
        if let built { return try built.get() }
        let result = Result { () throws -> String in
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            atexit { try? FileManager.default.removeItem(at: SampleGraph.directory) }
            let d = directory.path
            for (tool, args) in [("tilepack-build", ["routing", "--input", TestTools.path("samples/liechtenstein.osm.pbf"), "--output", "\(d)/li.routing.pack"]),
                                 ("tilepack-unpack", ["\(d)/li.routing.pack", "--output", "\(d)/tiles"]),
                                 ("route-graph", ["\(d)/tiles", "--output", "\(d)/li.chg"])] {
                let r = try TestTools.run(tool, args)
                guard r.status == 0 else { throw HarnessError("\(tool) failed: \(r.stderr)") }
            }
            return "\(d)/li.chg"
        }
        built = result
        return try result.get()
    }

    /// The same tiles compiled with `profiles/<name>.json`.
    static func path(profile name: String) throws -> String {
        _ = try path()  // the tiles
        let out = directory.appendingPathComponent("li-\(name).chg").path
        lock.lock()
        defer { lock.unlock() }
        if FileManager.default.fileExists(atPath: out) { return out }
        let r = try TestTools.run("route-graph", ["\(directory.path)/tiles", "--profile", TestTools.path("profiles/\(name).json"),
                                                 "--output", out])
        guard r.status == 0 else { throw HarnessError("route-graph --profile \(name) failed: \(r.stderr)") }
        return out
    }
}

struct HarnessError: Error, CustomStringConvertible {
    let description: String
    init(_ d: String) { description = d }
}

/// `route-query serve` started on an ephemeral loopback port; `stop()` sends SIGTERM and waits.
/// Its stderr goes to a log file, shown in the failure when the server dies of a signal.
final class ServerProcess {
    let process = Process()
    let port: Int
    let logPath: String

    init(graph: String, extra: [String] = []) throws {
        process.executableURL = try TestTools.binary("route-query")
        process.arguments = ["serve", "--graph", graph, "--listen", "127.0.0.1:0", "--threads", "2"] + extra
        let out = Pipe()
        process.standardOutput = out
        try FileManager.default.createDirectory(at: SampleGraph.directory, withIntermediateDirectories: true)
        logPath = SampleGraph.directory.appendingPathComponent("serve-\(UUID().uuidString).log").path
        guard FileManager.default.createFile(atPath: logPath, contents: nil), let log = FileHandle(forWritingAtPath: logPath) else {
            throw HarnessError("cannot create the server log \(logPath)")
        }
        process.standardError = log
        try process.run()
        try? log.close()
        // The first stdout line names the bound port.
        var line = Data()
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            let byte = out.fileHandleForReading.readData(ofLength: 1)
            if byte.isEmpty || byte == Data([10]) { break }
            line.append(byte)
        }
        let text = String(decoding: line, as: UTF8.self)
        guard let json = try? JSONReader.parse(text), let url = json["listening"]?.stringValue,
              let port = url.split(separator: ":").last.flatMap({ Int($0) }), port > 0 else {
            process.terminate()
            throw HarnessError("route-query serve did not report a port: '\(text)'")
        }
        self.port = port
    }

    var base: String { "http://127.0.0.1:\(port)" }

    /// SIGTERM, then the exit status (it must exit within 60 s: requests in flight are answered first).
    @discardableResult
    func stop() -> Int32? {
        if process.isRunning {
            kill(process.processIdentifier, SIGTERM)
            let deadline = Date().addingTimeInterval(60)
            while process.isRunning && Date() < deadline { usleep(20_000) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL); process.waitUntilExit(); return nil }
        }
        if process.terminationReason == .uncaughtSignal {
            XCTFail("route-query serve died of signal \(process.terminationStatus); its stderr: \(log)")
        }
        return process.terminationStatus
    }

    /// What the server wrote on stderr so far.
    var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }
}

/// A plain HTTP/1.1 client on a socket: sends exactly the bytes it is given (bad UTF-8, huge
/// targets, half requests), so a test sees what the server does with them.
struct RawHTTP {
    let port: Int

    struct Reply {
        var status: Int
        var body: String
    }

    func connect(timeoutSeconds: Int = 15) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw HarnessError("socket: \(errno)") }
        var tv = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = UInt16(port).bigEndian
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        let ok = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard ok == 0 else { close(fd); throw HarnessError("connect: \(errno)") }
        return fd
    }

    func send(_ fd: Int32, _ bytes: [UInt8]) {
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return }
            sent += n
        }
    }

    /// Everything until the server closes (or the read times out).
    func readAll(_ fd: Int32) -> [UInt8] {
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { break }
            out += buffer[0..<n]
        }
        return out
    }

    /// One request with `Connection: close`; nil when the server closed without answering.
    func get(target: [UInt8]) throws -> Reply? {
        let fd = try connect()
        defer { close(fd) }
        send(fd, Array("GET ".utf8) + target + Array(" HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8))
        return Self.parse(readAll(fd))
    }

    func get(_ target: String) throws -> Reply? { try get(target: Array(target.utf8)) }

    static func parse(_ bytes: [UInt8]) -> Reply? {
        guard let end = bytes.firstRange(of: Array("\r\n\r\n".utf8)) else { return nil }
        let head = String(decoding: bytes[..<end.lowerBound], as: UTF8.self)
        let parts = head.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, let status = Int(parts[1]) else { return nil }
        return Reply(status: status, body: String(decoding: bytes[end.upperBound...], as: UTF8.self))
    }
}

/// A test case with a real `route-query serve` on the sample graph, started for each test and
/// stopped after it.
class SampleServerTestCase: XCTestCase {
    var server: ServerProcess!
    var http: RawHTTP { RawHTTP(port: server.port) }
    var graph: String!

    override func setUpWithError() throws {
        graph = try SampleGraph.path()
        server = try ServerProcess(graph: graph, extra: ["--idle-timeout", "2"])
    }

    override func tearDown() {
        server?.stop()
        server = nil
    }
}
