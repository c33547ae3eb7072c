import TileMath

/// Renumbering the road graph by place before it is written.
///
/// Turning a found path into pieces and steps reads, for every edge on it, the edge's record,
/// its shape points, the node it ends at with its coordinates and incidence list, and at each
/// junction the other roads' records and first points. In OSM id order (nodes) and tile order
/// (edges) the edges of one route lay all over the file. With nodes sorted by place and edges
/// grouped by their start node, a route's edges, shapes and junctions lie together: the roads
/// of a town share cache lines and pages.
extension RoadGraph {
    /// Sorts nodes by the Morton key of their point (then by old number) and edges by their new
    /// start node (then by old number), with shape points following their edges; the network,
    /// its shapes and every attribute stay as they were. Each array is replaced in turn, so the
    /// graph is never held twice. Call it last: chain compression and the edge-based graph find
    /// restrictions' via nodes by binary search over OSM ids, which needs the id order.
    public mutating func orderBySpace() -> EdgeRenumbering {
        var keyed = (0..<nodeCount).map { v in (key: mortonKey(latE7: nodeLatE7[v], lonE7: nodeLonE7[v]), node: UInt32(v)) }
        keyed.sort { ($0.key, $0.node) < ($1.key, $1.node) }
        let nodeOrder = keyed.map { Int($0.node) }   // new → old
        keyed = []
        permuteNodes(nodeOrder)

        // Edges by (new) start node, stably: a counting sort over the old order.
        var start = [Int](repeating: 0, count: nodeCount + 1)
        for e in 0..<edgeCount { start[Int(edgeFrom[e]) + 1] += 1 }
        for n in 0..<nodeCount { start[n + 1] += start[n] }
        var edgeOrder = [Int](repeating: 0, count: edgeCount)   // new → old
        var newEdge = [UInt32](repeating: 0, count: edgeCount)
        for e in 0..<edgeCount {
            let n = Int(edgeFrom[e])
            edgeOrder[start[n]] = e
            newEdge[e] = UInt32(start[n])
            start[n] += 1
        }

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
        edgeName = permuted(edgeName, edgeOrder)
        edgeRef = permuted(edgeRef, edgeOrder)
        edgeWayAtStart = permuted(edgeWayAtStart, edgeOrder)
        edgeWayAtEnd = permuted(edgeWayAtEnd, edgeOrder)
        edgeBearingStart = permuted(edgeBearingStart, edgeOrder)
        edgeBearingEnd = permuted(edgeBearingEnd, edgeOrder)
        return EdgeRenumbering(newEdge: newEdge)
    }
}

/// Where each edge of a road graph went when `orderBySpace` renumbered it.
public struct EdgeRenumbering {
    /// The new number of old edge e.
    public let newEdge: [UInt32]

    /// The new number of old edge direction `2e + d` (edges keep their shape's direction).
    @inline(__always) public func edgeDirection(_ old: UInt32) -> UInt32 { newEdge[Int(old >> 1)] << 1 | old & 1 }
}
