import OffgridCore
import RoutingProfile
import RoutingTiles

/// The node-based road graph stitched from routing tiles: intersections and the road pieces
/// between them, as flat arrays. Edges keep their full shapes.
public struct RoadGraph {
    // Nodes, sorted by OSM id (until `orderBySpace` sorts them by place, just before writing).
    public var nodeOsmId: [Int64] = []
    public var nodeLatE7: [Int32] = []
    public var nodeLonE7: [Int32] = []
    public var nodeControl: [UInt8] = []

    // Edges; `from → to` is the direction of the shape.
    public var edgeFrom: [UInt32] = []
    public var edgeTo: [UInt32] = []
    /// Shape of edge e: `shapeLatE7/LonE7[shapeFirst[e] ..< shapeFirst[e + 1]]`, both ends included.
    public var shapeFirst: [UInt32] = [0]
    public var shapeLatE7: [Int32] = []
    public var shapeLonE7: [Int32] = []
    public var edgeLengthCm: [UInt32] = []
    public var edgeSpeedForward: [UInt16] = []   // km/h × 10
    public var edgeSpeedBackward: [UInt16] = []
    public var edgeFlags: [UInt8] = []            // EdgeFlags
    public var edgeRoadClass: [UInt8] = []
    public var edgeAttributes: [UInt8] = []       // EdgeAttributes
    public var edgeName: [UInt32] = []
    public var edgeRef: [UInt32] = []
    /// OSM ways at the shape's start and end (they differ once chains of ways are merged).
    public var edgeWayAtStart: [Int64] = []
    public var edgeWayAtEnd: [Int64] = []
    public var edgeBearingStart: [UInt16] = []    // degrees × 10, leaving `from`
    public var edgeBearingEnd: [UInt16] = []      // degrees × 10, arriving at `to`

    public var strings: [String] = [""]
    public var restrictions: [RoadRestriction] = []

    /// Tile edges whose far node is in no loaded tile.
    public var droppedEdges = 0

    public var nodeCount: Int { nodeOsmId.count }
    public var edgeCount: Int { edgeFrom.count }

    /// Stitches tiles by OSM node id into the graph of the roads `profile` may use (the tiles
    /// hold every mode's roads and their tags; nodes no such road reaches are left out).
    public init(tiles: [RoutingTile], profile: TravelProfile = .embeddedDefault) {
        let verdicts = Parallel.map(count: tiles.count) { TileVerdicts(tiles[$0], profile: profile) }
        var order: [(Int64, Int, Int)] = []  // (osm id, tile, node)
        for (t, tile) in tiles.enumerated() {
            for (n, node) in tile.nodes.enumerated() { order.append((node.osmId, t, n)) }
        }
        order.sort { $0.0 < $1.0 }
        var place: [[Int]] = tiles.map { [Int](repeating: 0, count: $0.nodes.count) }
        for (i, (_, t, n)) in order.enumerated() { place[t][n] = i }
        // Each edge of the profile's roads resolved once: its far end's place in `order` (-1 when
        // no loaded tile has it, or the profile does not use the edge); which nodes they end at.
        var farEnd: [[Int]] = tiles.map { [Int](repeating: -1, count: $0.edges.count) }
        var used = [Bool](repeating: false, count: order.count)
        var edgeCount = 0, shapePoints = 0
        order.map(\.0).withUnsafeBufferPointer { ids in
            for (t, tile) in tiles.enumerated() {
                for (k, e) in tile.edges.enumerated() where verdicts[t].ways[Int(e.tags)] != nil {
                    let to = lowerBound(ids, e.toNodeOsmId)
                    guard to < ids.count, ids[to] == e.toNodeOsmId else { droppedEdges += 1; continue }
                    farEnd[t][k] = to
                    used[place[t][Int(e.fromNode)]] = true
                    used[to] = true
                    edgeCount += 1
                    shapePoints += Int(e.shapeCount)
                }
            }
        }
        // Place in `order` → node index in the graph (used nodes only).
        var graphNode = [UInt32](repeating: UInt32.max, count: order.count)
        reserveCapacity(nodes: used.lazy.filter { $0 }.count, edges: edgeCount, shapePoints: shapePoints)
        for (i, (id, t, n)) in order.enumerated() where used[i] {
            let node = tiles[t].nodes[n]
            graphNode[i] = UInt32(nodeOsmId.count)
            nodeOsmId.append(id)
            nodeLatE7.append(node.latE7)
            nodeLonE7.append(node.lonE7)
            nodeControl.append(verdicts[t].nodeControl[n])
        }
        var stringIndex: [String: UInt32] = ["": 0]
        func intern(_ s: String) -> UInt32 {
            if let i = stringIndex[s] { return i }
            let i = UInt32(strings.count)
            strings.append(s)
            stringIndex[s] = i
            return i
        }
        var duration: [(edge: Int, deciseconds: UInt32)] = []
        for (t, tile) in tiles.enumerated() {
            for (k, e) in tile.edges.enumerated() where farEnd[t][k] >= 0 {
                let v = verdicts[t].ways[Int(e.tags)]!
                if v.durationDeciseconds > 0 { duration.append((edgeFrom.count, v.durationDeciseconds)) }
                edgeFrom.append(graphNode[place[t][Int(e.fromNode)]])
                edgeTo.append(graphNode[farEnd[t][k]])
                let s = Int(e.shapeStart), c = Int(e.shapeCount)
                shapeLatE7.append(contentsOf: tile.shapeLatE7[s..<s + c])
                shapeLonE7.append(contentsOf: tile.shapeLonE7[s..<s + c])
                shapeFirst.append(UInt32(shapeLatE7.count))
                edgeLengthCm.append(e.lengthCm)
                edgeSpeedForward.append(v.speedForwardDeciKmh)
                edgeSpeedBackward.append(v.speedBackwardDeciKmh)
                edgeFlags.append(v.flags)
                edgeRoadClass.append(v.roadClass)
                edgeAttributes.append(v.attributes)
                edgeName.append(intern(v.name))
                edgeRef.append(intern(v.ref))
                edgeWayAtStart.append(e.wayId)
                edgeWayAtEnd.append(e.wayId)
                edgeBearingStart.append(e.bearingStartDeci)
                edgeBearingEnd.append(e.bearingEndDeci)
            }
            restrictions.append(contentsOf: verdicts[t].restrictions)
        }
        // A restriction applies only where the profile may use every way it names (as OSRM: one
        // naming a footway is no car restriction).
        let ways = Set(edgeWayAtStart)
        restrictions.removeAll { !ways.contains($0.fromWayId) || !ways.contains($0.toWayId) || !$0.viaWayIds.allSatisfy(ways.contains) }
        applyDurations(duration)
    }

