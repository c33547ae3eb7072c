import ContractionHierarchy
import OffgridCore

/// Content checks a graph file passes at open, before any query indexes its arrays.
///
/// Section CRCs prove the bytes are the ones written, not that they make sense (a writer bug
/// or a hostile file keeps valid CRCs): every array the query code indexes with is checked
/// here once, in time linear in the file, so queries can then index without bounds doubts.
/// A failed check names the section and the first bad entry.
extension GraphFile {
    /// The largest weight (deciseconds) a node or arc may carry: about three years of driving.
    /// Real weights are far below; the bound keeps the query's u32 sums of a few weights exact.
    public static let maxWeight: UInt32 = 1 << 30

    struct Damage: Error { let message: String }

    func validateContent() throws {
        do {
            try checkCounts()
            edgeDirectionRanks = OwnedWords(count: 2 * scalar(.edgeCount))
            // The rest read disjoint sections, so they run side by side; the first problem in this
            // order is reported whichever thread finds its own first.
            let checks = [checkNodesAndEdges, checkRanks, checkHierarchy, checkGrid]
            _ = try Parallel.map(count: checks.count, threads: Parallel.activeProcessorCount) { try checks[$0]() }
        } catch let d as Damage {
            throw InputError(file: path, "damaged graph file: \(d.message)")
        }
    }

    private func count(_ s: GraphFileFormat.Section) -> Int {
        array(s, as: UInt8.self).count / elementSize(s)
    }

    private func expect(_ s: GraphFileFormat.Section, _ n: Int) throws {
        guard count(s) == n else { throw Damage(message: "section \(s) has \(count(s)) entries, expected \(n)") }
    }

    /// Header counts are plausible ids and agree with every section's length.
    private func checkCounts() throws {
        let counts: [GraphFileFormat.Scalar] = [.nodeCount, .edgeCount, .shapeWordCount, .stringCount,
                                                .edgeBasedNodeCount, .chArcCount, .componentCount, .shortcutCount]
        for c in counts where !(0...Int(Int32.max)).contains(scalar(c)) {
            throw Damage(message: "\(c) is \(scalar(c))")
        }
        let n = scalar(.nodeCount), e = scalar(.edgeCount), r = scalar(.edgeBasedNodeCount)
        try expect(.nodePoints, 2 * n)
        try expect(.nodeControl, n)
        try expect(.nodeFirstEnd, n + 1)
        try expect(.edgeRecords, EdgeRecord.words * (e + 1))
        try expect(.shapeWords, scalar(.shapeWordCount))
        try expect(.stringOffsets, scalar(.stringCount) + 1)
        try expect(.rankEdgeDirection, r)
        try expect(.rankComponentIndex, FlagWords.count(slots: r))
        try expect(.componentSizes, scalar(.componentCount))
        if r > 0 && scalar(.componentCount) == 0 { throw Damage(message: "\(r) edge-based nodes in no component") }
        try expect(.chFirstOut, r + 1)
        try expect(.chArcs, 2 * scalar(.chArcCount))
        try expect(.chShortcutIndex, CHShortcutMiddles.indexLength(arcCount: scalar(.chArcCount)))
        try expect(.chShortcutMiddle, scalar(.shortcutCount))
        let replaced: UnsafeBufferPointer<UInt32> = array(.chReplacedTurns)
        guard replaced.count % 3 == 0 else { throw Damage(message: "section chReplacedTurns has \(replaced.count) words, not whole triples") }
        for i in stride(from: 0, to: replaced.count, by: 3) where replaced[i] >= r || replaced[i + 1] >= r || replaced[i + 2] > Self.maxWeight {
            throw Damage(message: "section chReplacedTurns entry \(i / 3) (\(replaced[i]) -> \(replaced[i + 1]), \(replaced[i + 2])) is not a turn between ranks below \(r)")
        }
    }

    /// A CSR offsets array starts at 0, never decreases and ends at its target's length.
    private func checkOffsets(_ s: GraphFileFormat.Section, into target: GraphFileFormat.Section) throws {
        let first: UnsafeBufferPointer<UInt32> = array(s)
        let total = count(target)
        guard let last = first.last, first[0] == 0, Int(last) == total else {
            throw Damage(message: "section \(s) does not run from 0 to the \(total) entries of \(target)")
        }
        for i in 0..<(first.count - 1) where first[i + 1] < first[i] {
            throw Damage(message: "section \(s) decreases at entry \(i) (\(first[i]) → \(first[i + 1]))")
        }
    }

