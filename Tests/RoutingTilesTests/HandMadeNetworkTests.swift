import Foundation
import OSMPBF
import RoutingTiles
import RoutingProfile
import TileMath
import TestSupport
import XCTest

/// Small networks written with the project's PBF writer, where every edge is known by hand.
final class HandMadeNetworkTests: XCTestCase {
    var scratch: Scratch!
    override func setUp() { scratch = Scratch() }
    override func tearDown() { scratch.remove() }

    func pbf(_ nodes: [OSMNode], _ ways: [OSMWay], _ relations: [OSMRelation] = []) throws -> String {
        var writer = PBFWriter()
        writer.replicationTimestamp = 1_700_000_000
        writer.replicationSequenceNumber = 12
        return try scratch.write("net.osm.pbf", writer.encode(nodes: nodes, ways: ways, relations: relations))
    }

    /// Edges as "from>to way" strings, over all tiles.
    func edges(_ tiles: [RoutingTile]) -> [String] {
        tiles.flatMap { t in t.edges.map { "\(t.nodes[Int($0.fromNode)].osmId)>\($0.toNodeOsmId) w\($0.wayId)" } }.sorted()
    }

    /// Tag set `set` of tile `t` as "k=v;k=v" in the tile's (key) order.
    func text(_ t: RoutingTile, _ set: UInt32) -> String {
        (Int(t.tagSetFirst[Int(set)])..<Int(t.tagSetFirst[Int(set) + 1]))
            .map { "\(t.strings[Int(t.tagKeys[$0])])=\(t.strings[Int(t.tagValues[$0])])" }.joined(separator: ";")
    }

    // A plus-shaped junction at node 2, a signal on node 7; the footway and the road closed to
    // cars are kept too (tiles serve every mode), and split the main road where they meet it.
    func testWaysSplitAtJunctionsControlsAndEnds() throws {
        let nodes = [
            OSMNode(id: 1, lat: 47.10, lon: 9.50), OSMNode(id: 2, lat: 47.10, lon: 9.51), OSMNode(id: 3, lat: 47.10, lon: 9.52),
            OSMNode(id: 4, lat: 47.09, lon: 9.51), OSMNode(id: 5, lat: 47.11, lon: 9.51),
            OSMNode(id: 6, lat: 47.10, lon: 9.53), OSMNode(id: 7, lat: 47.10, lon: 9.54, tags: [("highway", "traffic_signals")]),
            OSMNode(id: 8, lat: 47.10, lon: 9.55), OSMNode(id: 9, lat: 47.12, lon: 9.51),
        ]
        let ways = [
            OSMWay(id: 100, refs: [1, 2, 3, 6, 7, 8], tags: [("highway", "primary"), ("name", "Landstrasse"), ("ref", "28")]),
            OSMWay(id: 200, refs: [4, 2, 5], tags: [("highway", "residential"), ("oneway", "yes")]),
            OSMWay(id: 300, refs: [5, 9], tags: [("highway", "footway")]),
            OSMWay(id: 400, refs: [9, 3], tags: [("highway", "service"), ("access", "no")]),
        ]
        let result = try buildTiles(try pbf(nodes, ways))
        XCTAssertEqual(result.dataVersion, "2023-11-14-12")
        let tiles = try decodeAll(result)
        XCTAssertEqual(tiles.count, 1)
        // 1-2, 2-3, 3-7 (6 is a plain shape point), 7-8; 4-2, 2-5; the footway 5-9, the closed road 9-3.
        XCTAssertEqual(edges(tiles), ["1>2 w100", "2>3 w100", "2>5 w200", "3>7 w100", "4>2 w200", "5>9 w300", "7>8 w100", "9>3 w400"])
        let t = tiles[0]
        XCTAssertEqual(t.nodes.map(\.osmId), [1, 2, 3, 4, 5, 7, 8, 9])
        XCTAssertEqual(text(t, t.nodes.first { $0.osmId == 7 }!.tags), "highway=traffic_signals")
        XCTAssertEqual(t.nodes.filter { $0.tags != 0 }.map(\.osmId), [7])
        let main = try XCTUnwrap(t.edges.first { t.nodes[Int($0.fromNode)].osmId == 3 && $0.wayId == 100 })
        XCTAssertEqual(main.shapeCount, 3)  // 3, 6, 7
        XCTAssertEqual(text(t, main.tags), "highway=primary;name=Landstrasse;ref=28")
        XCTAssertEqual(main.bearingStartDeci, 900)  // due east
        XCTAssertEqual(main.bearingEndDeci, 900)
        let expected = haversineMeters(GeoPoint(lon: 9.52, lat: 47.10), GeoPoint(lon: 9.54, lat: 47.10))
        XCTAssertEqual(Double(main.lengthCm) / 100, expected, accuracy: 0.05)
        let north = try XCTUnwrap(t.edges.first { t.nodes[Int($0.fromNode)].osmId == 2 && $0.wayId == 200 })
        XCTAssertEqual(north.bearingStartDeci, 0)
        XCTAssertEqual(text(t, north.tags), "highway=residential;oneway=yes")
        XCTAssertEqual(text(t, t.edges.first { $0.wayId == 400 }!.tags), "access=no;highway=service")
        // Every edge of one way shares its tag set.
        XCTAssertEqual(Set(t.edges.filter { $0.wayId == 100 }.map(\.tags)).count, 1)
    }

