import Foundation
import OffgridCore
import TestSupport
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// A store built from the real sample with the real tools: the Oberland region and a region on
/// the source's eastern edge (tiles in its cover the source does not have: 204), both from the
/// sample MBTiles, and the sample style pack. Built once per test run.
enum SampleStore {
    static let scratch = Scratch("tileserver")
    static let mbtiles = TestTools.path("samples/liechtenstein.mbtiles")
    /// A polygon reaching past the source's bounds (9.636°E) into Austria.
    static let eastEdge = #"{"type":"Polygon","coordinates":[[[9.60,47.10],[9.70,47.10],[9.70,47.15],[9.60,47.15],[9.60,47.10]]]}"#
    /// z14 tile at 9.69°E 47.12°N: in the east-edge cover, not in the source.
    static let absentTile = "14/8633/5754"

    static let store: Result<String, Error> = Result {
        let root = scratch.path("store")
        let east = try scratch.write("east-edge.geojson", eastEdge)
        try FileManager.default.createDirectory(atPath: scratch.path("maps"), withIntermediateDirectories: true)
        for (id, region) in [("liechtenstein-oberland", TestTools.path("samples/regions/liechtenstein-oberland.geojson")), ("east-edge", east)] {
            try expectSuccess("tilepack-build", ["maps", "--source", mbtiles, "--region", region, "--id", id, "--zoom", "0-14",
                                                 "--output", scratch.path("maps/\(id)"), "--quiet"])
            try expectSuccess("tilestore", ["--store", root, "install", scratch.path("maps/\(id)"), "--quiet"])
        }
        try expectSuccess("tilepack-build", ["style", "--style", TestTools.path("samples/style/style.json"), "--resources",
                                             TestTools.path("samples/style"), "--pixel-ratio", "1,2", "--uri", "offgrid://styles/basic",
                                             "--output", scratch.path("basic.stylepack")])
        try expectSuccess("tilestore", ["--store", root, "install-style", scratch.path("basic.stylepack")])
        return root
    }

    struct ToolFailed: Error, CustomStringConvertible {
        var description: String
    }

    @discardableResult
    static func expectSuccess(_ tool: String, _ args: [String]) throws -> ToolResult {
        let r = try TestTools.result(tool, args)
        guard r.status == 0 else { throw ToolFailed(description: "\(tool) \(args.joined(separator: " ")) failed (\(r.status)): \(r.stderr)") }
        return r
    }
}

/// `tilestore serve` on a free loopback port, stopped by `stop()` (tests call it in a defer).
final class ServerProcess {
    let process = Process()
    let base: String
    private let stdout = Pipe()
    let stderr = Pipe()

    init(store: String, extra: [String] = []) throws {
        process.executableURL = try TestTools.binary("tilestore")
        process.arguments = ["--store", store, "serve", "--listen", "127.0.0.1:0"] + extra
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        // The first stdout line says where it listens.
        var line: [UInt8] = []
        let handle = stdout.fileHandleForReading
        let deadline = Date().addingTimeInterval(60)
        while !line.contains(10), Date() < deadline {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            line += chunk
        }
        guard let text = String(bytes: line, encoding: .utf8), let json = try? JSONReader.parse(text),
              let address = json["listening"]?.stringValue else {
            process.terminate()
            throw SampleStore.ToolFailed(description: "tilestore serve did not say where it listens: \(String(decoding: line, as: UTF8.self)) \(String(decoding: stderr.fileHandleForReading.availableData, as: UTF8.self))")
        }
        base = "http://\(address)"
    }

    /// SIGTERM and wait; the exit status.
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

/// Runs a Python script of Tests/interop with the project venv; the parsed JSON of its last stdout line.
func runPython(_ script: String, _ args: [String], environment: [String: String] = [:]) throws -> (status: Int32, output: String, stderr: String) {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: try TestPython.executable())
    p.arguments = [TestTools.path("Tests/interop/\(script)")] + args
    p.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
    let out = Pipe(), err = Pipe()
    p.standardOutput = out
    p.standardError = err
    try p.run()
    let errData = LockedValue(Data())
    let group = DispatchGroup()
    group.enter()
    DispatchQueue.global().async { errData.set(err.fileHandleForReading.readDataToEndOfFile()); group.leave() }
    let data = out.fileHandleForReading.readDataToEndOfFile()
    group.wait()
    p.waitUntilExit()
    return (p.terminationStatus, String(decoding: data, as: UTF8.self), String(decoding: errData.get(), as: UTF8.self))
}