    private func checkBelow<T: FixedWidthInteger>(_ s: GraphFileFormat.Section, _ bound: Int, as _: T.Type = UInt32.self) throws {
        let values: UnsafeBufferPointer<T> = array(s)
        // A bound past T's range allows every value (clamping); a bound of 0 allows none.
        let bad = bound > 0 ? firstIndex(of: values, outside: 0...T(clamping: bound - 1)) : values.indices.first
        if let i = bad { throw Damage(message: "section \(s) entry \(i) is \(values[i]), not below \(bound)") }
    }

    /// Every node within ±90° latitude and ±180° longitude.
    private func checkNodeCoordinates() throws {
        let points: UnsafeBufferPointer<E7Point> = records(.nodePoints)
        // One pass of minima and maxima (the section is megabytes), a walk only when it fails.
        var bounds = CoordinateBounds()
        for p in points { bounds.include(p) }
        guard !bounds.valid else { return }
        for (i, p) in points.enumerated() {
            if let problem = CoordinateBounds.problem(p) { throw Damage(message: "section nodePoints point \(i) is at \(problem)") }
        }
    }

    /// Every edge's ends and strings below their counts, and its inner shape points (those
    /// between its end nodes, `EdgeShapes`) a run of zero or more words in a known encoding
    /// (an even number of them for whole points), the runs in order from word 0 to the
    /// sentinel's count, and every point they make within ±90° and ±180°.
    private func checkEdges() throws {
        let n = UInt32(scalar(.nodeCount)), strings = UInt32(scalar(.stringCount)), words = scalar(.shapeWordCount)
        let edges = self.edges
        let e = edges.count - 1
        guard edges[0].shapeFirst == 0 || e == 0, edges[e] == .sentinel(shapeWordCount: words) else {
            throw Damage(message: "section edgeRecords does not run from shape word 0 to a last record of \(words) words and zeros")
        }
        for i in 0..<e {
            let r = edges[i]
            if r.from >= n || r.to >= n {
                throw Damage(message: "section edgeRecords edge \(i) joins nodes \(r.from) and \(r.to), not below \(n)")
            }
            if r.name >= strings || r.ref >= strings {
                throw Damage(message: "section edgeRecords edge \(i) has name \(r.name) and ref \(r.ref), not below \(strings)")
            }
            if edges[i + 1].shapeFirst < r.shapeFirst {
                throw Damage(message: "section edgeRecords edge \(i) has inner shape words \(r.shapeFirst) ..< \(edges[i + 1].shapeFirst), a run backwards")
            }
            let run = edges[i + 1].shapeFirst - r.shapeFirst
            guard r.shapeEncoding == EdgeRecord.offsetShape || (r.shapeEncoding == EdgeRecord.pointShape && run % 2 == 0) else {
                throw Damage(message: "section edgeRecords edge \(i) has shape encoding \(r.shapeEncoding) over \(run) words")
            }
        }
        // The runs are in bounds now, so the points can be read; one pass of minima and maxima,
        // a walk only when it fails.
        let shapes = EdgeShapes(self)
        var bounds = CoordinateBounds()
        for i in 0..<e { shapes.forEachInner(i) { bounds.include($0) } }
        guard !bounds.valid else { return }
        for i in 0..<e {
            var problem: String?
            shapes.forEachInner(i) { p in problem = problem ?? CoordinateBounds.problem(p) }
            if let problem { throw Damage(message: "section shapeWords has an inner point of edge \(i) at \(problem)") }
        }
    }

    private func checkNodesAndEdges() throws {
        let n = scalar(.nodeCount)
        try checkNodeCoordinates()
        try checkEdges()
        try checkOffsets(.stringOffsets, into: .stringBytes)
        // A node's ends: checked block by block as readers reach them (`nodeEndChecks`).
        let first: UnsafeBufferPointer<UInt32> = array(.nodeFirstEnd)
        guard first[0] == 0, Int(first[n]) == count(.nodeEnds) else {
            throw Damage(message: "section nodeFirstEnd does not run from 0 to the \(count(.nodeEnds)) entries of nodeEnds")
        }
    }

    /// Blocks of `1 << nodeEndBlockShift` nodes whose road ends (nodeFirstEnd, nodeEnds) are
    /// checked when a reader first reaches one: offsets not decreasing and within nodeEnds,
    /// ends below 2 × edgeCount (`verify()` checks that each really ends at its node).
    func makeNodeEndChecks() -> BlockChecks {
        let first: UnsafeBufferPointer<UInt32> = array(.nodeFirstEnd), ends: UnsafeBufferPointer<UInt32> = array(.nodeEnds)
        let directions = UInt32(2 * scalar(.edgeCount)), total = UInt32(ends.count)
        return BlockChecks(count: scalar(.nodeCount), shift: Self.nodeEndBlockShift) { nodes in
            for v in nodes where first[v] > first[v + 1] || first[v + 1] > total {
                return "node \(v) has road ends \(first[v]) ..< \(first[v + 1]), not within the \(total) of nodeEnds"
            }
            for i in Int(first[nodes.lowerBound])..<Int(first[nodes.upperBound]) where ends[i] >= directions {
                return "nodeEnds entry \(i) is \(ends[i]), not below \(directions)"
            }
            return nil
        }
    }