    /// A way crossing 9.5°E: its edge lives in the west tile and names its east end by id;
    /// the east node is in the east tile even though no edge starts there.
    func testEdgeAcrossATileBorder() throws {
        let nodes = [OSMNode(id: 1, lat: 47.1, lon: 9.49), OSMNode(id: 2, lat: 47.1, lon: 9.495), OSMNode(id: 3, lat: 47.1, lon: 9.51)]
        let ways = [OSMWay(id: 10, refs: [1, 2, 3], tags: [("highway", "secondary"), ("oneway", "yes")])]
        let tiles = try decodeAll(try buildTiles(try pbf(nodes, ways)))
        let grid = RoutingGrid.standard
        XCTAssertEqual(tiles.map(\.tileId), [grid.tileId(lon: 9.49, lat: 47.1), grid.tileId(lon: 9.51, lat: 47.1)])
        XCTAssertEqual(tiles[0].nodes.map(\.osmId), [1])
        XCTAssertEqual(tiles[0].edges.map(\.toNodeOsmId), [3])
        XCTAssertEqual(tiles[0].edges[0].shapeCount, 3)
        XCTAssertEqual(tiles[1].nodes.map(\.osmId), [3])
        XCTAssertEqual(tiles[1].edges, [])
        // Selecting only the east tile still gives the same bytes for it.
        let eastOnly = try buildTiles(try pbf(nodes, ways), selected: [tiles[1].tileId])
        XCTAssertEqual(try decodeAll(eastOnly), [tiles[1]])
    }

    /// A node the file lacks (cut off by the extract) breaks the way around it.
    func testMissingNodeBreaksTheWay() throws {
        let nodes = [OSMNode(id: 1, lat: 47.1, lon: 9.51), OSMNode(id: 2, lat: 47.1, lon: 9.52),
                     OSMNode(id: 4, lat: 47.1, lon: 9.54), OSMNode(id: 5, lat: 47.1, lon: 9.55)]
        let ways = [OSMWay(id: 10, refs: [1, 2, 3, 4, 5], tags: [("highway", "tertiary")])]
        let tiles = try decodeAll(try buildTiles(try pbf(nodes, ways)))
        XCTAssertEqual(edges(tiles), ["1>2 w10", "4>5 w10"])
    }

