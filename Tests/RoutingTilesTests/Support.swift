import Foundation
import OSMPBF
import RoutingProfile
import RoutingTiles
import TileMath
import TestSupport
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

/// The project's built tools, run as a user runs them (shared helper in TestSupport).
func runTool(_ name: String, _ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
    try TestTools.run(name, arguments)
}