    /// A ferry's `duration` becomes the speed that crosses its whole way (every edge of it in
    /// the tiles) in that time, in the directions it may be taken.
    private mutating func applyDurations(_ duration: [(edge: Int, deciseconds: UInt32)]) {
        var wayCm: [Int64: UInt64] = [:]
        for d in duration { wayCm[edgeWayAtStart[d.edge], default: 0] += UInt64(edgeLengthCm[d.edge]) }
        for d in duration {
            let metres = Double(wayCm[edgeWayAtStart[d.edge]] ?? 0) / 100
            // km/h × 10 = m / s × 36; at least 0.1 km/h so that the direction stays drivable.
            let deciKmh = UInt16(max(1, min(Double(UInt16.max), (metres / (Double(d.deciseconds) / 10) * 36).rounded())))
            if edgeSpeedForward[d.edge] > 0 { edgeSpeedForward[d.edge] = deciKmh }
            if edgeSpeedBackward[d.edge] > 0 { edgeSpeedBackward[d.edge] = deciKmh }
        }
    }

    init() {}

    /// Room for the arrays' final sizes (or upper bounds), so that they are not copied and
    /// their pages cleared again at every doubling while the graph is filled.
    mutating func reserveCapacity(nodes: Int, edges: Int, shapePoints: Int) {
        nodeOsmId.reserveCapacity(nodes); nodeLatE7.reserveCapacity(nodes)
        nodeLonE7.reserveCapacity(nodes); nodeControl.reserveCapacity(nodes)
        edgeFrom.reserveCapacity(edges); edgeTo.reserveCapacity(edges); shapeFirst.reserveCapacity(edges + 1)
        edgeLengthCm.reserveCapacity(edges); edgeSpeedForward.reserveCapacity(edges)
        edgeSpeedBackward.reserveCapacity(edges); edgeFlags.reserveCapacity(edges)
        edgeRoadClass.reserveCapacity(edges); edgeAttributes.reserveCapacity(edges); edgeName.reserveCapacity(edges); edgeRef.reserveCapacity(edges)
        edgeWayAtStart.reserveCapacity(edges); edgeWayAtEnd.reserveCapacity(edges)
        edgeBearingStart.reserveCapacity(edges); edgeBearingEnd.reserveCapacity(edges)
        shapeLatE7.reserveCapacity(shapePoints); shapeLonE7.reserveCapacity(shapePoints)
    }

    func shapeRange(_ e: Int) -> Range<Int> { Int(shapeFirst[e])..<Int(shapeFirst[e + 1]) }

    /// Moves node `order[i]` to place i and renumbers the edges' ends to match.
    mutating func permuteNodes(_ order: [Int]) {
        var newNode = [UInt32](repeating: 0, count: nodeCount)
        for (n, old) in order.enumerated() { newNode[old] = UInt32(n) }
        nodeOsmId = order.map { nodeOsmId[$0] }
        nodeLatE7 = order.map { nodeLatE7[$0] }
        nodeLonE7 = order.map { nodeLonE7[$0] }
        nodeControl = order.map { nodeControl[$0] }
        edgeFrom = edgeFrom.map { newNode[Int($0)] }
        edgeTo = edgeTo.map { newNode[Int($0)] }
    }

    /// Incidence lists in CSR form: at node v, `2e` for an edge starting there and `2e + 1` for
    /// one ending there, which is also the edge direction that leaves v. Self loops appear twice.
    public func edgeEnds() -> (first: [UInt32], ends: [UInt32]) {
        var first = [UInt32](repeating: 0, count: nodeCount + 1)
        for e in 0..<edgeCount {
            first[Int(edgeFrom[e]) + 1] += 1
            first[Int(edgeTo[e]) + 1] += 1
        }
        for v in 0..<nodeCount { first[v + 1] += first[v] }
        var fill = Array(first[0..<nodeCount])
        var ends = [UInt32](repeating: 0, count: Int(first[nodeCount]))
        for e in 0..<edgeCount {
            let a = Int(edgeFrom[e]), b = Int(edgeTo[e])
            ends[Int(fill[a])] = UInt32(2 * e); fill[a] += 1
            ends[Int(fill[b])] = UInt32(2 * e + 1); fill[b] += 1
        }
        return (first, ends)
    }
}
