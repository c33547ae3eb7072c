import ContractionHierarchy
import OffgridCore

/// The snapping grid's cells as the graph file stores them (since version 8): where each cell's
/// entries lie in gridCellEdges, for the cells that have any. Most cells of a network's bounding
/// box hold no road (72 % on the bench extracts), so a flag word per 32 cells (`FlagWords`: the
/// cells with entries) and a u32 per such cell replace a u32 per cell: 6.3 → 2.1 MB at ~5 M OSM
/// nodes, room the core table uses. A lookup is one word and a popcount more than before.
public struct GridCells {
    /// Flags the cells with entries (`FlagWords`).
    public let index: UnsafeBufferPointer<UInt64>
    /// For each flagged cell in cell order, its first entry; then the number of entries.
    public let first: UnsafeBufferPointer<UInt32>
    /// The checks a block of cells passes before its entries are read (a graph file's grid,
    /// `blockChecks`); nil for a grid built in memory, trusted.
    private let gate: BlockChecks.Gate?

    /// Over an opened file's sections, each block of cells checked when first read (`GraphFile.gridChecks`).
    public init(_ file: GraphFile) {
        self.init(index: file.array(.gridCellIndex), first: file.array(.gridCellFirst), checks: file.gridChecks)
    }

    public init(index: UnsafeBufferPointer<UInt64>, first: UnsafeBufferPointer<UInt32>, checks: BlockChecks? = nil) {
        self.index = index
        self.first = first
        gate = checks?.gate
    }

    public static let checkedBlockShift = 12

    /// Block checks of the cells of a file's grid (4,096 cells a block): what reading a cell's
    /// entries needs: the index words of the block count the flags before them (so a flagged
    /// cell's offsets are the right ones and exist), its cells' offsets do not decrease and stay
    /// within the `entries` of gridCellEdges, those entries name edges below `edgeCount`, and
    /// their boxes have their sides in order. A cell of a block that failed has no entries.
    public static func blockChecks(cells: Int, index: UnsafeBufferPointer<UInt64>, first: UnsafeBufferPointer<UInt32>,
                                   cellEdges: UnsafeBufferPointer<UInt32>, boxes: UnsafeBufferPointer<UInt16>,
                                   edgeCount: Int) -> BlockChecks {
        BlockChecks(count: cells, shift: checkedBlockShift) { block in
            let flagged = first.count - 1
            for w in (block.lowerBound >> 5)...((block.upperBound - 1) >> 5) {
                let word = index[w], count = Int(UInt32(truncatingIfNeeded: word))
                let next = count + UInt32(truncatingIfNeeded: word >> 32).nonzeroBitCount
                let expected = w + 1 < index.count ? Int(UInt32(truncatingIfNeeded: index[w + 1])) : flagged
                guard next == expected, next <= flagged else {
                    return "grid index word \(w) counts \(count) + its flags cells with roads, not \(expected) (of \(flagged))"
                }
            }
            for cell in block where FlagWords.isFlagged(index, cell) {
                let k = FlagWords.flagged(index, before: cell)
                let lo = first[k], hi = first[k + 1]
                guard lo <= hi, Int(hi) <= cellEdges.count else {
                    return "grid cell \(cell) has entries \(lo) ..< \(hi), not within the \(cellEdges.count) of gridCellEdges"
                }
                for i in Int(lo)..<Int(hi) {
                    if Int(cellEdges[i]) >= edgeCount { return "gridCellEdges entry \(i) is \(cellEdges[i]), not below \(edgeCount)" }
                    if !CellEdgeBox.isOrdered(boxes[i]) { return "gridCellEdgeBox entry \(i) has its sides out of order (0x\(String(boxes[i], radix: 16)))" }
                }
            }
            return nil
        }
    }

    /// Whether cell `cell` (below rows × columns) lists any edge.
    @inline(__always) public func hasEntries(_ cell: Int) -> Bool { FlagWords.isFlagged(index, cell) }

    /// The entries of cell `cell` (below rows × columns) in gridCellEdges: none for a cell
    /// without roads, or of a block that failed its checks.
    @inline(__always) public func entries(_ cell: Int) -> Range<Int> {
        guard hasEntries(cell) else { return 0..<0 }
        if let gate, !gate.passed(cell) { return 0..<0 }
        let k = FlagWords.flagged(index, before: cell)
        return Range(uncheckedBounds: (Int(first[k]), Int(first[k + 1])))
    }

    /// What the file stores for the offsets of every cell (`cellFirst[c] ..< cellFirst[c + 1]`
    /// are cell c's entries, `SegmentGrid`).
    public static func compact(_ cellFirst: [UInt32]) -> (index: [UInt64], first: [UInt32]) {
        let cells = cellFirst.count - 1
        let hasEntries = { (c: Int) in cellFirst[c] != cellFirst[c + 1] }
        return (FlagWords.words(slots: cells, flagging: hasEntries),
                (0..<cells).filter(hasEntries).map { cellFirst[$0] } + [cellFirst[cells]])
    }
}
