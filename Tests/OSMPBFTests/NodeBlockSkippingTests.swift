import Foundation
import OSMPBF
import XCTest

/// `forEachBlockSkippingNodeBlocks` tells node blocks by a peek at their first bytes: it must skip
/// exactly the blocks whose objects are nodes and decode every other block as `forEachBlock` does.
final class NodeBlockSkippingTests: XCTestCase {
    struct Counts: Equatable { var nodes = 0, ways = 0, relations = 0 }

    func testSkipsExactlyTheNodeBlocksOfTheSample() throws {
        let reader = try PBFReader(path: samplePBF)
        var all: [Int: Counts] = [:]
        try reader.forEachBlock(map: { Counts(nodes: $0.nodeCount, ways: $0.wayCount, relations: $0.relationCount) },
                                reduce: { all[$0.index] = $1 })
        var skipped: [Int] = [], decoded: [Int: Counts] = [:]
        try reader.forEachBlockSkippingNodeBlocks(map: { Counts(nodes: $0.nodeCount, ways: $0.wayCount, relations: $0.relationCount) },
                                                  reduce: { location, counts in
            if let counts { decoded[location.index] = counts } else { skipped.append(location.index) }
        })
        let nodeBlocks = all.filter { $0.value.nodes > 0 && $0.value.ways == 0 && $0.value.relations == 0 }.keys.sorted()
        XCTAssertGreaterThan(nodeBlocks.count, 10)
        XCTAssertEqual(skipped, nodeBlocks)
        XCTAssertEqual(decoded, all.filter { !nodeBlocks.contains($0.key) })
        XCTAssertEqual(skipped.count + decoded.count, all.count)
    }

    /// Uncompressed blobs are recognised too; one block holding nodes, then ways in the same group
    /// is skipped (its first field is nodes): callers must check such blocks when they read them.
    func testRawBlobsAndMixedBlocks() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("offgrid-skip-\(getpid())-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let nodes = [OSMNode(id: 1, lat: 47.1, lon: 9.5), OSMNode(id: 2, lat: 47.2, lon: 9.6)]
        let ways = [OSMWay(id: 10, refs: [1, 2], tags: [("highway", "primary")])]
        for (compress, single) in [(false, false), (true, true), (false, true)] {
            var writer = PBFWriter()
            writer.compress = compress
            writer.singleBlock = single
            let path = dir.appendingPathComponent("f-\(compress)-\(single).osm.pbf").path
            try Data(writer.encode(nodes: nodes, ways: ways, relations: [])).write(to: URL(fileURLWithPath: path))
            var skipped = 0, waysSeen = 0
            try PBFReader(path: path).forEachBlockSkippingNodeBlocks(map: { $0.wayCount }, reduce: { _, w in
                if let w { waysSeen += w } else { skipped += 1 }
            })
            XCTAssertEqual(skipped, 1, "compress \(compress) single \(single)")
            XCTAssertEqual(waysSeen, single ? 0 : 1, "compress \(compress) single \(single)")
        }
    }
}
