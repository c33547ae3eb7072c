import ContractionHierarchy
import Foundation
import RoutingGraph
import RoutingTiles
import OffgridCore

/// A graph file's arrays as typed buffers over the mapped file, shared read-only by every
/// query thread. Creating it reads nothing but the header: the first answer comes within
/// milliseconds of start, and memory is what the queries touch.
public final class RoutingData: @unchecked Sendable {
    public let file: GraphFile
    public let nodeCount: Int
    public let edgeCount: Int
    public let rankCount: Int

    public let nodeControl: UnsafeBufferPointer<UInt8>
    /// Each node's road ends are `nodeEnds[ends(of: node)]`, read through `ends(of:)` only (it
    /// checks the node's block first): kept for prefetching.
    let nodeFirstEnd: UnsafeBufferPointer<UInt32>
    private let nodeEndGate: BlockChecks.Gate
    public let nodeEnds: UnsafeBufferPointer<UInt32>
    /// `edgeCount + 1` records, the last a sentinel (`EdgeRecord`).
    public let edges: UnsafeBufferPointer<EdgeRecord>
    public let shapes: EdgeShapes
    public let rankEdgeDirection: UnsafeBufferPointer<UInt32>
    public let edgeDirectionRank: UnsafeBufferPointer<UInt32>
    /// Ranks that copy an edge direction for a via-way restriction (sorted): `edgeDirectionRank`
    /// names only the originals.
    public let rankCopies: UnsafeBufferPointer<UInt32>
    /// The copies by the edge direction they copy: (edge direction, rank), sorted, so a route's
    /// end on a via way can be reached through them too (`forEachCopy(ofEdgeDirection:)`).
    private let copiesByEdgeDirection: [(edgeDirection: UInt32, rank: UInt32)]
    public let rankComponent: RankComponents
    public let strings: GraphStrings
    public let ch: CHGraphView
    /// An edge-based node's length in centimetres (its edge's), the sum a table's distances take.
    public let rankLength: CHNodeMetric

    public init(path: String, use: GraphFile.Use = .resident) throws {
        file = try GraphFile(path: path, use: use)
        nodeCount = file.scalar(.nodeCount)
        edgeCount = file.scalar(.edgeCount)
        rankCount = file.scalar(.edgeBasedNodeCount)
        nodeControl = file.array(.nodeControl)
        nodeFirstEnd = file.array(.nodeFirstEnd)
        nodeEndGate = file.nodeEndChecks.gate
        nodeEnds = file.array(.nodeEnds)
        edges = file.edges
        shapes = EdgeShapes(file)
        rankEdgeDirection = file.array(.rankEdgeDirection)
        edgeDirectionRank = file.edgeDirectionRank
        rankCopies = file.array(.rankCopies)
        copiesByEdgeDirection = rankCopies.map { [rankEdgeDirection] in (rankEdgeDirection[Int($0)], $0) }
            .sorted { ($0.edgeDirection, $0.rank) < ($1.edgeDirection, $1.rank) }
        rankComponent = file.rankComponents
        strings = file.strings
        ch = file.hierarchy
        rankLength = CHNodeMetric { [edges, rankEdgeDirection] r in edges[Int(rankEdgeDirection[Int(r)] >> 1)].lengthCm }
    }

    public func string(_ i: UInt32) -> String { strings[Int(i)] }

    /// Node `node`'s road ends in `nodeEnds` (`node` below `nodeCount`), once its block has
    /// passed its checks (`GraphFile.nodeEndChecks`); none for a node of a block that failed.
    @inline(__always) public func ends(of node: Int) -> Range<Int> {
        guard nodeEndGate.passed(node) else { return 0..<0 }
        return Range(uncheckedBounds: (Int(nodeFirstEnd[node]), Int(nodeFirstEnd[node &+ 1])))
    }

    /// The damage a search found in a block of the hierarchy (`CHGraphView.blockChecks`) or
    /// snapping found in a block of the grid (`GridCells.blockChecks`), or nil. Such a block
    /// reads as ranks without arcs or cells without roads, so an answer computed after it may be
    /// wrong: every reader that prints or serves one asks here first (`throwIfDamaged`).
    public var damage: InputError? {
        if let problem = file.hierarchyChecks.problem { return InputError(file: file.path, "damaged graph file: hierarchy: \(problem)") }
        if let problem = file.gridChecks.problem { return InputError(file: file.path, "damaged graph file: snapping grid: \(problem)") }
        if let problem = file.nodeEndChecks.problem { return InputError(file: file.path, "damaged graph file: node ends: \(problem)") }
        return nil
    }

