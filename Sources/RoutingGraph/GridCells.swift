import ContractionHierarchy

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

    /// Over an opened file's sections (which its open-time checks have matched).
    public init(_ file: GraphFile) {
        self.init(index: file.array(.gridCellIndex), first: file.array(.gridCellFirst))
    }

    public init(index: UnsafeBufferPointer<UInt64>, first: UnsafeBufferPointer<UInt32>) {
        self.index = index
        self.first = first
    }

    /// Whether cell `cell` (below rows × columns) lists any edge.
    @inline(__always) public func hasEntries(_ cell: Int) -> Bool { FlagWords.isFlagged(index, cell) }

    /// The entries of cell `cell` (below rows × columns) in gridCellEdges: none for a cell
    /// without roads.
    @inline(__always) public func entries(_ cell: Int) -> Range<Int> {
        guard hasEntries(cell) else { return 0..<0 }
        let k = FlagWords.flagged(index, before: cell)
        return Int(first[k])..<Int(first[k + 1])
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
