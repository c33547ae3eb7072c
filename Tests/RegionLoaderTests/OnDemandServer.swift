import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import OffgridCore
import PackRepository
import TestSupport
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// `tilestore serve --repository URL` on a free loopback port, stopped by `stop()`.
final class OnDemandServer {
    let process = Process()
    let base: String
    private let stdout = Pipe()
    let stderrFile: String

    init(store: String, repository: String, extra: [String] = [], scratch: Scratch) throws {
        stderrFile = scratch.path("serve-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: stderrFile, contents: nil)
        process.executableURL = try TestTools.binary("tilestore")
        process.arguments = ["--store", store, "serve", "--listen", "127.0.0.1:0", "--repository", repository,
                             "--repository-check", "0.2", "--reload", "0.2", "--retries", "1", "--timeout", "3"] + extra
        process.standardOutput = stdout
        process.standardError = FileHandle(forWritingAtPath: stderrFile)
        try process.run()
        var line: [UInt8] = []
        let handle = stdout.fileHandleForReading
        while !line.contains(10) {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            line += chunk
        }
        guard let json = try? JSONReader.parse(String(decoding: line, as: UTF8.self)), let address = json["listening"]?.stringValue else {
            process.terminate()
            let log = (try? String(contentsOfFile: stderrFile, encoding: .utf8)) ?? ""
            throw Loopback.StartFailure("tilestore serve --repository did not start: \(String(decoding: line, as: UTF8.self)) \(log)")
        }
        base = "http://\(address)"
    }

    var log: String { (try? String(contentsOfFile: stderrFile, encoding: .utf8)) ?? "" }

    @discardableResult
    func stop() -> Int32 {
        if process.isRunning {
            kill(process.processIdentifier, SIGTERM)
            process.waitUntilExit()
        }
        return process.terminationStatus
    }

    deinit { if process.isRunning { process.terminate() } }
}

/// One GET with URLSession (a real HTTP client): status, headers (lower-cased names), body.
struct HTTPAnswer {
    var status: Int
    var headers: [String: String]
    var body: Data
}

func httpGet(_ url: String, timeout: Double = 60) -> HTTPAnswer {
    var request = URLRequest(url: URL(string: url)!)
    request.timeoutInterval = timeout
    request.setValue("identity", forHTTPHeaderField: "Accept-Encoding")
    let done = DispatchSemaphore(value: 0)
    let answer = LockedValue(HTTPAnswer(status: -1, headers: [:], body: Data()))
    let session = URLSession(configuration: .ephemeral)
    session.dataTask(with: request) { data, response, _ in
        if let h = response as? HTTPURLResponse {
            var headers: [String: String] = [:]
            for (k, v) in h.allHeaderFields { headers["\(k)".lowercased()] = "\(v)" }
            answer.set(HTTPAnswer(status: h.statusCode, headers: headers, body: data ?? Data()))
        }
        done.signal()
    }.resume()
    done.wait()
    session.finishTasksAndInvalidate()
    return answer.get()
}

/// A private copy of the shared fixture's repository (real copies, never hard links: tests
/// rewrite its index and objects), with `index.json` listing only the tileset versions asked for.
struct RepositoryCopy {
    let root: String
    var repository: String { root + "/repository" }

    init(_ fixture: RepositoryFixture, scratch: Scratch, name: String) throws {
        root = scratch.path(name)
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: fixture.repository, toPath: root + "/repository")
    }

    /// Rewrites `index.json` (temp + rename, as the publisher does) to list only `versions` of
    /// the tileset, newest first.
    func listOnly(versions: [String]) throws {
        let path = repository + "/index.json"
        var index = try RepositoryIndex.decode(FileTools.readFile(path, maxBytes: 1 << 20), source: path)
        index.tilesets = index.tilesets.map { t in
            var t = t
            t.versions = versions.compactMap { v in t.versions.first { $0.version == v } }
            return t
        }
        try AtomicFile.write(index.encoded(), to: path)
    }

    func index(version: String) throws -> TilesetVersionIndex {
        let path = repository + "/tilesets/liechtenstein/\(version).json"
        return try TilesetVersionIndex.decode(FileTools.readFile(path, maxBytes: 64 << 20), source: path)
    }

    func objectPath(_ sha: String) -> String { repository + "/objects/\(sha.prefix(2))/\(sha)" }
}

/// The z/x/y of a pack key's parent tile (`11-12/11-1071-718` → 11/1071/718): a tile of that pack.
func parentTile(_ key: String) -> (Int, Int, Int) {
    let p = key.split(separator: "/")[1].split(separator: "-").compactMap { Int($0) }
    return (p[0], p[1], p[2])
}
