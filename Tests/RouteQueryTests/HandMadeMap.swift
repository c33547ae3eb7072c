import Foundation
import OffgridCore
import OSMPBF
import RouteQuery
import RoutingGraph
import RoutingPacks
import RoutingProfile
import RoutingTiles
import TestSupport
import TileMath
import XCTest

/// A small hand-made OSM map run through the whole build as a user runs it (PBF → tiles → pack →
/// unpacked tiles → graph file) and answered by a `RouteService`: the fixture of the rules-of-
/// the-road and guidance tests. Nodes are placed in metres east and north of 9.50 E, 47.10 N.
final class HandMadeMap {
    let scratch: Scratch
    private var maps = 0

    init(scratch: Scratch) { self.scratch = scratch }

    /// A point `east` and `north` metres from 9.50 E, 47.10 N.
    static func node(_ id: Int64, _ east: Double, _ north: Double, _ tags: [(String, String)] = []) -> OSMNode {
        let p = TestLocalMetres(origin: GeoPoint(lon: 9.50, lat: 47.10)).point(east: east, north: north)
        return OSMNode(id: id, lat: p.lat, lon: p.lon, tags: tags)
    }

    /// A way named `name`, a primary road unless `tags` say otherwise.
    static func way(_ id: Int64, _ refs: [Int64], _ name: String, _ tags: [(String, String)] = [("highway", "primary")]) -> OSMWay {
        OSMWay(id: id, refs: refs, tags: tags + [("name", name)])
    }

    /// The service over the map for `profile` (the car by default), and its nodes by id.
    func service(_ nodes: [OSMNode], _ ways: [OSMWay], _ relations: [OSMRelation] = [],
                 profile: TravelProfile = .embeddedDefault) throws -> (RouteService, [Int64: OSMNode]) {
        maps += 1
        let map = "map\(maps)"
        var writer = PBFWriter()
        writer.replicationTimestamp = 1_700_000_000
        let pbf = try scratch.write(map + ".osm.pbf", writer.encode(nodes: nodes, ways: ways, relations: relations))
        let tiles = try RoutingTileBuild(grid: RoutingGrid.standard).run(PBFReader(path: pbf), selected: nil)
        let pack = scratch.path(map + ".routing.pack")
        try RoutingPackWriter.write(header: RoutingPackHeader(dataVersion: tiles.dataVersion, profileName: RoutingTagSchema.name, profileHash: RoutingTagSchema.hash,
                                                              gridDegrees: 0.25, regionBBox: (9, 47, 10, 48), createdBy: "test"),
                                    tiles: tiles.tiles, to: pack)
        _ = try RoutingPackUnpacker.unpack(packPath: pack, outputDir: scratch.path(map + ".tiles"), progress: SilentProgress())
        _ = try GraphBuild(profile: profile).run(directories: [scratch.path(map + ".tiles")], output: scratch.path(map + ".chg"))
        return (try RouteService(data: try RoutingData(path: scratch.path(map + ".chg"))), Dictionary(uniqueKeysWithValues: nodes.map { ($0.id, $0) }))
    }

    /// Steps of the route between two nodes as "type modifier name (mode)" strings, with
    /// " exit-N" after the modifier when the step has an exit number.
    static func steps(_ s: RouteService, _ at: [Int64: OSMNode], _ from: Int64, _ to: Int64) throws -> [String] {
        var request = RouteRequest(coordinates: [(at[from]!.lon, at[from]!.lat), (at[to]!.lon, at[to]!.lat)])
        request.steps = true
        let leg = try XCTUnwrap(try s.routes(request).routes.first?.legs.first)
        return leg.steps.map { step in
            [step.maneuver.type, step.maneuver.modifier, step.maneuver.exit.map { "exit-\($0)" }, step.name,
             step.mode == "driving" ? nil : "(\(step.mode))"]
                .compactMap { $0 }.joined(separator: " ")
        }
    }
}