    public func throwIfDamaged() throws {
        if let damage { throw damage }
    }

    /// `body(rank)` for each copy of edge direction `2e + d` made for a via-way restriction:
    /// driving it after the restriction's from and via ways (none in most graphs).
    @inline(__always) func forEachCopy(ofEdgeDirection ed: UInt32, _ body: (UInt32) -> Void) {
        guard !copiesByEdgeDirection.isEmpty else { return }
        var lo = 0, hi = copiesByEdgeDirection.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if copiesByEdgeDirection[mid].edgeDirection < ed { lo = mid + 1 } else { hi = mid }
        }
        while lo < copiesByEdgeDirection.count && copiesByEdgeDirection[lo].edgeDirection == ed {
            body(copiesByEdgeDirection[lo].rank)
            lo += 1
        }
    }

    /// The direction of travel on `phantom`'s edge that rank `r` drives (an original or a copy),
    /// or nil when `r` is on another edge.
    @inline(__always) func direction(of r: UInt32, on phantom: Phantom) -> Int? {
        let ed = Int(rankEdgeDirection[Int(r)])
        return ed >> 1 == phantom.edge ? ed & 1 : nil
    }

    /// Deciseconds to drive edge-based node `r`'s whole edge (`EdgeRecord.deciseconds`; the
    /// file's checks proved it defined and at most `GraphFile.maxWeight`).
    @inline(__always) public func rankWeight(_ r: UInt32) -> UInt32 {
        let direction = Int(rankEdgeDirection[Int(r)])
        return edges[direction >> 1].deciseconds(direction: direction & 1)
    }

    private let offGridLock = NSLock()
    private var offGridStorage: [UInt32]?

    /// The edges the snapping grid leaves out (routes do not start or end on them: ferries,
    /// private service roads), found on first use: a closure must close them too, and the grid
    /// cannot find them.
    public func edgesOffGrid() -> [UInt32] {
        offGridLock.lock()
        defer { offGridLock.unlock() }
        if let e = offGridStorage { return e }
        let e = (0..<edgeCount).filter { edges[$0].flags & EdgeFlags.notStartpoint != 0 }.map { UInt32($0) }
        offGridStorage = e
        return e
    }

    private let plainGraphLock = NSLock()
    private var plainGraphStorage: CSRGraph?

    /// The plain turn graph (forward CSR on ranks), derived from the hierarchy on first use:
    /// needed only by `--algorithm dijkstra`, so start-up stays cheap.
    public func plainGraph() -> CSRGraph {
        plainGraphLock.lock()
        defer { plainGraphLock.unlock() }
        if let g = plainGraphStorage { return g }
        let g = ch.originalGraph()
        plainGraphStorage = g
        return g
    }

    /// The turns out of edge-based node `r` (the hierarchy's real arcs from it), head ascending
    /// as in `plainGraph()`. Found at the junction where r's edge direction ends: every turn
    /// leads to a direction leaving it, and each real arc is kept at its lower-ranked end, so a
    /// few scans replace the whole-graph copy (on the ~5 M graph ~85 MB and tens of ms) that
    /// one same-edge query used to build.
    public func turns(from r: UInt32) -> [(head: UInt32, weight: UInt32)] {
        let direction = Int(rankEdgeDirection[Int(r)])
        let junction = endNode(direction >> 1, direction & 1)
        var turns: [(head: UInt32, weight: UInt32)] = []
        for i in ends(of: junction) {
            // Copies for via-way restrictions drive the same directions out of the junction.
            forEachCopy(ofEdgeDirection: nodeEnds[i]) { c in
                if let w = ch.originalArcWeight(from: r, to: c) { turns.append((c, w)) }
            }
            let x = edgeDirectionRank[Int(nodeEnds[i])]
            guard x != UInt32.max, let w = ch.originalArcWeight(from: r, to: x) else { continue }
            turns.append((x, w))
        }
        turns.sort { $0.head < $1.head }
        return turns
    }
}
