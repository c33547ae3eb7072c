import Foundation
import OSMPBF
import RoutingGraph
import RoutingProfile
import RoutingTiles
import TileMath
import XCTest

let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
let samplePBF = repositoryRoot.appendingPathComponent("samples/liechtenstein.osm.pbf").path

/// Tiles of a PBF file built in memory with the default profile.
func tiles(ofPBF path: String) throws -> [RoutingTile] {
    let build = RoutingTileBuild(grid: RoutingGrid.standard)
    return try build.run(PBFReader(path: path), selected: nil).tiles.map { try RoutingTileCodec.decode($0.raw) }
}

/// Tiles of a hand-made network, read back from a PBF file written to (and then removed from)
/// a temporary directory.
func tiles(ofHandMade nodes: [OSMNode], _ ways: [OSMWay], _ relations: [OSMRelation] = []) throws -> [RoutingTile] {
    var writer = PBFWriter()
    writer.replicationTimestamp = 1_700_000_000
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("offgrid-graph-\(getpid())-\(UUID().uuidString).osm.pbf")
    defer { try? FileManager.default.removeItem(at: url) }
    try Data(writer.encode(nodes: nodes, ways: ways, relations: relations)).write(to: url)
    return try tiles(ofPBF: url.path)
}

/// Plain Dijkstra over the edge-based graph's arcs: the test oracle, independent of the CH code.
/// Returns the weight (source node's own weight not included) and the path of edge-based nodes.
func oracleShortestPath(_ eb: EdgeBasedGraph, from sources: [UInt32], to targets: Set<UInt32>) -> (UInt64, [UInt32])? {
    var out = [[(UInt32, UInt32)]](repeating: [], count: eb.nodeCount)
    for i in 0..<eb.arcs.tails.count { out[Int(eb.arcs.tails[i])].append((eb.arcs.heads[i], eb.arcs.weights[i])) }
    var dist = [UInt64](repeating: UInt64.max, count: eb.nodeCount)
    var parent = [UInt32](repeating: UInt32.max, count: eb.nodeCount)
    var done = [Bool](repeating: false, count: eb.nodeCount)
    for s in sources { dist[Int(s)] = 0 }
    while true {
        var best = -1
        for v in 0..<eb.nodeCount where !done[v] && dist[v] != UInt64.max && (best < 0 || dist[v] < dist[best]) { best = v }
        guard best >= 0 else { return nil }
        done[best] = true
        if targets.contains(UInt32(best)) {
            var path = [UInt32(best)]
            while parent[Int(path.last!)] != UInt32.max { path.append(parent[Int(path.last!)]) }
            return (dist[best], path.reversed())
        }
        for (w, weight) in out[best] where dist[best] + UInt64(weight) < dist[Int(w)] {
            dist[Int(w)] = dist[best] + UInt64(weight)
            parent[Int(w)] = UInt32(best)
        }
    }
}

extension RoadGraph {
    /// The edge between two OSM nodes (either direction), and whether it runs a → b.
    func edge(_ a: Int64, _ b: Int64) -> (Int, Bool)? {
        for e in 0..<edgeCount {
            let f = nodeOsmId[Int(edgeFrom[e])], t = nodeOsmId[Int(edgeTo[e])]
            if f == a && t == b { return (e, true) }
            if f == b && t == a { return (e, false) }
        }
        return nil
    }
}
