import ContractionHierarchy
import Foundation
import OffgridCore
import RoutingPacks
import RoutingProfile
import RoutingTiles
@testable import RoutingGraph
import TileMath
import TestSupport
import XCTest

/// Damaged graph files with recomputed CRCs, in every section and in the header's counts:
/// opening refuses them with a one-line InputError, or queries on them answer (the hierarchy's
/// blocks checked as searches reach them, a damaged one read as arcless and reported), and
/// `verify()` finds every damage the queries did. Never a crash, never a hang.
final class GraphFileHostileTests: XCTestCase {
    /// OFFGRID_HOSTILE_RUNS=n runs n damaged files instead of the default (for longer hunts).
    static func runs(default n: Int) -> Int {
        ProcessInfo.processInfo.environment["OFFGRID_HOSTILE_RUNS"].flatMap { Int($0) } ?? n
    }

    private func mutator(small: Bool = false) throws -> (GraphFileMutator, URL) {
        let (dir, sample, _) = try GraphFileTests.sampleGraph()
        let hostile = dir.appendingPathComponent("hostile")
        try FileManager.default.createDirectory(at: hostile, withIntermediateDirectories: true)
        let graph = small ? try westGraph(in: dir) : sample
        return (try GraphFileMutator(Array(try Data(contentsOf: URL(fileURLWithPath: graph)))), hostile)
    }

    /// The sample's roads west of 9.5°E: a graph a tenth the size, so thousands of damaged
    /// copies open (debug build) within seconds.
    private func westGraph(in dir: URL) throws -> String {
        let graph = dir.appendingPathComponent("west-only.chg").path
        if FileManager.default.fileExists(atPath: graph) { return graph }
        let grid = RoutingGrid.standard
        let box = try BBox(parsing: "9,46.5,9.5,48")
        let result = try RoutingTileBuild(grid: grid)
            .run(PBFReaderFactory.sample(), selected: Set(grid.tiles(intersecting: box)))
        let pack = dir.appendingPathComponent("west-only.routing.pack").path
        try RoutingPackWriter.write(header: RoutingPackHeader(dataVersion: result.dataVersion, profileName: RoutingTagSchema.name,
                                                              profileHash: RoutingTagSchema.hash, gridDegrees: 0.25,
                                                              regionBBox: (box.minLon, box.minLat, box.maxLon, box.maxLat), createdBy: "test"),
                                    tiles: result.tiles, to: pack)
        let tiles = dir.appendingPathComponent("west-only").path
        _ = try RoutingPackUnpacker.unpack(packPath: pack, outputDir: tiles, progress: SilentProgress())
        // A small core: verify()'s complete check of it runs on each of thousands of files.
        var build = GraphBuild(profile: TravelProfile.embeddedDefault)
        build.coreSize = 64
        _ = try build.run(directories: [tiles], output: graph)
        return graph
    }

    /// Every (section, kind) pair first, then random ones: thousands of files, each opened and queried.
    func testDamagedGraphFilesAreRefusedOrAnswered() throws {
        let (m, dir) = try mutator(small: true)
        var rng = SplitMix64(seed: 10)
        var refused = 0, answered = 0
        var reasons: [String: Int] = [:]
        let kinds = GraphFileMutator.Kind.allCases
        let systematic = m.sections.count * kinds.count
        let total = max(Self.runs(default: 2_000), systematic)
        let path = dir.appendingPathComponent("damaged.chg").path
        for i in 0..<total {
            let section = i < systematic ? i % m.sections.count : rng.below(m.sections.count)
            let kind = i < systematic ? kinds[i / m.sections.count] : kinds[rng.below(kinds.count)]
            let (bytes, what) = m.mutate(section: section, kind: kind, rng: &rng)
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            do {
                let file = try GraphFile(path: path)
                exercise(file, rng: &rng)
                let foundByQueries = file.hierarchyChecks.problem
                do {
                    try file.verify()
                } catch {
                    if let foundByQueries { XCTAssertTrue("\(error)".contains("hierarchy"), "\(what): queries found \(foundByQueries), verify \(error)") }
                    throw error
                }
                XCTAssertNil(foundByQueries, "\(what): the queries found damage that verify() did not")
                answered += 1
            } catch let e as InputError {
                let text = "\(e)"
                XCTAssertFalse(text.contains("\n"), "\(what): \(text)")
                XCTAssertTrue(text.contains("damaged.chg"), "\(what): \(text)")
                refused += 1
                reasons[String(text.split(separator: ":").dropFirst().first ?? ""), default: 0] += 1
            } catch {
                XCTFail("\(what): not an InputError: \(error)")
            }
        }
        XCTAssertEqual(refused + answered, total)
        // Most damage must be caught: a handful of harmless changes (a speed, a flag) still answer.
        XCTAssertGreaterThan(refused, total / 2, "\(reasons)")
        XCTAssertGreaterThan(answered, 0)
    }