    /// Every node's road ends, whole: what the block checks check, and that each end really ends
    /// at its node (2e: leaves from, 2e+1: reaches to).
    func checkNodeEndsWhole() throws {
        let n = scalar(.nodeCount), e = scalar(.edgeCount)
        try checkOffsets(.nodeFirstEnd, into: .nodeEnds)
        let first: UnsafeBufferPointer<UInt32> = array(.nodeFirstEnd), ends: UnsafeBufferPointer<UInt32> = array(.nodeEnds)
        let edges = self.edges
        for v in 0..<n {
            for i in Int(first[v])..<Int(first[v + 1]) {
                let ed = Int(ends[i])
                guard ed < 2 * e, Int(ed & 1 == 0 ? edges[ed >> 1].from : edges[ed >> 1].to) == v else {
                    throw Damage(message: "section nodeEnds entry \(i) (\(ed)) is not an end of node \(v)")
                }
            }
        }
    }

    /// Each rank but the copies (section rankCopies) is a distinct edge direction (building
    /// `edgeDirectionRank`, its inverse; each copy drives one of theirs) whose
    /// weight, derived from its edge record, is defined and in range; components in range.
    private func checkRanks() throws {
        let rankEdge: UnsafeBufferPointer<UInt32> = array(.rankEdgeDirection)
        let copies: UnsafeBufferPointer<UInt32> = array(.rankCopies)
        let edgeRank = edgeDirectionRanks.words
        for i in copies.indices where copies[i] >= rankEdge.count || (i > 0 && copies[i] <= copies[i - 1]) {
            throw Damage(message: "section rankCopies entry \(i) (\(copies[i])) is not an increasing rank below \(rankEdge.count)")
        }
        var nextCopy = 0
        for (rank, ed) in rankEdge.enumerated() {
            guard Int(ed) < edgeRank.count else {
                throw Damage(message: "section rankEdgeDirection entry \(rank) is \(ed), not below \(edgeRank.count) edge directions")
            }
            // A copy drives its original's edge direction; the inverse maps that to the original.
            if nextCopy < copies.count && Int(copies[nextCopy]) == rank {
                nextCopy += 1
                continue
            }
            guard edgeRank[Int(ed)] == UInt32.max else {
                throw Damage(message: "section rankEdgeDirection entry \(rank) (\(ed)) repeats entry \(edgeRank[Int(ed)])")
            }
            edgeRank[Int(ed)] = UInt32(truncatingIfNeeded: rank)
        }
        for c in copies where edgeRank[Int(rankEdge[Int(c)])] == UInt32.max {
            throw Damage(message: "section rankCopies names rank \(c), a copy of edge direction \(rankEdge[Int(c)]) that no other rank drives")
        }
        // Edge after edge (one pass in file order, not a record per rank): a rank's edge direction
        // must have a speed, and a weight queries can add exactly.
        let edges = self.edges
        for ed in 0..<edgeRank.count where edgeRank[ed] != UInt32.max {
            guard edges[ed >> 1].drivable(direction: ed & 1, within: Self.maxWeight) else {
                let edge = edges[ed >> 1]
                throw Damage(message: "section rankEdgeDirection entry \(edgeRank[ed]) drives edge \(ed >> 1) "
                             + "\(ed & 1 == 0 ? "forward" : "backward") at \(edge.speed(direction: ed & 1)) "
                             + "km/h × 10 over \(edge.lengthCm) cm: no weight up to \(Self.maxWeight)")
            }
        }
        if let problem = rankComponents.problem(componentCount: scalar(.componentCount)) { throw Damage(message: problem) }
    }

    /// The hierarchy's shape only: its arcs are checked block by block as searches reach them
    /// (`CHGraphView.blockChecks`), the rest by `verify()`. Reading every arc here made the memory of a
    /// one-off route the whole file's.
    private func checkHierarchy() throws {
        let r = scalar(.edgeBasedNodeCount)
        if r >= CHArc.maxNodeCount { throw Damage(message: "\(r) edge-based nodes, not below 2^30") }
        let first: UnsafeBufferPointer<UInt32> = array(.chFirstOut)
        guard first[0] == 0, Int(first[r]) == count(.chArcs) / 2 else {
            throw Damage(message: "section chFirstOut does not run from 0 to the \(count(.chArcs) / 2) entries of chArcs")
        }
        let coreEntries = count(.chCoreDistances)
        guard CHCoreTable.isValidLength(coreEntries, nodeCount: r) else {
            throw Damage(message: "section chCoreDistances has \(coreEntries) entries, not the square of a core size up to \(r)")
        }
    }

