import RoutingTiles

/// Merges chains of edges through degree-2 nodes into single edges that keep the full shape,
/// so the routing graph has a node only where a driver has a choice or a cost (junctions,
/// controls, restriction via nodes, attribute changes).
///
/// A node is merged away only when its two edges continue each other exactly: the same
/// directions, speeds, road class, name, ref and roundabout flag; so weights, instructions and
/// partial-edge durations of the merged edge are those of its pieces.
public enum ChainCompression {
    public static func compress(_ g: RoadGraph) -> RoadGraph {
        let n = g.nodeCount
        // Undirected incidence: the edges at each node.
        let (first, ends) = g.edgeEnds()
        let incident = ends.map { $0 >> 1 }

        var isVia = [Bool](repeating: false, count: n)
        g.nodeOsmId.withUnsafeBufferPointer { ids in
            // Every node a restriction turns at stays a junction: the via node, or each node where
            // a via way meets the from way, the next via way or the to way (so that the merged
            // edges of a via path begin and end where the restriction's ways do).
            for r in g.restrictions {
                for id in r.nodeOsmIds {
                    let v = lowerBound(ids, id)
                    if v < n, ids[v] == id { isVia[v] = true }
                }
            }
        }

        var junction = [Bool](repeating: true, count: n)
        for v in 0..<n where first[v + 1] - first[v] == 2 && g.nodeControl[v] == 0 && !isVia[v] {
            let e1 = Int(incident[Int(first[v])]), e2 = Int(incident[Int(first[v]) + 1])
            guard e1 != e2, g.edgeFrom[e1] != g.edgeTo[e1], g.edgeFrom[e2] != g.edgeTo[e2] else { continue }
            let a = OrientedEdge(g, e1, endingAt: UInt32(v))
            let b = OrientedEdge(g, e2, startingAt: UInt32(v))
            guard a.from != b.to, a.continues(into: b, g) else { continue }
            junction[v] = false
        }

        keepLoopsApart(g, first: first, incident: incident, junction: &junction)

        var out = RoadGraph()
        out.strings = g.strings
        out.restrictions = g.restrictions
        out.droppedEdges = g.droppedEdges
        // Merging only removes nodes, edges and shared shape points.
        out.reserveCapacity(nodes: n, edges: g.edgeCount, shapePoints: g.shapeLatE7.count)
        var newIndex = [UInt32](repeating: UInt32.max, count: n)
        var visited = [Bool](repeating: false, count: g.edgeCount)
        var lat: [Int32] = [], lon: [Int32] = []  // one chain's shape, reused

        func walk(from start: Int, edge: Int) {
            var piece = OrientedEdge(g, edge, startingAt: UInt32(start))
            let firstPiece = piece
            var lengthCm: UInt64 = 0
            lat.removeAll(keepingCapacity: true); lon.removeAll(keepingCapacity: true)
            while true {
                visited[piece.edge] = true
                lengthCm += UInt64(g.edgeLengthCm[piece.edge])
                piece.appendShape(g, lat: &lat, lon: &lon, skipFirst: !lat.isEmpty)
                let x = Int(piece.to)
                if junction[x] { break }
                let i = Int(first[x])
                let next = Int(incident[i]) == piece.edge ? Int(incident[i + 1]) : Int(incident[i])
                piece = OrientedEdge(g, next, startingAt: UInt32(x))
            }
            out.append(from: newIndex[start], to: newIndex[Int(piece.to)], first: firstPiece, last: piece, g: g,
                       lengthCm: lengthCm, lat: lat, lon: lon)
        }

        func addJunction(_ v: Int) {
            newIndex[v] = UInt32(out.nodeOsmId.count)
            out.nodeOsmId.append(g.nodeOsmId[v])
            out.nodeLatE7.append(g.nodeLatE7[v])
            out.nodeLonE7.append(g.nodeLonE7[v])
            out.nodeControl.append(g.nodeControl[v])
        }
        for v in 0..<n where junction[v] { addJunction(v) }
        for v in 0..<n where junction[v] {
            for i in Int(first[v])..<Int(first[v + 1]) where !visited[Int(incident[i])] {
                walk(from: v, edge: Int(incident[i]))
            }
        }
        // Junctions were added in the input's node order (OSM id order), loops' ones included.
        return out
    }
}

extension ChainCompression {
    /// A chain that would leave a junction and come back to it (a loop at the end of a road, a
    /// ring with no other road) would become an edge from a node to itself: the turn graph has no
    /// arc from such an edge onto itself, so a route on the loop could not reach a point behind
    /// its start. Such a chain keeps its middle node as a junction, and a ring of mergeable nodes
    /// with no junction at all keeps its lowest node and that one.
    static func keepLoopsApart(_ g: RoadGraph, first: [UInt32], incident: [UInt32], junction: inout [Bool]) {
        var seen = [Bool](repeating: false, count: g.edgeCount)
        var interior: [Int] = []
        func walk(from start: Int, edge: Int) {
            interior.removeAll(keepingCapacity: true)
            var e = edge, at = start
            while true {
                seen[e] = true
                let x = Int(g.edgeFrom[e]) == at ? Int(g.edgeTo[e]) : Int(g.edgeFrom[e])
                if junction[x] {
                    if x == start, !interior.isEmpty { junction[interior[interior.count / 2]] = true }
                    return
                }
                interior.append(x)
                let i = Int(first[x])
                e = Int(incident[i]) == e ? Int(incident[i + 1]) : Int(incident[i])
                at = x
            }
        }
        for v in 0..<g.nodeCount where junction[v] {
            for i in Int(first[v])..<Int(first[v + 1]) where !seen[Int(incident[i])] { walk(from: v, edge: Int(incident[i])) }
        }
        for e in 0..<g.edgeCount where !seen[e] {
            let v = Int(g.edgeFrom[e])
            junction[v] = true
            walk(from: v, edge: e)
        }
    }
}

