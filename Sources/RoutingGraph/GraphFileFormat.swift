import ContractionHierarchy

/// Layout of the contraction-hierarchy graph file (`.chg`), documented in docs/FORMATS.md.
///
/// A fixed header, a table of sections, then each section's flat little-endian array at a
/// 64-byte aligned offset, so a reader can `mmap` the file and use the arrays in place.
public enum GraphFileFormat {
    public static let magic: [UInt8] = Array("OGCHGRPH".utf8)
    /// 9 since 2026-11-29: shortcut middles in three bytes each where every rank fits
    /// (`CHShortcutMiddles.middleBytes`), so that a larger core table fits.
    /// (8 since 2026-11-29: the snapping grid's offsets for the cells with roads only
    /// (`GridCells`). 7 since 2026-11-29: inner shape points as offsets from the edge's start, one word each,
    /// where they fit (`EdgeShapes`). 6 since 2026-11-29: no weight per rank (readers derive it
    /// from the edge record) and components only for the ranks outside the main one. 5 since 2026-11-28: the core may be uncontracted, its arcs the graph that remained, not an
    /// up-down hierarchy, so readers must not search through it but use its table.)
    /// 10 since 2026-12: via-way turn restrictions copy edge-based nodes, so several ranks may
    /// drive one edge direction; section rankCopies lists the copies (the other ranks stay one
    /// to one with their edge directions).
    public static let version: UInt32 = 12
    public static let alignment = 64
    public static let sectionEntrySize = 32

    /// Scalars stored in the header, in this order, as u64.
    public enum Scalar: Int, CaseIterable {
        case nodeCount, edgeCount, shapeWordCount, stringCount
        case edgeBasedNodeCount, chArcCount, componentCount
        case gridMinLatE7, gridMinLonE7, gridCellE7, gridColumns, gridRows
        case shortcutCount, gridDegreesMicro
    }

    /// Sections; the raw value is the id in the file.
    public enum Section: UInt32, CaseIterable {
        // Node-based graph (junctions) and its edges. Coordinates are `E7Point`s (latitude and
        // longitude side by side, one cache line for both) since version 4; until then ids 2 and
        // 3 held nodes' latitudes and longitudes, 30 and 31 shapes', in separate sections.
        case nodePoints = 7, nodeControl = 4
        case nodeFirstEnd = 5, nodeEnds
        // One `EdgeRecord` (eight u32) per edge, and a sentinel, since 2026-11-27 (until then
        // ids 10-19 held one field each: edgeFrom … edgeRef).
        case edgeRecords = 20
        // Edges' inner shape points, without their end nodes, one or two words each
        // (`EdgeShapes`), since version 7 (until then id 32, shapePoints, held two words for
        // every point; until version 4 every edge's run repeated its end nodes' coordinates).
        case shapeWords = 33
        case stringOffsets = 40, stringBytes
        // Edge-based nodes, in contraction-rank order; rankComponentIndex and rankMinorComponent
        // are `RankComponents`. (Until version 5, id 52 held each rank's weight, now derived from
        // its edge record, and id 53 each rank's component; until version 3, id 51 held
        // edgeDirectionRank, the inverse of rankEdgeDirection: now built at open, `GraphFile`.)
        case rankEdgeDirection = 50, componentSizes = 54, rankComponentIndex = 55, rankMinorComponent
        // The ranks that are copies of another rank's edge direction, made for via-way turn
        // restrictions, strictly increasing (since version 10).
        case rankCopies = 57
        // The contraction hierarchy's upward graph (ranks), in the search layout of
        // `CHGraphView`: chArcs holds one `CHArc` (two u32) per arc; chShortcutIndex and
        // chShortcutMiddle (since 2026-11-27; three bytes a middle since version 9 where every
        // rank fits) are `CHShortcutMiddles`. (Version 1 had separate
        // head, weight and direction sections, ids 61, 62 and 64; until 2026-11-27 section 63,
        // chMiddle, held a middle per arc.)
        case chFirstOut = 60, chArcs = 65, chShortcutIndex = 67, chShortcutMiddle = 68
        // Distances between the top ranks (`CHCoreTable`), row by row, since 2026-11-26; three
        // bytes per entry since 2026-11-27 (version 3; four until then). Since version 5 the core
        // it covers is left uncontracted.
        case chCoreDistances = 66
        // The turns the hierarchy dropped because a path through lower ranks was no longer
        // (`ContractedGraph.originalGraph` lacks them): (tail rank, head rank, weight) u32
        // triples, sorted, since version 12. Under the default weights they change no distance;
        // a metric that removes roads (exclusions, closures: `CustomizableTurnGraph`) may need them.
        case chReplacedTurns = 69
        // Snapping grid; gridCellEdgeBox (since 2026-11-26) holds one `CellEdgeBox` per
        // gridCellEdges entry; gridCellIndex and gridCellFirst (since version 8) are
        // `GridCells` (until then id 80 held an offset for every cell).
        case gridCellEdges = 81, gridCellEdgeBox, gridCellIndex, gridCellFirst

        /// Bytes per element in a file of `rankCount` ranks: `fixedElementSize`, but for
        /// chShortcutMiddle, whose middles take three bytes up to 2^24 ranks and four above
        /// (`CHShortcutMiddles.middleBytes`; four in every file until version 9).
        public func elementSize(rankCount: Int) -> Int {
            self == .chShortcutMiddle ? CHShortcutMiddles.middleBytes(rankCount: rankCount) : fixedElementSize
        }

        /// Bytes per element of every section but chShortcutMiddle (see `elementSize(rankCount:)`).
        public var fixedElementSize: Int {
            switch self {
            case .nodeControl, .stringBytes: return 1
            case .rankMinorComponent, .gridCellEdgeBox: return 2
            case .chCoreDistances: return CHCoreTable.entryBytes
            case .chShortcutIndex, .rankComponentIndex, .gridCellIndex: return 8
            default: return 4
            }
        }
    }
}
