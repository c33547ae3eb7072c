import OffgridCore
import ContractionHierarchy
import OSMPBF
import Foundation
import RoutingPacks
import RoutingGraph
import RoutingProfile
import RoutingTiles
import TileMath
import XCTest
import TestSupport

/// The sample compiled end to end into a graph file, then checked: CH = Dijkstra, determinism,
/// bad inputs.
final class GraphFileTests: XCTestCase {
    static var built: (dir: URL, graph: String, summary: GraphBuild.Summary)?

    func sampleGraph() throws -> (dir: URL, graph: String, summary: GraphBuild.Summary) { try Self.sampleGraph() }

    /// Sample → routing pack → unpacked directory → graph file, once for the whole class.
    static func sampleGraph() throws -> (dir: URL, graph: String, summary: GraphBuild.Summary) {
        if let b = built { return b }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("offgrid-chg-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let result = try RoutingTileBuild(grid: RoutingGrid.standard)
            .run(PBFReaderFactory.sample(), selected: nil)
        let pack = dir.appendingPathComponent("li.routing.pack").path
        try RoutingPackWriter.write(header: RoutingPackHeader(dataVersion: result.dataVersion, profileName: RoutingTagSchema.name,
                                                              profileHash: RoutingTagSchema.hash, gridDegrees: 0.25,
                                                              regionBBox: (9, 47, 10, 48), createdBy: "test"),
                                    tiles: result.tiles, to: pack)
        let tilesDir = dir.appendingPathComponent("tiles").path
        _ = try RoutingPackUnpacker.unpack(packPath: pack, outputDir: tilesDir, progress: SilentProgress())
        let graph = dir.appendingPathComponent("li.chg").path
        let summary = try GraphBuild(profile: TravelProfile.embeddedDefault).run(directories: [tilesDir], output: graph)
        built = (dir, graph, summary)
        atexit { GraphFileTests.removeSampleGraph() }
        return built!
    }

    /// Other classes share the sample graph (built once per test run): it is removed at exit.
    static func removeSampleGraph() {
        if let b = built { try? FileManager.default.removeItem(at: b.dir) }
        built = nil
    }

    func testContractionHierarchyEqualsDijkstraOnTheSample() throws {
        let file = try GraphFile(path: try sampleGraph().graph)
        try file.verify()
        let n = file.scalar(.edgeBasedNodeCount)
        let view = file.hierarchy
        XCTAssertNil(view.validate())
        // Queries below go through the file's core table, which route-graph left uncontracted.
        XCTAssertEqual(view.core?.size, CHCoreTable.defaultSize(nodeCount: n))
        let ch = CHQuery(graph: view)
        // The oracle: the turn graph rebuilt in memory from the same tiles, with plain Dijkstra.
        let tiles = try TileSet.load([try sampleGraph().dir.appendingPathComponent("tiles").path]).tiles
        let g = ChainCompression.compress(RoadGraph(tiles: tiles))
        let eb = EdgeBasedGraph(g, profile: TravelProfile.embeddedDefault)
        XCTAssertEqual(eb.nodeCount, n)
        // The file numbers edges by place (`orderBySpace`).
        var placed = g
        let renumbering = placed.orderBySpace()
        let rankOf = file.edgeDirectionRank
        var rank = eb.edgeDirectionOfNode.map { rankOf[Int(renumbering.edgeDirection($0))] }
        // Copies made for via-way restrictions (section rankCopies) drive their original's edge
        // direction, and a direction may have several: they get the file's copy ranks of their
        // direction in turn. Distances between original ranks do not depend on how copies are
        // labelled, so queries below start and end on originals, and paths through copies are
        // not matched arc by arc.
        let rankEdge: UnsafeBufferPointer<UInt32> = file.array(.rankEdgeDirection)
        let copies = Set(file.array(.rankCopies) as UnsafeBufferPointer<UInt32>)
        var copiesOf: [UInt32: [UInt32]] = [:]
        for c in copies.sorted() { copiesOf[rankEdge[Int(c)], default: []].append(c) }
        for v in eb.firstCopy..<eb.nodeCount {
            let ed = renumbering.edgeDirection(eb.edgeDirectionOfNode[v])
            rank[v] = copiesOf[ed]!.removeFirst()
        }
        XCTAssertEqual(copies.count, eb.nodeCount - eb.firstCopy)
        let plain = CSRGraph(nodeCount: n, arcs: ArcList(tails: eb.arcs.tails.map { rank[Int($0)] },
                                                         heads: eb.arcs.heads.map { rank[Int($0)] }, weights: eb.arcs.weights))
        let dijkstra = DijkstraQuery(plain)
        var rng = SplitMix64(seed: 7)
        var reachable = 0
        for _ in 0..<3000 {
            let s = UInt32(rng.next() % UInt64(n)), t = UInt32(rng.next() % UInt64(n))
            if copies.contains(s) || copies.contains(t) { continue }
            let a = ch.distance(from: s, to: t), b = dijkstra.distance(from: s, to: t)
            XCTAssertEqual(a, b, "\(s) → \(t)")
            if a != nil { reachable += 1 }
        }
        XCTAssertGreaterThan(reachable, 2500)
        // Paths unpack into real turns whose weights add up.
        let base = (first: plain.firstOut, head: plain.head, weight: plain.weight)
        for _ in 0..<300 {
            let s = UInt32(rng.next() % UInt64(n)), t = UInt32(rng.next() % UInt64(n))
            guard let (d, nodes) = ch.path(from: s, to: t), !nodes.contains(where: copies.contains) else { continue }
            var sum: UInt64 = 0
            for (u, v) in zip(nodes, nodes.dropFirst()) {
                let arcs = Int(base.first[Int(u)])..<Int(base.first[Int(u) + 1])
                let w = arcs.filter { base.head[$0] == v }.map { base.weight[$0] }.min()
                XCTAssertNotNil(w, "no turn \(u) → \(v)")
                sum += UInt64(w ?? 0)
            }
            XCTAssertEqual(sum, d)
        }
    }

    /// Packs of the tiles west and east of 9.5°E, unpacked together, compile into a graph
    /// with routes across the border both ways.
    func testRoutesCrossTheBorderBetweenTwoPacks() throws {
        let (dir, _, _) = try sampleGraph()
        let grid = RoutingGrid.standard
        let build = RoutingTileBuild(grid: grid)
        let stitched = dir.appendingPathComponent("stitched").path
        for (name, box) in [("west", "9,46.5,9.5,48"), ("east", "9.5,46.5,10,48")] {
            let selected = Set(grid.tiles(intersecting: try BBox(parsing: box)))
            let result = try build.run(PBFReaderFactory.sample(), selected: selected)
            let b = try BBox(parsing: box)
            let pack = dir.appendingPathComponent("\(name).routing.pack").path
            try RoutingPackWriter.write(header: RoutingPackHeader(dataVersion: result.dataVersion, profileName: RoutingTagSchema.name,
                                                                  profileHash: RoutingTagSchema.hash, gridDegrees: 0.25,
                                                                  regionBBox: (b.minLon, b.minLat, b.maxLon, b.maxLat), createdBy: "test"),
                                        tiles: result.tiles, to: pack)
            _ = try RoutingPackUnpacker.unpack(packPath: pack, outputDir: stitched, progress: SilentProgress())
        }
        let graph = dir.appendingPathComponent("stitched.chg").path
        _ = try GraphBuild(profile: TravelProfile.embeddedDefault).run(directories: [stitched], output: graph)
        let file = try GraphFile(path: graph)
        let n = file.scalar(.edgeBasedNodeCount)
        let ch = CHQuery(graph: file.hierarchy)
        let edgeDirection: UnsafeBufferPointer<UInt32> = file.array(.rankEdgeDirection)
        let component = file.rankComponents
        let edges = file.edges
        let nodes = EdgeShapes(file).nodes
        func side(_ r: Int) -> Bool { nodes[Int(edges[Int(edgeDirection[r] >> 1)].from)].lonE7 < 95_000_000 }
        let west = (0..<n).filter { component[$0] == 0 && side($0) }
        let east = (0..<n).filter { component[$0] == 0 && !side($0) }
        XCTAssertGreaterThan(west.count, 100)
        XCTAssertGreaterThan(east.count, 100)
        for i in 0..<50 {
            let w = UInt32(west[i * 37 % west.count]), e = UInt32(east[i * 53 % east.count])
            XCTAssertNotNil(ch.distance(from: w, to: e))
            XCTAssertNotNil(ch.distance(from: e, to: w))
        }
    }

    /// The share of the mapping in 2 MiB pages, which benchmarks report, is read from the
    /// process's own mapping list: known on Linux, and never more than the file.
    func testHugePageBytesAreReadFromTheMapping() throws {
        let file = try GraphFile(path: try sampleGraph().graph)
        #if os(Linux)
        let bytes = try XCTUnwrap(file.hugePageBytes, "no FilePmdMapped line for the graph's mapping in /proc/self/smaps")
        XCTAssertGreaterThanOrEqual(bytes, 0)
        XCTAssertLessThanOrEqual(bytes, (file.fileSize + (1 << 21) - 1) & ~((1 << 21) - 1))
        XCTAssertEqual(bytes % (1 << 21), 0, "huge pages are 2 MiB")
        #endif
    }

    /// The file stores only the points between an edge's end nodes (version 4); read back
    /// through `EdgeShapes`, every edge's shape is the built graph's, both ends included.
    func testShapesReadBackWithTheirEndNodes() throws {
        let file = try GraphFile(path: try sampleGraph().graph)
        let tiles = try TileSet.load([try sampleGraph().dir.appendingPathComponent("tiles").path]).tiles
        var g = ChainCompression.compress(RoadGraph(tiles: tiles))
        _ = g.orderBySpace()
        XCTAssertEqual(file.scalar(.edgeCount), g.edgeCount)
        let shapes = EdgeShapes(file)
        // One word per inner point stored as offsets, two per point stored whole (version 7).
        let words = (0..<g.edgeCount).reduce(0) { n, e in
            n + (shapes.count(e) - 2) * (file.edges[e].shapeEncoding == EdgeRecord.offsetShape ? 1 : 2)
        }
        XCTAssertEqual(file.scalar(.shapeWordCount), words)
        // Both encodings are read back below: the sample has edges with points farther than
        // ±32,767 × 1e-7° from their start (99 of 6,015).
        let whole = (0..<g.edgeCount).filter { file.edges[$0].shapeEncoding == EdgeRecord.pointShape && shapes.count($0) > 2 }
        XCTAssertGreaterThan(whole.count, 10)
        XCTAssertLessThan(whole.count, g.edgeCount / 10)
        var points = 0
        for e in 0..<g.edgeCount {
            let stored = (0..<shapes.count(e)).map { shapes.point(e, $0) }
            let built = (Int(g.shapeFirst[e])..<Int(g.shapeFirst[e + 1])).map { E7Point(latE7: g.shapeLatE7[$0], lonE7: g.shapeLonE7[$0]) }
            guard stored == built else { return XCTFail("edge \(e): \(stored) read back, \(built) built") }
            XCTAssertEqual(shapes.point(e, stored.count - 1, direction: 1), stored[0])
            for d in 0...1 {
                let along = d == 0 ? built : built.reversed()
                var walked: [E7Point] = []
                shapes.forEachPoint(e, direction: d, skippingFirst: false) { walked.append($0) }
                guard walked == along else { return XCTFail("edge \(e) direction \(d): \(walked) walked, \(along) built") }
                let (s0, s1) = shapes.startSegment(e, direction: d), (e0, e1) = shapes.endSegment(e, direction: d)
                XCTAssertEqual([s0, s1, e0, e1], [along[0], along[1], along[along.count - 2], along[along.count - 1]])
            }
            points += stored.count
        }
        XCTAssertEqual(points, g.shapeLatE7.count)
        withExtendedLifetime(file) {}   // the shapes point into its mapping
    }

    func testSummaryAndDeterminism() throws {
        let (dir, graph, s) = try sampleGraph()
        XCTAssertEqual(s.dataVersion, "2024-03-04-3988")
        XCTAssertLessThan(s.compressedEdges, s.edges)
        XCTAssertGreaterThan(s.restrictedTurns, 40)
        XCTAssertGreaterThan(s.mainComponentShare, 0.95)
        let again = dir.appendingPathComponent("again.chg").path
        _ = try GraphBuild(profile: TravelProfile.embeddedDefault, threads: 1).run(directories: [dir.appendingPathComponent("tiles").path], output: again)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: graph)), try Data(contentsOf: URL(fileURLWithPath: again)))
    }

    func testBadGraphFilesAreRefused() throws {
        let (dir, graph, _) = try sampleGraph()
        let bytes = try Data(contentsOf: URL(fileURLWithPath: graph))
        func refuse(_ data: Data, _ name: String, file: StaticString = #filePath, line: UInt = #line) {
            let path = dir.appendingPathComponent(name).path
            _ = FileManager.default.createFile(atPath: path, contents: data)
            XCTAssertThrowsError(try { let f = try GraphFile(path: path); try f.verify() }(), file: file, line: line)
        }
        refuse(bytes.prefix(bytes.count - 100), "truncated.chg")
        refuse(Data(), "empty.chg")
        refuse(Data("hello world, not a graph file at all, long enough to have a header......".utf8), "text.chg")
        var flipped = bytes
        flipped[bytes.count - 200] ^= 0x40
        refuse(flipped, "flipped.chg")
        var header = bytes
        header[40] ^= 1
        refuse(header, "header.chg")
        // A file of the previous version (with four bytes to every shortcut middle) is refused
        // with one line saying what to do, before any section is read.
        var older = bytes
        older[8] = 8
        let path = dir.appendingPathComponent("version8.chg").path
        _ = FileManager.default.createFile(atPath: path, contents: older)
        XCTAssertThrowsError(try GraphFile(path: path)) { error in
            XCTAssertEqual("\(error)", "\(path) at byte 8: unsupported graph file version 8, not 12 (build it again with route-graph)")
        }
    }

    /// The graph file stores shapes without their end points, so tiles whose edge's shape does
    /// not start at its node are refused with one line naming the edge, and nothing is written.
    func testShapesOffTheirNodesAreRefused() throws {
        let (dir, _, _) = try sampleGraph()
        let result = try RoutingTileBuild(grid: RoutingGrid.standard)
            .run(PBFReaderFactory.sample(), selected: nil)
        var tiles = result.tiles
        var tile = try RoutingTileCodec.decode(tiles[0].raw)
        tile.shapeLatE7[Int(tile.edges[0].shapeStart)] += 10
        tiles[0].raw = RoutingTileCodec.encode(tile)
        let pack = dir.appendingPathComponent("offnode.routing.pack").path
        try RoutingPackWriter.write(header: RoutingPackHeader(dataVersion: result.dataVersion, profileName: RoutingTagSchema.name,
                                                              profileHash: RoutingTagSchema.hash, gridDegrees: 0.25,
                                                              regionBBox: (9, 47, 10, 48), createdBy: "test"),
                                    tiles: tiles, to: pack)
        let tilesDir = dir.appendingPathComponent("offnode-tiles").path
        _ = try RoutingPackUnpacker.unpack(packPath: pack, outputDir: tilesDir, progress: SilentProgress())
        let out = dir.appendingPathComponent("offnode.chg").path
        XCTAssertThrowsError(try GraphBuild(profile: TravelProfile.embeddedDefault).run(directories: [tilesDir], output: out)) { error in
            XCTAssertTrue("\(error)".hasPrefix("\(tilesDir): the routing tiles' edge from OSM node "), "\(error)")
            XCTAssertTrue("\(error)".hasSuffix("has a shape that does not start and end at those nodes"), "\(error)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: out))
    }

    func testBadDirectoriesAreRefused() throws {
        let (dir, _, _) = try sampleGraph()
        let out = dir.appendingPathComponent("bad.chg").path
        let build = GraphBuild(profile: TravelProfile.embeddedDefault)
        XCTAssertThrowsError(try build.run(directories: [dir.appendingPathComponent("missing").path], output: out))
        let empty = dir.appendingPathComponent("emptydir")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        XCTAssertThrowsError(try build.run(directories: [empty.path], output: out))
        // A corrupted tile fails its CRC.
        let copy = dir.appendingPathComponent("corrupt")
        try? FileManager.default.removeItem(at: copy)
        try FileManager.default.copyItem(at: dir.appendingPathComponent("tiles"), to: copy)
        let tile = try FileManager.default.contentsOfDirectory(atPath: copy.path).first { $0.hasSuffix(".tile") }!
        var data = try Data(contentsOf: copy.appendingPathComponent(tile))
        data[data.count / 2] ^= 1
        try data.write(to: copy.appendingPathComponent(tile))
        XCTAssertThrowsError(try build.run(directories: [copy.path], output: out)) { error in
            XCTAssertTrue("\(error)".contains("CRC32"), "\(error)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: out))
    }
}

enum PBFReaderFactory {
    static func sample() throws -> OSMPBF.PBFReader { try OSMPBF.PBFReader(path: samplePBF) }
}


