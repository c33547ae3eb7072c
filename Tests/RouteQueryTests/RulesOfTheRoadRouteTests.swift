import OffgridCore
import Foundation
import OSMPBF
import RouteQuery
import RoutingGraph
import RoutingPacks
import RoutingProfile
import RoutingTiles
import TestSupport
import TileMath
import XCTest

/// The rules of the road end to end on hand-made maps (PBF → tiles → pack → unpacked tiles →
/// graph file → routes with steps): what a driver is told, as OSRM's features expect it.
final class RulesOfTheRoadRouteTests: XCTestCase {
    var scratch: Scratch!
    override func setUp() { scratch = Scratch() }
    override func tearDown() { scratch.remove() }

    /// A point `east` and `north` metres from 9.50 E, 47.10 N.
    func node(_ id: Int64, _ east: Double, _ north: Double, _ tags: [(String, String)] = []) -> OSMNode {
        let p = TestLocalMetres(origin: GeoPoint(lon: 9.50, lat: 47.10)).point(east: east, north: north)
        return OSMNode(id: id, lat: p.lat, lon: p.lon, tags: tags)
    }

    var maps = 0

    func service(_ nodes: [OSMNode], _ ways: [OSMWay], _ relations: [OSMRelation] = []) throws -> (RouteService, [Int64: OSMNode]) {
        maps += 1
        let map = "map\(maps)"
        var writer = PBFWriter()
        writer.replicationTimestamp = 1_700_000_000
        let pbf = try scratch.write(map + ".osm.pbf", writer.encode(nodes: nodes, ways: ways, relations: relations))
        let profile = CarProfile.embeddedDefault
        let tiles = try RoutingTileBuild(profile: profile, grid: RoutingGrid.standard).run(PBFReader(path: pbf), selected: nil)
        let pack = scratch.path(map + ".routing.pack")
        try RoutingPackWriter.write(header: RoutingPackHeader(dataVersion: tiles.dataVersion, profileName: "car", profileHash: profile.hash,
                                                              gridDegrees: 0.25, regionBBox: (9, 47, 10, 48), createdBy: "test"),
                                    tiles: tiles.tiles, to: pack)
        _ = try RoutingPackUnpacker.unpack(packPath: pack, outputDir: scratch.path(map + ".tiles"), progress: SilentProgress())
        _ = try GraphBuild(profile: profile).run(directories: [scratch.path(map + ".tiles")], output: scratch.path(map + ".chg"))
        return (try RouteService(data: try RoutingData(path: scratch.path(map + ".chg"))), Dictionary(uniqueKeysWithValues: nodes.map { ($0.id, $0) }))
    }

    func way(_ id: Int64, _ refs: [Int64], _ name: String, _ tags: [(String, String)] = [("highway", "primary")]) -> OSMWay {
        OSMWay(id: id, refs: refs, tags: tags + [("name", name)])
    }

    /// Steps of the route between two nodes as "type modifier name (mode)" strings.
    func steps(_ s: RouteService, _ at: [Int64: OSMNode], _ from: Int64, _ to: Int64) throws -> [String] {
        var request = RouteRequest(coordinates: [(at[from]!.lon, at[from]!.lat), (at[to]!.lon, at[to]!.lat)])
        request.steps = true
        let leg = try XCTUnwrap(try s.routes(request).routes.first?.legs.first)
        return leg.steps.map { step in
            [step.maneuver.type, step.maneuver.modifier, step.name, step.mode == "driving" ? nil : "(\(step.mode))"]
                .compactMap { $0 }.joined(separator: " ")
        }
    }

    func testABollardSendsTheRouteAround() throws {
        let nodes = [node(1, 0, 0), node(2, 300, 0, [("barrier", "bollard")]), node(3, 600, 0), node(4, 300, 300)]
        let (s, at) = try service(nodes, [way(10, [1, 2, 3], "Main"), way(11, [1, 4, 3], "Detour")])
        XCTAssertTrue(try steps(s, at, 1, 3).contains { $0.hasSuffix("Detour") }, "around the bollard")

        let (open, at2) = try service([node(1, 0, 0), node(2, 300, 0), node(3, 600, 0), node(4, 300, 300)],
                                      [way(10, [1, 2, 3], "Main"), way(11, [1, 4, 3], "Detour")])
        XCTAssertFalse(try steps(open, at2, 1, 3).contains { $0.hasSuffix("Detour") }, "straight through without it")
    }

    /// OSRM's "prohibit turn" map: no right turn from ab via be into de, so the route turns
    /// back at f's dead end, with a U-turn step.
    ///
    ///     c
    ///     |   f
    ///     b---e
    ///     |   |
    ///     a   d
    func testAViaWayRestrictionAndAUTurnAtADeadEnd() throws {
        let nodes = [node(1, 0, 0), node(2, 0, 200), node(3, 0, 500), node(4, 400, 0), node(5, 400, 200), node(6, 400, 400)]
        let ways = [way(10, [1, 2], "ab"), way(11, [2, 3], "bc"), way(12, [2, 5], "be"), way(13, [4, 5], "de"), way(14, [5, 6], "ef")]
        let restriction = OSMRelation(id: 1, members: [(.way, 10, "from"), (.way, 12, "via"), (.way, 13, "to")],
                                      tags: [("type", "restriction"), ("restriction", "no_right_turn")])
        let (s, at) = try service(nodes, ways, [restriction])
        let got = try steps(s, at, 1, 4)
        XCTAssertEqual(got.first, "depart ab")
        XCTAssertTrue(got.contains("continue uturn ef"), "\(got)")
        XCTAssertEqual(got.last, "arrive de")
    }

    func testAFerryIsAnnouncedAndRiddenInFerryMode() throws {
        let nodes = [node(1, 0, 0), node(2, 500, 0), node(3, 1500, 300), node(4, 2000, 300)]
        let ways = [way(10, [1, 2], "Seestrasse"), way(11, [2, 3], "Fähre", [("route", "ferry"), ("duration", "00:20")]),
                    way(12, [3, 4], "Hafenstrasse")]
        let (s, at) = try service(nodes, ways)
        let got = try steps(s, at, 1, 4)
        XCTAssertTrue(got.contains { $0.hasPrefix("notification") && $0.hasSuffix("Fähre (ferry)") }, "\(got)")
        XCTAssertTrue(got.contains { $0.hasPrefix("notification") && $0.hasSuffix("Hafenstrasse") }, "\(got)")
        var request = RouteRequest(coordinates: [(at[1]!.lon, at[1]!.lat), (at[4]!.lon, at[4]!.lat)])
        request.steps = false
        XCTAssertGreaterThan(try XCTUnwrap(try s.routes(request).routes.first).duration, 1200, "the crossing takes its 20 minutes")
    }
}