    /// The damage that crashed route-query before files were checked (SIGSEGV on out-of-range
    /// heads and node ends, garbage from non-monotone offsets) is now a one-line error.
    func testKnownCrashingDamageIsRefusedWithOneLine() throws {
        let (m, dir) = try mutator(small: true)
        let cases: [(GraphFileFormat.Section, (Int, UInt32) -> UInt32, String)] = [
            // Rank 1 given rank 0's edge direction; rank 0 an edge direction past the last.
            (.rankEdgeDirection, { i, old in i == 1 ? 0 : i == 0 ? 0 : old }, "section rankEdgeDirection entry 1 (0) repeats entry 0"),
            (.rankEdgeDirection, { i, old in i == 0 ? 0xFFFF_FFF0 : old }, "section rankEdgeDirection entry 0 is 4294967280, not below"),
            // Eight u32 per edge record: entry 25 is edge 3's `to`, 26 its first inner shape point.
            (.edgeRecords, { i, old in i == 25 ? 0xFFFF_FFF0 : old }, "section edgeRecords edge 3 joins nodes"),
            (.edgeRecords, { i, old in i == 26 ? old + 1_000 : old }, "section edgeRecords edge 3 has inner shape words"),
            // Entry 31 is edge 3's flags, road class and (high half) shape encoding.
            (.edgeRecords, { i, old in i == 31 ? old | 0x0002_0000 : old }, "section edgeRecords edge 3 has shape encoding"),
            (.stringOffsets, { i, old in i == 0 ? 1 : old }, "section stringOffsets does not run from 0"),
            // rankComponentIndex holds (ranks outside the main component before, flags) per 32
            // ranks: entry 0 is word 0's count, 1 its flags.
            (.rankComponentIndex, { i, old in i == 0 ? old + 1 : old }, "section rankComponentIndex: word 0 counts 1 ranks outside"),
            // Rank 0 flagged outside the main component: the next word's count is one short.
            // (How many of word 0's ranks are outside depends on the sample's graph, not on the check.)
            (.rankComponentIndex, { i, old in i == 1 ? old | 1 : old }, "section rankComponentIndex: word 1 counts "),
            (.rankMinorComponent, { _, _ in 0xFFFF_FFFF }, "section rankMinorComponent entry 0 is 65535, not in 1 ..< "),
            // Points are (latitude, longitude) pairs: entry 6 is point 3's latitude, 11 point 5's longitude.
            (.nodePoints, { i, old in i == 6 ? 950_000_000 : old }, "section nodePoints point 3 is at latitude 95"),
            // Entry 14 is edge 1's speeds (forward in the low half), 11 its length: a drivable
            // direction without speed, or too slow over too long a road for an exact weight.
            (.edgeRecords, { i, old in i == 14 ? 0 : old }, "drives edge 1 forward at 0 km/h × 10 over"),
            (.edgeRecords, { i, old in i == 14 ? 0x0001_0001 : i == 11 ? 0xFFFF_FFFF : old }, "drives edge 1 forward at 1 km/h × 10 over 4294967295 cm"),
        ]
        for (section, value, expected) in cases {
            let path = dir.appendingPathComponent("known-\(section).chg").path
            try Data(m.rewriting(section, value)).write(to: URL(fileURLWithPath: path))
            assertDamage(try GraphFile(path: path), expected, "\(section)")
        }
    }

