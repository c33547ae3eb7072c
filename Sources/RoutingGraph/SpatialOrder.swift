import TileMath

/// Renumbering the road graph by place before it is written.
///
/// Turning a found path into pieces and steps reads, for every edge on it, the edge's record,
/// its shape points, the node it ends at with its coordinates and incidence list, and at each
/// junction the other roads' records and first points. In OSM id order (nodes) and tile order
/// (edges) the edges of one route lay all over the file. Grouped by start node with nodes by
/// place, the roads of a town shared pages, but a route still took a cache line per edge: it
/// follows roads, and a road's next edge starts at another node. Laid out along roads (runs
/// that follow a road from node to node, started from the nodes in order of place), a ~5 M
/// route's edges, shapes and nodes take about a third fewer cache lines.
extension RoadGraph {
    /// Numbers edges along roads (`roadOrder`, its runs started from the nodes sorted by the
    /// Morton key of their point, then by old number) and nodes as the runs reach them, with
    /// shape points following their edges; the network, its shapes and every attribute stay
    /// as they were. Each array is replaced in turn, so the graph is never held twice. Call it
    /// last: chain compression and the edge-based graph find restrictions' via nodes by binary
    /// search over OSM ids, which needs the id order.
    public mutating func orderBySpace() -> EdgeRenumbering {
        var keyed = (0..<nodeCount).map { v in (key: mortonKey(latE7: nodeLatE7[v], lonE7: nodeLonE7[v]), node: UInt32(v)) }
        keyed.sort { ($0.key, $0.node) < ($1.key, $1.node) }
        let (edgeOrder, nodeOrder) = roadOrder(from: keyed.lazy.map { Int($0.node) })   // new → old
        keyed = []
        permuteNodes(nodeOrder)
        var newEdge = [UInt32](repeating: 0, count: edgeCount)
        for (n, e) in edgeOrder.enumerated() { newEdge[e] = UInt32(n) }

        func permuted<T>(_ values: [T], _ order: [Int]) -> [T] { order.map { values[$0] } }
        edgeFrom = permuted(edgeFrom, edgeOrder)
        edgeTo = permuted(edgeTo, edgeOrder)
        var first: [UInt32] = [0], lat: [Int32] = [], lon: [Int32] = []
        first.reserveCapacity(edgeCount + 1)
        lat.reserveCapacity(shapeLatE7.count)
        lon.reserveCapacity(shapeLonE7.count)
        for e in edgeOrder {
            let run = shapeRange(e)
            lat.append(contentsOf: shapeLatE7[run])
            lon.append(contentsOf: shapeLonE7[run])
            first.append(UInt32(lat.count))
        }
        (shapeFirst, shapeLatE7, shapeLonE7) = (first, lat, lon)
        edgeLengthCm = permuted(edgeLengthCm, edgeOrder)
        edgeSpeedForward = permuted(edgeSpeedForward, edgeOrder)
        edgeSpeedBackward = permuted(edgeSpeedBackward, edgeOrder)
        edgeFlags = permuted(edgeFlags, edgeOrder)
        edgeRoadClass = permuted(edgeRoadClass, edgeOrder)
        edgeAttributes = permuted(edgeAttributes, edgeOrder)
        edgeName = permuted(edgeName, edgeOrder)
        edgeRef = permuted(edgeRef, edgeOrder)
        edgeWayAtStart = permuted(edgeWayAtStart, edgeOrder)
        edgeWayAtEnd = permuted(edgeWayAtEnd, edgeOrder)
        edgeBearingStart = permuted(edgeBearingStart, edgeOrder)
        edgeBearingEnd = permuted(edgeBearingEnd, edgeOrder)
        return EdgeRenumbering(newEdge: newEdge)
    }
}

extension RoadGraph {
    /// Edges along roads: from each node in `seeds` order (every node once), each of its edges
    /// not yet placed starts a run that goes on through the far end's next edge not yet placed
    /// (the one with the same name and class if there is one) until none is left; nodes follow
    /// in the order the runs reach them. Returns new → old numbers.
    func roadOrder<Seeds: Sequence<Int>>(from seeds: Seeds) -> (edges: [Int], nodes: [Int]) {
        let (first, ends) = edgeEnds()
        var placed = [Bool](repeating: false, count: edgeCount), seen = [Bool](repeating: false, count: nodeCount)
        var edges: [Int] = [], nodes: [Int] = []
        edges.reserveCapacity(edgeCount)
        nodes.reserveCapacity(nodeCount)
        func see(_ v: Int) { if !seen[v] { seen[v] = true; nodes.append(v) } }
        for seed in seeds {
            see(seed)
            for i in Int(first[seed])..<Int(first[seed + 1]) {
                // `2e` leaves a node along edge e's shape, `2e + 1` against it.
                var end = Int(ends[i])
                while !placed[end >> 1] {
                    let e = end >> 1
                    placed[e] = true
                    edges.append(e)
                    let far = Int(end & 1 == 0 ? edgeTo[e] : edgeFrom[e])
                    see(far)
                    var next = -1
                    for k in Int(first[far])..<Int(first[far + 1]) where !placed[Int(ends[k]) >> 1] {
                        let f = Int(ends[k]) >> 1
                        if edgeName[f] == edgeName[e] && edgeRoadClass[f] == edgeRoadClass[e] { next = Int(ends[k]); break }
                        if next < 0 { next = Int(ends[k]) }
                    }
                    guard next >= 0 else { break }
                    end = next
                }
            }
        }
        return (edges, nodes)
    }
}

/// Where each edge of a road graph went when `orderBySpace` renumbered it.
public struct EdgeRenumbering {
    /// The new number of old edge e.
    public let newEdge: [UInt32]

    /// The new number of old edge direction `2e + d` (edges keep their shape's direction).
    @inline(__always) public func edgeDirection(_ old: UInt32) -> UInt32 { newEdge[Int(old >> 1)] << 1 | old & 1 }
}
