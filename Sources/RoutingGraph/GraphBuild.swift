import ContractionHierarchy
import Foundation
import RoutingProfile
import OffgridCore
import TileMath

/// `route-graph`'s stages: tiles → road graph → chains merged → edge-based graph → components
/// → contraction hierarchy → snapping grid → graph file.
public struct GraphBuild {
    public let profile: TravelProfile
    public var threads: Int
    /// Receives the contraction's per-phase statistics (route-graph --verbose).
    public var log: (@Sendable (String) -> Void)?
    public var contractionOptions: ContractionOptions?
    public var progress: ((_ stage: String, _ done: Int, _ total: Int) -> Void)?
    /// Top ranks of the core table (`CHCoreTable`), at most the hierarchy's; 0 writes an empty
    /// one, nil the default for the hierarchy's size.
    public var coreSize: Int?

    public init(profile: TravelProfile, threads: Int = ProcessInfo.processInfo.activeProcessorCount) {
        self.profile = profile
        self.threads = threads
    }

    public struct Summary {
        public var nodes = 0, edges = 0, droppedEdges = 0
        /// Directions of edges that run over the same nodes as a faster (or first-named) one
        /// (`RoadGraph.keepOneOfParallelEdges`).
        public var parallelDirectionsDropped = 0
        public var compressedNodes = 0, compressedEdges = 0
        public var edgeBasedNodes = 0, edgeBasedEdges = 0
        public var restrictions = 0, restrictedTurns = 0, uTurns = 0
        /// Edge-based nodes copied for via-way restrictions; restrictions not applied (conditional, unresolved).
        public var restrictionCopies = 0, skippedRestrictions = 0
        public var shortcuts = 0, components = 0, mainComponentShare = 0.0
        /// Ranks in the core table (0 when it is empty).
        public var coreRanks = 0
        public var tiles = 0, bytes = 0
        public var dataVersion = ""
        public var stageSeconds: [(String, Double)] = []
    }

