import Foundation
import OSMPBF
import RoutingProfile
import RoutingTiles
import TileMath
import XCTest

let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
let samplePBF = repositoryRoot.appendingPathComponent("samples/liechtenstein.osm.pbf").path

/// A temporary directory removed after the test.
final class Scratch {
    let url: URL
    init() {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("offgrid-rt-\(getpid())-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    func path(_ name: String) -> String { url.appendingPathComponent(name).path }
    func write(_ name: String, _ bytes: [UInt8]) throws -> String {
        try Data(bytes).write(to: url.appendingPathComponent(name))
        return path(name)
    }
    func remove() { try? FileManager.default.removeItem(at: url) }
}

/// Builds tiles from a PBF with the default car profile.
func buildTiles(_ path: String, selected: Set<UInt32>? = nil, threads: Int = 2) throws -> RoutingTileBuild.Result {
    let build = RoutingTileBuild(profile: CarProfile.embeddedDefault, grid: RoutingGrid.standard)
    return try build.run(PBFReader(path: path, threads: threads), selected: selected)
}

func decodeAll(_ result: RoutingTileBuild.Result) throws -> [RoutingTile] {
    try result.tiles.map { try RoutingTileCodec.decode($0.raw) }
}

/// A built tool: next to the test bundle (debug) or in .build/release (after `make build`).
func toolBinary(_ name: String) throws -> URL {
    let exe = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    let candidates = [exe.deletingLastPathComponent(), Bundle.main.bundleURL.deletingLastPathComponent(),
                      repositoryRoot.appendingPathComponent(".build/debug"), repositoryRoot.appendingPathComponent(".build/release")]
    for dir in candidates {
        let url = dir.appendingPathComponent(name)
        if FileManager.default.isExecutableFile(atPath: url.path) { return url }
    }
    throw XCTSkip("\(name) is not built")
}

func runTool(_ name: String, _ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
    let process = Process()
    process.executableURL = try toolBinary(name)
    process.arguments = arguments
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let stdout = out.fileHandleForReading.readDataToEndOfFile()
    let stderr = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: stdout, as: UTF8.self), String(decoding: stderr, as: UTF8.self))
}