    /// The snapping grid lies on the globe and its sections agree in length; its cells are
    /// checked block by block as snapping reaches them (`GridCells.blockChecks`), the whole
    /// grid by `verify()` (`checkGridWhole`).
    private func checkGrid() throws {
        let rows = scalar(.gridRows), columns = scalar(.gridColumns), cell = scalar(.gridCellE7)
        guard (1...3_600_000_000).contains(cell), rows >= 1, columns >= 1, rows <= Int(Int32.max) / columns,
              CoordinateBounds.latitudes.contains(Int32(clamping: scalar(.gridMinLatE7))),
              CoordinateBounds.longitudes.contains(Int32(clamping: scalar(.gridMinLonE7)))
        else { throw Damage(message: "bad snapping grid \(columns) × \(rows) cells of \(cell) e-7°") }
        try expect(.gridCellIndex, FlagWords.count(slots: rows * columns))
        let first: UnsafeBufferPointer<UInt32> = array(.gridCellFirst)
        guard let total = first.last, Int(total) == count(.gridCellEdges) else {
            throw Damage(message: "section gridCellFirst does not end at the \(count(.gridCellEdges)) entries of gridCellEdges")
        }
        try expect(.gridCellEdgeBox, count(.gridCellEdges))
    }

    /// The whole snapping grid: what the block checks check, cell after cell, and more.
    func checkGridWhole() throws {
        let rows = scalar(.gridRows), columns = scalar(.gridColumns)
        try checkOffsets(.gridCellFirst, into: .gridCellEdges)
        if let problem = FlagWords.problem(array(.gridCellIndex), slots: rows * columns, values: count(.gridCellFirst) - 1,
                                           names: ("cell", "cells with roads", "cell offsets")) {
            throw Damage(message: "section gridCellIndex: \(problem)")
        }
        try checkBelow(.gridCellEdges, scalar(.edgeCount))
        try expect(.gridCellEdgeBox, count(.gridCellEdges))
        let boxes: UnsafeBufferPointer<UInt16> = array(.gridCellEdgeBox)
        if let i = boxes.firstIndex(where: { !CellEdgeBox.isOrdered($0) }) {
            throw Damage(message: "section gridCellEdgeBox entry \(i) has its sides out of order (0x\(String(boxes[i], radix: 16)))")
        }
    }
}

/// The first entry outside `range`, or nil. One min/max pass (vector instructions, no branch per
/// value) clears a good section, the usual case; only a bad one is walked to find the entry.
private func firstIndex<T: FixedWidthInteger>(of values: UnsafeBufferPointer<T>, outside range: ClosedRange<T>) -> Int? {
    var low = T.max, high = T.min
    for v in values {
        low = min(low, v)
        high = max(high, v)
    }
    if values.isEmpty || (low >= range.lowerBound && high <= range.upperBound) { return nil }
    return values.firstIndex { !range.contains($0) }
}

/// Minima and maxima of coordinates, for one pass over many points.
private struct CoordinateBounds {
    static let latitudes: ClosedRange<Int32> = -900_000_000...900_000_000
    static let longitudes: ClosedRange<Int32> = -1_800_000_000...1_800_000_000
    var latLow = Int32.max, latHigh = Int32.min, lonLow = Int32.max, lonHigh = Int32.min

    @inline(__always) mutating func include(_ p: E7Point) {
        latLow = min(latLow, p.latE7); latHigh = max(latHigh, p.latE7)
        lonLow = min(lonLow, p.lonE7); lonHigh = max(lonHigh, p.lonE7)
    }

    /// No point was included, or all lie within ±90° and ±180°.
    var valid: Bool {
        latLow > latHigh || (Self.latitudes.contains(latLow) && Self.latitudes.contains(latHigh)
                             && Self.longitudes.contains(lonLow) && Self.longitudes.contains(lonHigh))
    }

    static func problem(_ p: E7Point) -> String? {
        if !latitudes.contains(p.latE7) { return "latitude \(Double(p.latE7) * 1e-7)" }
        if !longitudes.contains(p.lonE7) { return "longitude \(Double(p.lonE7) * 1e-7)" }
        return nil
    }
}