    public func run(directories: [String], output: String) throws -> Summary {
        var summary = Summary()
        var clock = MonotonicClock.nanoseconds()
        func stage(_ name: String) {
            let now = MonotonicClock.nanoseconds()
            summary.stageSeconds.append((name, Double(now - clock) / 1e9))
            clock = now
        }

        let tileSet = try TileSet.load(directories, threads: threads)
        guard tileSet.profileHash == RoutingTagSchema.hash else {
            throw InputError(file: directories[0], "tiles keep the tags of schema \(tileSet.profileHash), "
                             + "this route-graph reads schema \(RoutingTagSchema.hash): build the routing pack again with this version's tilepack-build")
        }
        summary.tiles = tileSet.tiles.count
        summary.dataVersion = tileSet.dataVersion
        stage("load")

        var road = RoadGraph(tiles: tileSet.tiles, profile: profile)
        if let e = (0..<road.edgeCount).first(where: { !road.shapeRunsBetweenItsNodes($0) }) {
            let from = road.nodeOsmId[Int(road.edgeFrom[e])], to = road.nodeOsmId[Int(road.edgeTo[e])]
            throw InputError(file: directories[0], "the routing tiles' edge from OSM node \(from) to \(to) has a shape that does not start and end at those nodes")
        }
        summary.nodes = road.nodeCount
        summary.edges = road.edgeCount
        summary.droppedEdges = road.droppedEdges
        summary.parallelDirectionsDropped = road.keepOneOfParallelEdges()
        summary.restrictions = road.restrictions.count
        var g = ChainCompression.compress(road)
        summary.compressedNodes = g.nodeCount
        summary.compressedEdges = g.edgeCount
        stage("compress")

        let eb = EdgeBasedGraph(g, profile: profile)
        guard eb.nodeCount > 0 else { throw InputError(file: directories[0], "no road of profile \(profile.name) in the routing tiles") }
        summary.edgeBasedNodes = eb.nodeCount
        summary.edgeBasedEdges = eb.arcs.tails.count
        summary.restrictedTurns = eb.restrictedTurns
        summary.restrictionCopies = eb.nodeCount - eb.firstCopy
        summary.skippedRestrictions = eb.skippedRestrictions
        summary.uTurns = eb.uTurns
        stage("turns")

        let arcs = ArcList(tails: eb.arcs.tails, heads: eb.arcs.heads, weights: eb.arcs.weights)
        let base = CSRGraph(nodeCount: eb.nodeCount, arcs: arcs)
        let (component, sizes) = StronglyConnectedComponents.compute(nodeCount: eb.nodeCount, firstOut: base.firstOut, head: base.head)
        summary.components = sizes.count
        summary.mainComponentShare = Double(sizes[0]) / Double(eb.nodeCount)
        stage("components")

        var options = contractionOptions ?? ContractionOptions()
        options.threads = threads
        options.log = log
        // Ids by level, then by place (the Morton key of the edge's start), so that the nodes one
        // search visits share cache lines and pages (`renumberedForLocality`); the file stores
        // these ids where it says "rank".
        var spatialKey = [UInt64](repeating: 0, count: eb.nodeCount)
        for v in 0..<eb.nodeCount {
            let e = Int(eb.edgeDirectionOfNode[v] >> 1)
            let from = Int(eb.edgeDirectionOfNode[v] & 1 == 0 ? g.edgeFrom[e] : g.edgeTo[e])
            spatialKey[v] = mortonKey(latE7: g.nodeLatE7[from], lonE7: g.nodeLonE7[from])
        }
        // The core its table covers is left uncontracted (contracted only if its distances do
        // not fit the table).
        let cored = ContractionHierarchyBuilder.buildWithCoreTable(
            nodeCount: eb.nodeCount, arcs: arcs, options: options,
            coreSize: coreSize ?? CHCoreTable.defaultSize(nodeCount: eb.nodeCount),
            renumber: { $0.renumberedForLocality(spatialKey: spatialKey, threads: threads) },
            stage: { stage($0) }, progress: { done, total in progress?("contract", done, total) })
        let ch = cored.graph, core = cored.table
        summary.shortcuts = ch.shortcutCount

        // The road graph is written by place (`orderBySpace`): what one route reads lies together.
        let renumbering = g.orderBySpace()

        // Everything the query side indexes by edge-based node is stored in rank order.
        let rank = ch.rankOfNode
        var rankEdgeDirection = [UInt32](repeating: 0, count: eb.nodeCount)
        var rankComponent = [UInt16](repeating: 0, count: eb.nodeCount)
        for v in 0..<eb.nodeCount {
            let r = Int(rank[v])
            rankEdgeDirection[r] = renumbering.edgeDirection(eb.edgeDirectionOfNode[v])
            // u16: components past 65,534 (tiny islands) share the last id; routes between them fail anyway.
            rankComponent[r] = UInt16(min(component[v], UInt32(UInt16.max)))
        }
        // Copies made for via-way restrictions drive their original's edge direction.
        let copyRanks = (eb.firstCopy..<eb.nodeCount).map { rank[$0] }.sorted()
        let grid = SegmentGrid(g)
        stage("index")

        summary.coreRanks = CHCoreTable.size(ofLength: core.count / CHCoreTable.entryBytes)

        var w = GraphFileWriter(dataVersion: tileSet.dataVersion, profileName: profile.name, profileHash: profile.hash,
                                travelMode: profile.settings.mode.rawValue)
        w.set(.nodeCount, g.nodeCount)
        w.set(.edgeCount, g.edgeCount)
        let shapes = g.innerShapes()
        w.set(.shapeWordCount, shapes.words.count)
        w.set(.stringCount, g.strings.count)
        w.set(.edgeBasedNodeCount, eb.nodeCount)
        w.set(.chArcCount, ch.head.count)
        w.set(.componentCount, sizes.count)
        w.set(.gridMinLatE7, Int(grid.minLatE7))
        w.set(.gridMinLonE7, Int(grid.minLonE7))
        w.set(.gridCellE7, Int(grid.cellE7))
        w.set(.gridColumns, Int(grid.columns))
        w.set(.gridRows, Int(grid.rows))
        w.set(.shortcutCount, ch.shortcutCount)
        w.set(.gridDegreesMicro, Int((tileSet.gridDegrees * 1e6).rounded()))
        w.add(.nodePoints, records: g.nodePoints())
        w.add(.nodeControl, g.nodeControl)
        let (firstEnd, ends) = g.edgeEnds()
        w.add(.nodeFirstEnd, firstEnd)
        w.add(.nodeEnds, ends)
        w.add(.edgeRecords, records: g.edgeRecords(shapes: shapes))
        w.add(.shapeWords, shapes.words)
        var stringOffsets: [UInt32] = [0]
        var stringBytes: [UInt8] = []
        for s in g.strings {
            stringBytes.append(contentsOf: s.utf8)
            stringOffsets.append(UInt32(stringBytes.count))
        }
        w.add(.stringOffsets, stringOffsets)
        w.add(.stringBytes, stringBytes)
        w.add(.rankEdgeDirection, rankEdgeDirection)
        w.add(.rankCopies, copyRanks)
        w.add(.componentSizes, sizes.map { UInt32($0) })
        let components = RankComponents.compact(rankComponent)
        w.add(.rankComponentIndex, components.index)
        w.add(.rankMinorComponent, components.minor)
        w.add(.chFirstOut, ch.firstOut)
        w.add(.chArcs, records: cored.arcs)
        w.add(.chShortcutIndex, cored.middleIndex)
        w.addShortcutMiddles(cored.shortcutMiddle, rankCount: ch.nodeCount)
        w.add(.chCoreDistances, bytes: core)
        w.add(.chReplacedTurns, Self.replacedTurns(arcs, rank: rank, kept: ch.originalGraph()))
        let cells = GridCells.compact(grid.cellFirst)
        w.add(.gridCellIndex, cells.index)
        w.add(.gridCellFirst, cells.first)
        w.add(.gridCellEdges, grid.cellEdges)
        w.add(.gridCellEdgeBox, grid.cellEdgeBox)
        summary.bytes = try w.write(to: output)
        stage("write")
        return summary
    }

    /// The turns (lightest of parallel ones, loops left out) that the hierarchy's real arcs lack,
    /// as sorted (tail rank, head rank, weight) triples: section chReplacedTurns.
    static func replacedTurns(_ arcs: ArcList, rank: [UInt32], kept: CSRGraph) -> [UInt32] {
        var turns = [(key: UInt64, weight: UInt32)]()
        turns.reserveCapacity(arcs.count)
        for i in 0..<arcs.count where arcs.tails[i] != arcs.heads[i] {
            turns.append((UInt64(rank[Int(arcs.tails[i])]) << 32 | UInt64(rank[Int(arcs.heads[i])]), arcs.weights[i]))
        }
        turns.sort { $0.key != $1.key ? $0.key < $1.key : $0.weight < $1.weight }
        var out = [UInt32]()
        var previous = UInt64.max
        for (key, weight) in turns where key != previous {
            previous = key
            let tail = Int(key >> 32), head = UInt32(truncatingIfNeeded: key)
            var found = false
            for a in Int(kept.firstOut[tail])..<Int(kept.firstOut[tail + 1]) where kept.head[a] == head { found = true; break }
            if !found { out.append(contentsOf: [UInt32(tail), head, weight]) }
        }
        return out
    }
}
