import Foundation
import TestSupport
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// nginx from Debian's packages, in the foreground on a loopback port, serving `root` with the
/// config template `Tests/nginx/repository.conf.template`. Stopped by `stop()` (tests defer it).
final class NginxServer {
    let process = Process()
    let port: Int
    let prefix: String

    init(root: String, scratch: Scratch) throws {
        let nginx = ["/usr/sbin/nginx", "/usr/bin/nginx"].first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let nginx else {
            throw Loopback.StartFailure("nginx is not installed: run `make test-deps` (it installs nginx from Debian's packages)")
        }
        port = try Loopback.freePort()
        prefix = scratch.path("nginx-\(port)")
        try FileManager.default.createDirectory(atPath: prefix + "/tmp", withIntermediateDirectories: true)
        let template = try String(contentsOfFile: TestTools.path("Tests/nginx/repository.conf.template"), encoding: .utf8)
        let conf = template.replacingOccurrences(of: "@PORT@", with: String(port))
            .replacingOccurrences(of: "@ROOT@", with: root).replacingOccurrences(of: "@PREFIX@", with: prefix)
        let confPath = prefix + "/nginx.conf"
        try conf.write(toFile: confPath, atomically: true, encoding: .utf8)
        process.executableURL = URL(fileURLWithPath: nginx)
        process.arguments = ["-p", prefix, "-c", confPath, "-e", prefix + "/error.log"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        guard Loopback.waitForPort(port) else {
            stop()
            let log = (try? String(contentsOfFile: prefix + "/error.log", encoding: .utf8)) ?? ""
            throw Loopback.StartFailure("nginx did not start on 127.0.0.1:\(port): \(log)")
        }
    }

    var accessLog: String { prefix + "/access.log" }

    /// Bytes nginx sent for paths containing `match`, per its access log (body bytes).
    func bytesSent(matching match: String = "/objects/") -> Int64 {
        let text = (try? String(contentsOfFile: accessLog, encoding: .utf8)) ?? ""
        var total: Int64 = 0
        for line in text.split(separator: "\n") where line.contains(match) {
            // combined: … "GET /path HTTP/1.1" STATUS BYTES "ref" "ua"
            let afterRequest = line.components(separatedBy: "\" ")
            guard afterRequest.count > 1 else { continue }
            let fields = afterRequest[1].split(separator: " ")
            if fields.count >= 2, let n = Int64(fields[1]) { total += n }
        }
        return total
    }

    func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }
}

/// The fault-injecting proxy (Tests/python/fault_proxy.py) in front of nginx.
final class FaultProxy {
    let process = Process()
    let port: Int
    let faults: String
    let log: String

    init(upstream: Int, scratch: Scratch) throws {
        let python = try TestPython.executable()
        faults = scratch.path("faults-\(UUID().uuidString).json")
        log = scratch.path("proxy-\(UUID().uuidString).ndjson")
        let portFile = scratch.path("proxy-port-\(UUID().uuidString)")
        try "{}".write(toFile: faults, atomically: true, encoding: .utf8)
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [TestTools.path("Tests/python/fault_proxy.py"), String(upstream), faults, log, portFile]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(10)
        var port: Int?
        while Date() < deadline {
            if let text = try? String(contentsOfFile: portFile, encoding: .utf8), let p = Int(text) { port = p; break }
            usleep(50_000)
        }
        guard let port, Loopback.waitForPort(port) else {
            process.terminate()
            throw Loopback.StartFailure("the fault proxy did not start")
        }
        self.port = port
    }

    func set(_ mode: String?, match: String = "/objects/", remaining: Int = -1) throws {
        let text = mode.map { "{\"mode\": \"\($0)\", \"match\": \"\(match)\", \"remaining\": \(remaining)}" } ?? "{}"
        try text.write(toFile: faults, atomically: true, encoding: .utf8)
    }

    struct Entry { var path: String; var range: String?; var status: Int; var bytes: Int64; var fault: String? }

    func entries() -> [Entry] {
        let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            guard let o = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return nil }
            return Entry(path: o["path"] as? String ?? "", range: o["range"] as? String, status: o["status"] as? Int ?? 0,
                         bytes: Int64(o["bytes"] as? Int ?? 0), fault: o["fault"] as? String)
        }
    }

    func clearLog() { try? "".write(toFile: log, atomically: true, encoding: .utf8) }

    func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }
}
