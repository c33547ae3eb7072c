import Foundation
import OffgridCore
@testable import OSMPBF
import TestSupport
import XCTest

/// Blobs with valid framing (right sizes, right raw_size) around hostile protobuf content:
/// every read ends in an InputError or in objects the reader can walk, never in a crash.
final class HostileBlockTests: XCTestCase {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("offgrid-pbf-hostile-\(getpid())")

    override func setUpWithError() throws { try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true) }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: dir) }

    /// One block with tagged dense nodes, ways and relations: every decoding path.
    private let writer: PBFWriter = {
        var w = PBFWriter()
        w.replicationTimestamp = 1_700_000_000
        return w
    }()
    private var payload: [UInt8] {
        var nodes: [OSMNode] = []
        for i in 1...12 {
            let d = Double(i) * 0.001
            let tags: [(String, String)] = i % 3 == 0 ? [("highway", "traffic_signals")] : []
            nodes.append(OSMNode(id: Int64(i * 3), lat: 47 + d, lon: 9.5 - d, tags: tags))
        }
        let ways = [OSMWay(id: 100, refs: [3, 6, 9, 12], tags: [("highway", "primary"), ("name", "Landstrasse")]),
                    OSMWay(id: 101, refs: [12, 15, 18, 21, 24], tags: [("highway", "residential"), ("oneway", "yes")])]
        let relations = [OSMRelation(id: 7, members: [(.way, 100, "from"), (.node, 12, "via"), (.way, 101, "to")],
                                     tags: [("type", "restriction"), ("restriction", "no_left_turn")])]
        return writer.primitiveBlock(nodes: nodes, ways: ways, relations: relations)
    }

    /// Reads the file and walks every object, tag string, ref and member.
    private func readAll(_ path: String) throws -> Int {
        let reader = try PBFReader(path: path, threads: 1)
        var seen = 0
        try reader.forEachBlock(map: { block -> Int in
            var n = 0
            func walk(_ tags: Tags) { for i in 0..<tags.count { n += block.string(tags.key(i)).bytes.count + block.string(tags.value(i)).bytes.count } }
            block.forEachNode { node in walk(node.tags); n += Int(truncatingIfNeeded: node.latNano / 1_000_000_000) }
            block.forEachWay { way in walk(way.tags); way.forEachRef { _ in n += 1 } }
            block.forEachRelation { rel in walk(rel.tags); rel.forEachMember { _, _, role in n += block.string(role).bytes.count } }
            _ = block.timestampRange()
            return n
        }, reduce: { _, n in seen += n })
        _ = try reader.statistics()
        return seen
    }

    func testMutatedBlocksAreRefusedOrRead() throws {
        let base = payload
        var rng = SplitMix64(seed: 20)
        var refused = 0, read = 0
        let total = 1_500
        for i in 0..<total {
            var b = base
            for _ in 0..<(1 + rng.below(3)) {
                let at = rng.below(b.count)
                switch rng.below(6) {
                case 0: b[at] ^= UInt8(1 << rng.below(7))  // a varint's value, not its length
                case 1: b[at] = 0xFF
                case 2: b[at] = 0
                case 3: b[at] = 0x7F
                case 4: b.swapAt(at, rng.below(b.count))
                default: b[at] = UInt8(truncatingIfNeeded: rng.next())
                }
            }
            var w = writer
            w.compress = i % 2 == 0
            let file = w.frame(type: "OSMHeader", payload: w.headerBlock()) + w.frame(type: "OSMData", payload: b)
            let path = dir.appendingPathComponent("m.osm.pbf").path
            try Data(file).write(to: URL(fileURLWithPath: path))
            do {
                _ = try readAll(path)
                read += 1
            } catch let e as InputError {
                XCTAssertFalse(e.description.contains("\n"))
                XCTAssertEqual(e.file, path)
                refused += 1
            }
        }
        XCTAssertEqual(refused + read, total)
        XCTAssertGreaterThan(refused, total / 4, "read \(read)")
        XCTAssertGreaterThan(read, 0)
    }

    /// Hand-built hostile blocks, each refused with a message saying what is wrong.
    func testHostileBlocksAreRefused() throws {
        func block(granularity: Int? = nil, latOffset: Int64? = nil, strings: [String] = ["", "highway", "primary"],
                   _ group: (inout ProtoMessage) -> Void) -> [UInt8] {
            var g = ProtoMessage()
            group(&g)
            var st = ProtoMessage()
            for s in strings { st.bytes(1, Array(s.utf8)) }
            var m = ProtoMessage()
            m.bytes(1, st.bytes)
            m.bytes(2, g.bytes)
            if let granularity { m.uint(17, UInt64(granularity)) }
            if let latOffset { m.uint(19, UInt64(bitPattern: latOffset)) }
            return m.bytes
        }
        func dense(ids: [Int64], lats: [Int64], lons: [Int64], kv: [UInt64] = []) -> (inout ProtoMessage) -> Void {
            { g in
                var d = ProtoMessage()
                d.packedSint(1, ids); d.packedSint(8, lats); d.packedSint(9, lons)
                if !kv.isEmpty { d.packedUint(10, kv) }
                g.bytes(2, d.bytes)
            }
        }
        func way(keys: [UInt64], vals: [UInt64], refs: [Int64] = [1, 1]) -> (inout ProtoMessage) -> Void {
            { g in
                var m = ProtoMessage()
                m.uint(1, 5); m.packedUint(2, keys); m.packedUint(3, vals); m.packedSint(8, refs)
                g.bytes(3, m.bytes)
            }
        }
        let cases: [(String, [UInt8], String)] = [
            ("string index", block(way(keys: [1], vals: [9])), "outside the table"),
            ("keys and values", block(way(keys: [1, 1], vals: [2])), "keys but"),
            ("delta arrays", block(dense(ids: [1, 1, 1], lats: [1, 1], lons: [1, 1, 1])), "latitudes"),
            ("short keys_vals", block(dense(ids: [1, 1], lats: [0, 0], lons: [0, 0], kv: [1, 2, 0])), "describe 1 nodes"),
            ("odd keys_vals", block(dense(ids: [1], lats: [0], lons: [0], kv: [1])), "middle of a pair"),
            ("granularity 0", block(granularity: 0, dense(ids: [1], lats: [0], lons: [0])), "granularity"),
            ("huge latitude", block(dense(ids: [1], lats: [3_000_000_000], lons: [0])), "off the globe"),
            ("overflowing offset", block(latOffset: Int64.max, dense(ids: [1], lats: [1], lons: [0])), "off the globe"),
            ("longitude past 180°", block(dense(ids: [1, 1], lats: [0, 0], lons: [1_000_000_000, 1_000_000_000])), "off the globe"),
            ("plain node off the globe", block { g in
                var n = ProtoMessage()
                n.sint(1, 1); n.sint(8, 0); n.sint(9, -1_900_000_000)
                g.bytes(1, n.bytes)
            }, "off the globe"),
        ]
        for (name, payload, expected) in cases {
            let path = dir.appendingPathComponent("\(name.replacingOccurrences(of: " ", with: "-")).osm.pbf").path
            var w = writer
            w.compress = false
            try Data(w.frame(type: "OSMHeader", payload: w.headerBlock()) + w.frame(type: "OSMData", payload: payload))
                .write(to: URL(fileURLWithPath: path))
            XCTAssertThrowsError(try readAll(path), name) { error in
                XCTAssertTrue("\(error)".contains(expected), "\(name): \(error)")
            }
        }
    }
}