    /// Restrictions are kept in the via node's tile when their ways pass through it.
    func testRestrictionsKeptOnlyWhenValid() throws {
        let nodes = [OSMNode(id: 1, lat: 47.1, lon: 9.51), OSMNode(id: 2, lat: 47.1, lon: 9.52),
                     OSMNode(id: 3, lat: 47.1, lon: 9.53), OSMNode(id: 4, lat: 47.11, lon: 9.52)]
        let ways = [OSMWay(id: 10, refs: [1, 2], tags: [("highway", "primary")]),
                    OSMWay(id: 11, refs: [2, 3], tags: [("highway", "primary")]),
                    OSMWay(id: 12, refs: [2, 4], tags: [("highway", "residential")])]
        let relations = [
            OSMRelation(id: 1, members: [(.way, 10, "from"), (.node, 2, "via"), (.way, 12, "to")],
                        tags: [("type", "restriction"), ("restriction", "no_left_turn")]),
            OSMRelation(id: 2, members: [(.way, 10, "from"), (.node, 2, "via"), (.way, 11, "to")],
                        tags: [("type", "restriction"), ("restriction:motorcar", "only_straight_on")]),
            // The via node is not on the to way: dropped.
            OSMRelation(id: 3, members: [(.way, 10, "from"), (.node, 1, "via"), (.way, 12, "to")],
                        tags: [("type", "restriction"), ("restriction", "no_right_turn")]),
            // Not for cars, but kept: a bicycle profile reads it.
            OSMRelation(id: 4, members: [(.way, 11, "from"), (.node, 2, "via"), (.way, 12, "to")],
                        tags: [("type", "restriction"), ("restriction", "no_right_turn"), ("except", "bicycle;motorcar")]),
            // Via a way whose far end (3) the to way does not reach: dropped.
            OSMRelation(id: 5, members: [(.way, 10, "from"), (.way, 11, "via"), (.way, 12, "to")],
                        tags: [("type", "restriction"), ("restriction", "no_u_turn")]),
            // Two from ways on a restriction other than no_entry: contradictory, counted as skipped.
            OSMRelation(id: 6, members: [(.way, 10, "from"), (.way, 11, "from"), (.node, 2, "via"), (.way, 12, "to")],
                        tags: [("type", "restriction"), ("restriction", "no_left_turn")]),
        ]
        let result = try buildTiles(try pbf(nodes, ways, relations))
        XCTAssertEqual(result.restrictions, 3)
        XCTAssertEqual(result.restrictionsSkipped, 1)
        let tile = try XCTUnwrap(try decodeAll(result).first)
        let r = tile.restrictions
        XCTAssertEqual(r.map { "\($0.fromWayId)-\($0.viaNodeOsmId)-\($0.toWayId)" }, ["10-2-11", "10-2-12", "11-2-12"])
        XCTAssertEqual(r.map { text(tile, $0.tags) }, ["restriction:motorcar=only_straight_on;type=restriction",
                                                       "restriction=no_left_turn;type=restriction",
                                                       "except=bicycle;motorcar;restriction=no_right_turn;type=restriction"])
        XCTAssertEqual(r.map(\.members), [0, 0, 0])
    }

    func testNoDataVersionIsAnError() throws {
        var writer = PBFWriter()
        writer.replicationTimestamp = nil
        let path = try scratch.write("old.osm.pbf", writer.encode(
            nodes: [OSMNode(id: 1, lat: 47.1, lon: 9.51), OSMNode(id: 2, lat: 47.1, lon: 9.52)],
            ways: [OSMWay(id: 1, refs: [1, 2], tags: [("highway", "primary")])], relations: []))
        XCTAssertThrowsError(try buildTiles(path))
    }
}

/// Pass 1 skips blocks whose first group holds nodes; a block that holds ways after its nodes
/// must still give the same network (the reader notices and reads the file again in full).
final class MixedNodeWayBlockTests: XCTestCase {
    func testBlockMixingNodesAndWaysGivesTheSameTiles() throws {
        let scratch = Scratch()
        defer { scratch.remove() }
        let nodes = (1...6).map { OSMNode(id: Int64($0), lat: 47.10, lon: 9.50 + Double($0) / 100,
                                           tags: $0 == 3 ? [("highway", "stop")] : []) }
        let ways = [OSMWay(id: 10, refs: [1, 2, 3, 4], tags: [("highway", "primary")]),
                    OSMWay(id: 11, refs: [4, 5, 6], tags: [("highway", "residential")])]
        var writer = PBFWriter()
        writer.replicationTimestamp = 1_700_000_000
        let separate = try buildTiles(try scratch.write("separate.osm.pbf", writer.encode(nodes: nodes, ways: ways, relations: [])))
        writer.singleBlock = true
        let mixed = try buildTiles(try scratch.write("mixed.osm.pbf", writer.encode(nodes: nodes, ways: ways, relations: [])))
        XCTAssertEqual(separate.tiles.count, 1)
        XCTAssertEqual(separate.edges, 3)  // 1-3 (stop at 3), 3-4, 4-6
        XCTAssertEqual(mixed.tiles.map(\.raw), separate.tiles.map(\.raw))
    }
}
