import Foundation
import OSMPBF
import XCTest

final class WriterRoundTripTests: XCTestCase {
    func testWrittenObjectsReadBack() throws {
        var writer = PBFWriter()
        writer.bbox = (9.5, 47.0, 9.6, 47.1)
        writer.replicationTimestamp = 1_709_587_295
        writer.replicationSequenceNumber = 7
        let nodes = [
            OSMNode(id: 1, lat: 47.05, lon: 9.51, tags: [("highway", "traffic_signals")]),
            OSMNode(id: 5, lat: -33.9, lon: -70.6),
            OSMNode(id: 9, lat: 47.0500001, lon: 9.5100001, tags: [("name", "Ä ö 東京"), ("x", "")]),
        ]
        let ways = [OSMWay(id: 100, refs: [1, 5, 9, 1], tags: [("highway", "primary"), ("name", "Landstrasse")])]
        let relations = [OSMRelation(id: 7, members: [(.way, 100, "from"), (.node, 5, "via"), (.way, 100, "to")],
                                     tags: [("type", "restriction"), ("restriction", "no_u_turn")])]
        for compress in [true, false] {
            writer.compress = compress
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("roundtrip-\(compress).osm.pbf")
            try Data(writer.encode(nodes: nodes, ways: ways, relations: relations)).write(to: url)
            let reader = try PBFReader(path: url.path)
            XCTAssertEqual(reader.header.replicationTimestamp, 1_709_587_295)
            XCTAssertEqual(reader.header.replicationSequenceNumber, 7)
            XCTAssertEqual(reader.header.bbox?.maxLat, 47.1)
            var gotNodes: [(Int64, Int64, Int64, [String])] = []
            var gotWays: [(Int64, [Int64], [String])] = []
            var gotRelations: [(Int64, [String])] = []
            try reader.forEachBlock(map: { block -> ([(Int64, Int64, Int64, [String])], [(Int64, [Int64], [String])], [(Int64, [String])]) in
                func tags(_ t: Tags) -> [String] { (0..<t.count).map { block.string(t.key($0)).string + "=" + block.string(t.value($0)).string } }
                var n: [(Int64, Int64, Int64, [String])] = [], w: [(Int64, [Int64], [String])] = [], r: [(Int64, [String])] = []
                block.forEachNode { n.append(($0.id, $0.latNano, $0.lonNano, tags($0.tags))) }
                block.forEachWay { way in
                    var refs: [Int64] = []
                    way.appendRefs(to: &refs)
                    w.append((way.id, refs, tags(way.tags)))
                }
                block.forEachRelation { rel in
                    var m: [String] = []
                    rel.forEachMember { type, id, role in m.append("\(type)/\(id)/\(block.string(role).string)") }
                    r.append((rel.id, m + tags(rel.tags)))
                }
                return (n, w, r)
            }, reduce: { _, r in gotNodes += r.0; gotWays += r.1; gotRelations += r.2 })
            XCTAssertEqual(gotNodes.map { $0.0 }, [1, 5, 9])
            XCTAssertEqual(gotNodes[0].1, 47_050_000_000)
            XCTAssertEqual(gotNodes[1].2, -70_600_000_000)
            XCTAssertEqual(gotNodes[2].1, 47_050_000_100)
            XCTAssertEqual(gotNodes[0].3, ["highway=traffic_signals"])
            XCTAssertEqual(gotNodes[1].3, [])
            XCTAssertEqual(gotNodes[2].3, ["name=Ä ö 東京", "x="])
            XCTAssertEqual(gotWays.map { $0.0 }, [100])
            XCTAssertEqual(gotWays[0].1, [1, 5, 9, 1])
            XCTAssertEqual(gotWays[0].2, ["highway=primary", "name=Landstrasse"])
            XCTAssertEqual(gotRelations[0].0, 7)
            XCTAssertEqual(gotRelations[0].1, ["way/100/from", "node/5/via", "way/100/to", "type=restriction", "restriction=no_u_turn"])
        }
    }
}
