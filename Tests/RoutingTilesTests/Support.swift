import Foundation
import OSMPBF
import RoutingProfile
import RoutingTiles
import TileMath
import TestSupport
import XCTest

let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
let samplePBF = repositoryRoot.appendingPathComponent("samples/liechtenstein.osm.pbf").path

/// Builds tiles from a PBF with the default car profile.
func buildTiles(_ path: String, selected: Set<UInt32>? = nil, threads: Int = 2) throws -> RoutingTileBuild.Result {
    let build = RoutingTileBuild(grid: RoutingGrid.standard)
    return try build.run(PBFReader(path: path, threads: threads), selected: selected)
}

func decodeAll(_ result: RoutingTileBuild.Result) throws -> [RoutingTile] {
    try result.tiles.map { try RoutingTileCodec.decode($0.raw) }
}

/// The project's built tools, run as a user runs them (shared helper in TestSupport).
func runTool(_ name: String, _ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
    try TestTools.run(name, arguments)
}
