import Foundation
import OSMPBF
import XCTest

let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
let samplePBF = repositoryRoot.appendingPathComponent("samples/liechtenstein.osm.pbf").path

final class SampleReadingTests: XCTestCase {
    /// Counts as `osmium fileinfo -e` reports them for the sample (see samples/README.md).
    func testSampleCountsMatchOsmium() throws {
        let reader = try PBFReader(path: samplePBF)
        let s = try reader.statistics()
        XCTAssertEqual(s.nodes, 318_592)
        XCTAssertEqual(s.ways, 34_073)
        XCTAssertEqual(s.relations, 921)
        XCTAssertEqual(s.minNodeId, 26_032_956)
        XCTAssertEqual(s.maxNodeId, 11_688_436_631)
        XCTAssertEqual(s.minWayId, 4_781_367)
        XCTAssertEqual(s.maxWayId, 1_253_334_118)
        XCTAssertEqual(s.minRelationId, 8497)
        XCTAssertEqual(s.maxRelationId, 17_142_800)
        // osmium: Bounding box: (9.3977818,46.8232622,9.6803433,47.5258072)
        XCTAssertEqual(s.minLonNano, 9_397_781_800)
        XCTAssertEqual(s.minLatNano, 46_823_262_200)
        XCTAssertEqual(s.maxLonNano, 9_680_343_300)
        XCTAssertEqual(s.maxLatNano, 47_525_807_200)
        // osmium: First 2007-07-16T08:56:31Z, Last 2024-03-03T20:20:56Z
        XCTAssertEqual(s.firstTimestamp, 1_184_576_191)
        XCTAssertEqual(s.lastTimestamp, 1_709_497_256)
    }

    func testSampleHeader() throws {
        let h = try PBFReader(path: samplePBF).header
        XCTAssertEqual(h.requiredFeatures, ["OsmSchema-V0.6", "DenseNodes"])
        XCTAssertEqual(h.optionalFeatures, ["Sort.Type_then_ID"])
        XCTAssertEqual(h.replicationTimestamp, 1_709_587_295) // 2024-03-04T21:21:35Z
        XCTAssertEqual(h.replicationSequenceNumber, 3988)
        XCTAssertEqual(h.writingProgram, "osmium/1.14.0")
        XCTAssertEqual(h.bbox?.minLon, 9.471078)
        XCTAssertEqual(h.bbox?.maxLat, 47.27128)
    }

    func testOneThreadAndManyThreadsAgree() throws {
        let one = try PBFReader(path: samplePBF, threads: 1).statistics()
        let four = try PBFReader(path: samplePBF, threads: 4).statistics()
        XCTAssertEqual(one, four)
    }

    func testBlocksArriveInFileOrder() throws {
        let reader = try PBFReader(path: samplePBF, threads: 3)
        var indexes: [Int] = []
        var firstIds: [Int64] = []
        try reader.forEachBlock(map: { block -> Int64 in
            var first: Int64 = 0
            block.forEachNode { if first == 0 { first = $0.id } }
            return first
        }, reduce: { location, first in
            indexes.append(location.index)
            if first != 0 { firstIds.append(first) }
        })
        XCTAssertEqual(indexes, Array(1...indexes.count))
        XCTAssertEqual(firstIds, firstIds.sorted())
    }

    func testKnownObjectTagsAndMembers() throws {
        // Vaduz's place node and a known restriction are read with their tags.
        let reader = try PBFReader(path: samplePBF)
        var restrictionMembers: [[String]] = []
        var placeNames: [String] = []
        try reader.forEachBlock(map: { block -> ([String], [[String]]) in
            var names: [String] = []
            var members: [[String]] = []
            let nameKey = block.stringIndex(of: "name")
            if let place = block.stringIndex(of: "place") { block.forEachNode { n in
                if let v = n.tags.value(forKey: place), block.string(v).equals("town"), let k = nameKey, let nv = n.tags.value(forKey: k) {
                    names.append(block.string(nv).string)
                }
            } }
            if let type = block.stringIndex(of: "type") {
                block.forEachRelation { r in
                    guard let v = r.tags.value(forKey: type), block.string(v).equals("restriction") else { return }
                    var roles: [String] = []
                    r.forEachMember { _, _, role in roles.append(block.string(role).string) }
                    members.append(roles)
                }
            }
            return (names, members)
        }, reduce: { _, r in
            placeNames += r.0
            restrictionMembers += r.1
        })
        XCTAssertTrue(placeNames.contains("Vaduz"), "\(placeNames)")
        // pyosmium counts 79 restriction relations; one (9402417) is broken: two "from", no "via".
        XCTAssertEqual(restrictionMembers.count, 79)
        XCTAssertEqual(restrictionMembers.filter { !$0.contains("via") }, [["from", "from"]])
    }
}