    /// `expression` throws a one-line InputError about graph damage, containing `expected`.
    private func assertDamage<T>(_ expression: @autoclosure () throws -> T, _ expected: String, _ what: String,
                                 file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try expression(), what, file: file, line: line) { error in
            XCTAssertTrue(error is InputError, "\(error)", file: file, line: line)
            XCTAssertTrue("\(error)".contains("damaged graph file: "), "\(error)", file: file, line: line)
            XCTAssertTrue("\(error)".contains(expected), "\(error)", file: file, line: line)
            XCTAssertFalse("\(error)".contains("\n"), file: file, line: line)
        }
    }

    /// Damage in the hierarchy does not stop the open (its arcs are checked block by block as
    /// searches reach them): a search that reaches the damaged block reads it as ranks without
    /// arcs and reports it, and `verify()` names it as the open did before. Damage the block
    /// checks do not look for (the index of middles as a whole, the core table) is memory-safe
    /// and found by `verify()`.
    func testHierarchyDamageIsFoundByTheSearchesReachingItAndByVerify() throws {
        let (m, dir) = try mutator(small: true)
        let cases: [(GraphFileFormat.Section, (Int, UInt32) -> UInt32, String, byBlock: Bool)] = [
            // chArcs entry 0 is arc 0's head with its direction bits above it: head 2^30 − 1, direction 1.
            (.chArcs, { i, old in i == 0 ? 0x7FFF_FFFF : old }, "hierarchy: arc 0 of rank 0 points to rank 1073741823", true),
            // Odd entries are weights: arc 0 gets 2^31 − 1, above the bound queries add exactly.
            (.chArcs, { i, old in i == 1 ? 0x7FFF_FFFF : old }, "hierarchy: arc 0 of rank 0 has weight 2147483647, above", true),
            (.chFirstOut, { i, old in i == 5 ? 0xFF_FFFF : old }, "hierarchy: firstOut decreases at rank 5", true),
            // Three bytes a middle in a file of fewer than 2^24 ranks: the largest is 2^24 − 1.
            (.chShortcutMiddle, { _, _ in 0x7FFF_FFFF }, "has middle 16777215, not lower", true),
            // chShortcutIndex holds (shortcuts before, flags) per 32 arcs: entry 2 is word 1's count.
            (.chShortcutIndex, { i, old in i == 2 ? old + 1 : old }, "hierarchy: shortcut middles: word 1 counts", false),
            (.chCoreDistances, { i, old in i == 0 ? 7 : old }, "section chCoreDistances: core distance from rank", false),
        ]
        for (section, value, expected, byBlock) in cases {
            let path = dir.appendingPathComponent("hierarchy-\(section).chg").path
            try Data(m.rewriting(section, value)).write(to: URL(fileURLWithPath: path))
            let file = try GraphFile(path: path)
            XCTAssertEqual(file.hierarchyChecks.passedBlockCount, 0, "\(section)")
            let n = file.scalar(.edgeBasedNodeCount)
            let query = CHQuery(graph: file.hierarchy)
            for t in [n - 1, n / 2, 1] { _ = query.path(from: 0, to: UInt32(t)) }
            _ = query.table(sources: [[(0, 0)]], targets: [[(UInt32(n - 1), 0)], [(UInt32(n / 3), 0)]])
            if byBlock {
                let problem = file.hierarchyChecks.problem
                XCTAssertNotNil(problem, "\(section)")
                XCTAssertFalse(problem?.contains("\n") ?? false)
            }
            assertDamage(try file.verify(), expected, "\(section)")
        }
    }

    /// Damage in the snapping grid or in the nodes' road ends does not stop the open either (they
    /// are checked block by block as readers reach them): the block's check finds it (a cell of a
    /// failed block has no roads, a node no road ends), and `verify()` names it as the open did.
    func testGridDamageIsFoundByTheBlockChecksAndByVerify() throws {
        let (m, dir) = try mutator(small: true)
        let cases: [(GraphFileFormat.Section, (Int, UInt32) -> UInt32, byBlock: String, byVerify: String)] = [
            (.gridCellEdges, { i, old in i == 2 ? 0xFFFF_FFF0 : old }, "gridCellEdges entry 2 is 4294967280, not below",
             "section gridCellEdges entry 2 is 4294967280, not below"),
            // gridCellIndex holds (cells with roads before, flags) per 32 cells: entry 0 is word 0's count.
            (.gridCellIndex, { i, old in i == 0 ? old + 1 : old }, "grid index word 0 counts 1 + its flags",
             "section gridCellIndex: word 0 counts 1 cells with roads before it, not 0"),
            (.gridCellFirst, { i, old in i == 1 ? 0xFFFF_FFF0 : old }, "has entries", "section gridCellFirst decreases at entry 1"),
            // Two u16 boxes per u32: entry 0 gets south side 15 and north side 0.
            (.gridCellEdgeBox, { i, old in i == 0 ? 0x000F_000F : old }, "gridCellEdgeBox entry 0 has its sides out of order",
             "section gridCellEdgeBox entry 0 has its sides out of order"),
        ]
        // And a node's road ends, block of nodes by block (`nodeEndChecks`).
        let nodeEnds: (GraphFileFormat.Section, (Int, UInt32) -> UInt32, byBlock: String, byVerify: String) =
            (.nodeEnds, { _, _ in 0x0FFF_FFFF }, "nodeEnds entry 0 is 268435455, not below",
             "section nodeEnds entry 0 (268435455) is not an end of node 0")
        for (section, value, byBlock, byVerify) in cases + [nodeEnds] {
            let path = dir.appendingPathComponent("grid-\(section).chg").path
            try Data(m.rewriting(section, value)).write(to: URL(fileURLWithPath: path))
            let file = try GraphFile(path: path)
            let checks = section == .nodeEnds ? file.nodeEndChecks : file.gridChecks
            XCTAssertEqual(checks.passedBlockCount, 0, "\(section)")
            XCTAssertFalse(checks.checkAll(), "\(section)")
            XCTAssertTrue(checks.problem?.contains(byBlock) ?? false, "\(section): \(checks.problem ?? "none")")
            assertDamage(try file.verify(), "damaged graph file: \(byVerify)", "\(section)")
        }
    }

    /// Opening reads none of the hierarchy's arcs; a route checks the blocks its searches reach
    /// (on the sample's dozen blocks, most of them; bench/cold-route shows it at scale); checking
    /// the rest later finds a file route-graph wrote whole.
    func testOpeningChecksNoArcsAndARouteOnlyTheBlocksItReaches() throws {
        let (_, graph, _) = try GraphFileTests.sampleGraph()
        let file = try GraphFile(path: graph)
        let checks = file.hierarchyChecks
        XCTAssertEqual(checks.passedBlockCount, 0)
        let n = file.scalar(.edgeBasedNodeCount)
        XCTAssertNotNil(CHQuery(graph: file.hierarchy).path(from: UInt32(n / 4), to: UInt32(n / 2)))
        let reached = checks.passedBlockCount
        XCTAssertGreaterThan(reached, 0)
        XCTAssertLessThanOrEqual(reached, checks.blockCount)
        XCTAssertTrue(checks.checkAll())
        XCTAssertEqual(checks.passedBlockCount, checks.blockCount)
        XCTAssertNil(checks.problem)
    }

    /// Shortcut middles take three bytes in a file of at most 2^24 ranks and four above: a section
    /// table that says otherwise is refused with one line, before any middle is read.
    func testShortcutMiddlesOfAnotherWidthAreRefused() throws {
        let (m, dir) = try mutator(small: true)
        XCTAssertEqual(m.sections.first { $0.id == GraphFileFormat.Section.chShortcutMiddle.rawValue }?.elementSize, 3)
        for size in [4, 1, 0] {
            let path = dir.appendingPathComponent("middles-\(size).chg").path
            try Data(m.declaring(.chShortcutMiddle, elementSize: size)).write(to: URL(fileURLWithPath: path))
            XCTAssertThrowsError(try GraphFile(path: path)) { error in
                XCTAssertTrue("\(error)".hasSuffix("section chShortcutMiddle has element size \(size)"), "\(error)")
                XCTAssertFalse("\(error)".contains("\n"))
            }
        }
    }

    /// Shortcut weights that disagree with their halves: memory-safe, so the file opens (the check
    /// is too slow for every open), but `verify()` finds it, and path unpacking never crashes on it.
    /// Inner shape points stored whole (two words each) are read as coordinates: a run of an odd
    /// number of words, or a point off the globe, is refused.
    func testShapeWordsStoredAsPointsAreChecked() throws {
        let (dir, _, _) = try GraphFileTests.sampleGraph()
        let graph = try westGraph(in: dir)
        let file = try GraphFile(path: graph)
        let edges = file.edges
        func edge(withWords n: UInt32) -> Int? {
            (0..<(edges.count - 1)).first { edges[$0 + 1].shapeFirst - edges[$0].shapeFirst == n && edges[$0].shapeEncoding == EdgeRecord.offsetShape }
        }
        guard let odd = edge(withWords: 1), let even = edge(withWords: 2) else { return XCTFail("no edge with one or two inner points") }
        let m = try GraphFileMutator(Array(try Data(contentsOf: URL(fileURLWithPath: graph))))
        // Word 7 of a record holds the shape encoding in its high half.
        func asPoints(_ e: Int) -> [UInt8] { m.rewriting(.edgeRecords) { i, old in i == 8 * e + 7 ? old | 0x0001_0000 : old } }
        let first = Int(edges[even].shapeFirst)
        let offGlobe = try GraphFileMutator(asPoints(even)).rewriting(.shapeWords) { i, old in
            i == first ? 950_000_000 : i == first + 1 ? 0 : old
        }
        let hostile = dir.appendingPathComponent("hostile")
        try FileManager.default.createDirectory(at: hostile, withIntermediateDirectories: true)
        for (bytes, expected) in [(asPoints(odd), "section edgeRecords edge \(odd) has shape encoding 1 over 1 words"),
                                  (offGlobe, "section shapeWords has an inner point of edge \(even) at latitude 95")] {
            let path = hostile.appendingPathComponent("shape-words.chg").path
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            XCTAssertThrowsError(try GraphFile(path: path)) { error in
                XCTAssertTrue(error is InputError, "\(error)")
                XCTAssertTrue("\(error)".contains(expected), "\(error)")
                XCTAssertFalse("\(error)".contains("\n"))
            }
        }
        // The same words as a whole point on the globe open, and read back as that point.
        let onGlobe = try GraphFileMutator(asPoints(even)).rewriting(.shapeWords) { i, old in
            i == first ? 470_000_000 : i == first + 1 ? 95_000_000 : old
        }
        let path = hostile.appendingPathComponent("shape-words-ok.chg").path
        try Data(onGlobe).write(to: URL(fileURLWithPath: path))
        let opened = try GraphFile(path: path)
        withExtendedLifetime(opened) {   // the shapes point into its mapping
            let shapes = EdgeShapes(opened)
            XCTAssertEqual(shapes.count(even), 3)
            XCTAssertEqual(shapes.point(even, 1), E7Point(latE7: 470_000_000, lonE7: 95_000_000))
        }
    }

    func testShortcutHalvesAreCheckedByVerify() throws {
        let (m, dir) = try mutator(small: true)
        let path = dir.appendingPathComponent("halves.chg").path
        let west = try GraphFile(path: try westGraph(in: dir))
        let middles = withExtendedLifetime(west) { () -> [UInt32] in
            let middle = west.hierarchy.middle
            return (0..<middle.arcCount).map { middle[$0] }
        }
        // chArcs holds (head and direction, weight) per arc: odd entries are weights.
        try Data(m.rewriting(.chArcs) { i, old in i % 2 == 0 || middles[i / 2] == UInt32.max ? old : old + 1 }).write(to: URL(fileURLWithPath: path))
        let file = try GraphFile(path: path)
        XCTAssertThrowsError(try file.verify()) { error in
            XCTAssertTrue("\(error)".contains("has no matching halves"), "\(error)")
        }
        XCTAssertNoThrow(try west.verify())
    }

    /// Core distances made shorter than any path pass the open's quick checks (no entry above an
    /// arc, zeros on the diagonal) but not `verify()`'s complete one.
    func testCoreDistancesAreCheckedByVerify() throws {
        let (m, dir) = try mutator(small: true)
        let path = dir.appendingPathComponent("core.chg").path
        let west = try GraphFile(path: try westGraph(in: dir))
        let size = withExtendedLifetime(west) { west.hierarchy.core?.size ?? 0 }
        XCTAssertGreaterThan(size, 1)
        try Data(m.rewriting(.chCoreDistances) { i, old in i % (size + 1) == 0 || old == CHCoreTable.unreachable || old == 0 ? old : old - 1 })
            .write(to: URL(fileURLWithPath: path))
        let file = try GraphFile(path: path)
        XCTAssertThrowsError(try file.verify()) { error in
            XCTAssertTrue("\(error)".contains("section chCoreDistances: core distance from rank"), "\(error)")
            XCTAssertTrue("\(error)".contains("is shorter than any path"), "\(error)")
        }
        XCTAssertNoThrow(try west.verify())
    }

    /// Routes, paths with shortcuts unpacked, strings and shapes over a file that opened.
    private func exercise(_ file: GraphFile, rng: inout SplitMix64) {
        let n = file.scalar(.edgeBasedNodeCount)
        guard n > 0 else { return }
        let view = file.hierarchy
        let query = CHQuery(graph: view)
        let rankEdge: UnsafeBufferPointer<UInt32> = file.array(.rankEdgeDirection)
        let edges = file.edges, strings = file.strings
        for _ in 0..<2 {
            let s = UInt32(rng.below(n)), t = UInt32(rng.below(n))
            guard let (_, nodes) = query.path(from: s, to: t) else { continue }
            for r in nodes.prefix(50) {
                let e = Int(rankEdge[Int(r)] >> 1)
                _ = strings[Int(edges[e].name)]
                XCTAssertLessThanOrEqual(edges[e].shapeFirst, edges[e + 1].shapeFirst)
                let shapes = EdgeShapes(file)
                _ = shapes.point(e, shapes.count(e) - 1)
                _ = shapes.point(e, shapes.count(e) / 2)
            }
        }
        _ = query.table(sources: [[(UInt32(rng.below(n)), 0)]], targets: [[(UInt32(rng.below(n)), 0)], [(0, 0)]])
    }

    /// The real tool on damaged files: exit 0 with an answer or exit 1 with one line, never a signal.
    func testRouteQueryOnDamagedGraphFilesExitsZeroOrOne() throws {
        let (m, dir) = try mutator()
        _ = try TestTools.binary("route-query")
        var rng = SplitMix64(seed: 11)
        let kinds = GraphFileMutator.Kind.allCases
        let count = Self.runs(default: 240)
        var jobs: [(path: String, what: String)] = []
        for i in 0..<count {
            let section = i < m.sections.count ? i : rng.below(m.sections.count)
            let (bytes, what) = m.mutate(section: section, kind: kinds[rng.below(kinds.count)], rng: &rng)
            let path = dir.appendingPathComponent("tool-\(i).chg").path
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            jobs.append((path, what))
        }
        let results = Parallel.map(count: count, threads: 4) { i -> (Int32, String, String)? in
            let arguments = i % 3 == 2
                ? ["table", "--graph", jobs[i].path, "--sources", "9.5209,47.1410;9.5095,47.0613", "--destinations", "9.55,47.16",
                   "--annotations", "duration,distance"]
                : ["route", "--graph", jobs[i].path, "--from", "9.5209,47.1410", "--to", "9.5095,47.0613", "--steps",
                   "--alternatives", "\(i % 2)"]
            guard let r = try? TestTools.run("route-query", arguments) else { return nil }
            return (r.status, r.stdout, r.stderr)
        }
        var exits: [Int32: Int] = [:]
        for (i, result) in results.enumerated() {
            guard let (status, stdout, stderr) = result else { XCTFail("route-query did not run"); continue }
            exits[status, default: 0] += 1
            let what = jobs[i].what
            XCTAssertTrue(status == 0 || status == 1, "\(what): exit \(status), stderr \(stderr)")
            if status == 1 {
                let lines = stderr.split(separator: "\n", omittingEmptySubsequences: true)
                XCTAssertEqual(lines.count, 1, "\(what): \(stderr)")
            } else if status == 0 {
                XCTAssertFalse(stdout.isEmpty, what)
            }
            try? FileManager.default.removeItem(atPath: jobs[i].path)
        }
        XCTAssertGreaterThan(exits[1] ?? 0, count / 2, "\(exits)")
    }

    /// The real tool on a hierarchy whose every arc weight is damaged: the route's searches reach
    /// a damaged block at once, so `route` prints no answer and exits 1 with one line. `verify`
    /// checks a whole file: an Ok summary on the sample, exit 1 and one line on the damaged one.
    func testRouteQueryRefusesAnAnswerAfterADamagedBlockAndVerifyFindsIt() throws {
        let (dir, sample, _) = try GraphFileTests.sampleGraph()
        let m = try GraphFileMutator(Array(try Data(contentsOf: URL(fileURLWithPath: sample))))
        let path = dir.appendingPathComponent("hostile-weights.chg").path
        // chArcs holds (head and direction, weight) per arc: odd entries are weights.
        try Data(m.rewriting(.chArcs) { i, old in i % 2 == 1 ? 0x7FFF_FFFF : old }).write(to: URL(fileURLWithPath: path))
        let route = try TestTools.run("route-query", ["route", "--graph", path, "--from", "9.5209,47.1410", "--to", "9.5095,47.0613", "--steps"])
        XCTAssertEqual(route.status, 1, route.stderr)
        XCTAssertEqual(route.stdout, "")
        XCTAssertTrue(route.stderr.contains("hostile-weights.chg") && route.stderr.contains("damaged graph file: hierarchy: arc "), route.stderr)
        XCTAssertEqual(route.stderr.split(separator: "\n").count, 1, route.stderr)
        let ok = try TestTools.run("route-query", ["verify", "--graph", sample])
        XCTAssertEqual(ok.status, 0, ok.stderr)
        let summary = try JSONReader.parse(ok.stdout)
        XCTAssertEqual(summary["code"]?.stringValue, "Ok")
        XCTAssertGreaterThan(summary["ranks"]?.intValue ?? 0, 0)
        let bad = try TestTools.run("route-query", ["verify", "--graph", path])
        XCTAssertEqual(bad.status, 1, bad.stdout)
        XCTAssertEqual(bad.stdout, "")
        XCTAssertTrue(bad.stderr.contains("has weight 2147483647, above"), bad.stderr)
        XCTAssertEqual(bad.stderr.split(separator: "\n").count, 1, bad.stderr)
    }

    /// A file route-graph wrote passes every content check (again, outside the open), and the
    /// checks' time is printed: one linear pass, small next to mapping and the first query.
    func testSampleGraphPassesTheContentChecks() throws {
        let start = MonotonicClock.nanoseconds()
        let (_, graph, _) = try GraphFileTests.sampleGraph()
        var best = (open: Double.infinity, check: Double.infinity)
        for _ in 0..<5 {
            let t0 = MonotonicClock.nanoseconds()
            let file = try GraphFile(path: graph)
            let t1 = MonotonicClock.nanoseconds()
            try file.validateContent()
            let t2 = MonotonicClock.nanoseconds()
            best.open = min(best.open, Double(t1 - t0) / 1e6)
            best.check = min(best.check, Double(t2 - t1) / 1e6)
        }
        print("graph open (with content checks): \(best.open) ms; content checks alone: \(best.check) ms "
              + "(\(MonotonicClock.seconds(since: start)) s)")
    }
}