/// An edge seen in a chosen direction.
struct OrientedEdge {
    let edge: Int
    let reversed: Bool
    let from: UInt32
    let to: UInt32

    init(_ g: RoadGraph, _ e: Int, startingAt v: UInt32) {
        edge = e
        reversed = g.edgeFrom[e] != v
        from = v
        to = reversed ? g.edgeFrom[e] : g.edgeTo[e]
    }

    init(_ g: RoadGraph, _ e: Int, endingAt v: UInt32) {
        edge = e
        reversed = g.edgeTo[e] != v
        to = v
        from = reversed ? g.edgeTo[e] : g.edgeFrom[e]
    }

    func flags(_ g: RoadGraph) -> UInt8 {
        let f = g.edgeFlags[edge]
        guard reversed else { return f }
        var r = f & ~(EdgeFlags.forward | EdgeFlags.backward | EdgeFlags.restrictedForward | EdgeFlags.restrictedBackward)
        if f & EdgeFlags.forward != 0 { r |= EdgeFlags.backward }
        if f & EdgeFlags.backward != 0 { r |= EdgeFlags.forward }
        if f & EdgeFlags.restrictedForward != 0 { r |= EdgeFlags.restrictedBackward }
        if f & EdgeFlags.restrictedBackward != 0 { r |= EdgeFlags.restrictedForward }
        return r
    }
    func speedForward(_ g: RoadGraph) -> UInt16 { reversed ? g.edgeSpeedBackward[edge] : g.edgeSpeedForward[edge] }
    func speedBackward(_ g: RoadGraph) -> UInt16 { reversed ? g.edgeSpeedForward[edge] : g.edgeSpeedBackward[edge] }
    func bearingStart(_ g: RoadGraph) -> UInt16 { reversed ? (g.edgeBearingEnd[edge] + 1800) % 3600 : g.edgeBearingStart[edge] }
    func bearingEnd(_ g: RoadGraph) -> UInt16 { reversed ? (g.edgeBearingStart[edge] + 1800) % 3600 : g.edgeBearingEnd[edge] }
    func wayAtStart(_ g: RoadGraph) -> Int64 { reversed ? g.edgeWayAtEnd[edge] : g.edgeWayAtStart[edge] }
    func wayAtEnd(_ g: RoadGraph) -> Int64 { reversed ? g.edgeWayAtStart[edge] : g.edgeWayAtEnd[edge] }

    /// Whether `next` carries on this edge with nothing a driver or a weight could tell apart.
    func continues(into next: OrientedEdge, _ g: RoadGraph) -> Bool {
        flags(g) == next.flags(g) && speedForward(g) == next.speedForward(g) && speedBackward(g) == next.speedBackward(g)
            && g.edgeRoadClass[edge] == g.edgeRoadClass[next.edge] && g.edgeName[edge] == g.edgeName[next.edge]
            && g.edgeRef[edge] == g.edgeRef[next.edge] && g.edgeAttributes[edge] == g.edgeAttributes[next.edge]
    }

    func appendShape(_ g: RoadGraph, lat: inout [Int32], lon: inout [Int32], skipFirst: Bool) {
        let r = g.shapeRange(edge)
        if reversed {
            for i in r.reversed().dropFirst(skipFirst ? 1 : 0) { lat.append(g.shapeLatE7[i]); lon.append(g.shapeLonE7[i]) }
        } else {
            for i in r.dropFirst(skipFirst ? 1 : 0) { lat.append(g.shapeLatE7[i]); lon.append(g.shapeLonE7[i]) }
        }
    }
}

extension RoadGraph {
    mutating func append(from: UInt32, to: UInt32, first: OrientedEdge, last: OrientedEdge, g: RoadGraph,
                         lengthCm: UInt64, lat: [Int32], lon: [Int32]) {
        edgeFrom.append(from)
        edgeTo.append(to)
        shapeLatE7.append(contentsOf: lat)
        shapeLonE7.append(contentsOf: lon)
        shapeFirst.append(UInt32(shapeLatE7.count))
        edgeLengthCm.append(UInt32(min(lengthCm, UInt64(UInt32.max))))
        edgeSpeedForward.append(first.speedForward(g))
        edgeSpeedBackward.append(first.speedBackward(g))
        edgeFlags.append(first.flags(g))
        edgeRoadClass.append(g.edgeRoadClass[first.edge])
        edgeAttributes.append(g.edgeAttributes[first.edge])
        edgeName.append(g.edgeName[first.edge])
        edgeRef.append(g.edgeRef[first.edge])
        edgeWayAtStart.append(first.wayAtStart(g))
        edgeWayAtEnd.append(last.wayAtEnd(g))
        edgeBearingStart.append(first.bearingStart(g))
        edgeBearingEnd.append(last.bearingEnd(g))
    }
}
