/// A point in 1e-7 degrees, as the graph file stores coordinates (two i32, latitude first).
@frozen public struct E7Point: Equatable, Sendable {
    public var latE7: Int32
    public var lonE7: Int32

    @inlinable public init(latE7: Int32, lonE7: Int32) {
        self.latE7 = latE7
        self.lonE7 = lonE7
    }
}

/// Edge shapes as the graph file stores them (since version 4): every edge's shape starts at
/// its `from` node and ends at its `to` node, so the shape sections hold only the points in
/// between, and the ends are read from the node arrays. Storing the ends too repeated two
/// points per edge (19 MB, 3.8 bytes per OSM node, at ~5 M nodes), room the core table uses.
///
/// Point k of edge e, 0 ..< `count(e)`: 0 is the `from` node, `count(e) - 1` the `to` node.
public struct EdgeShapes {
    public let edges: UnsafeBufferPointer<EdgeRecord>
    public let nodes: UnsafeBufferPointer<E7Point>
    /// The points between the ends, edge after edge: edge e's are
    /// `edges[e].shapeFirst ..< edges[e + 1].shapeFirst`.
    public let inner: UnsafeBufferPointer<E7Point>

    /// Over an opened file's sections (which its open-time checks have bounded).
    public init(_ file: GraphFile) {
        edges = file.edges
        nodes = file.records(.nodePoints)
        inner = file.records(.shapePoints)
    }

    /// Points of edge e, both ends included: two or more.
    @inlinable @inline(__always) public func count(_ e: Int) -> Int {
        Int(edges[e + 1].shapeFirst) - Int(edges[e].shapeFirst) + 2
    }

    @inlinable @inline(__always) public func point(_ e: Int, _ k: Int) -> E7Point { address(e, k).pointee }

    /// Where point k of edge e is stored: in `nodes` for the ends, in `inner` between them.
    /// (Prefetches ask for it; `point` reads through it.)
    @inlinable @inline(__always) public func address(_ e: Int, _ k: Int) -> UnsafePointer<E7Point> {
        if k == 0 { return nodes.baseAddress! + Int(edges[e].from) }
        let i = Int(edges[e].shapeFirst) + k - 1
        if i == Int(edges[e + 1].shapeFirst) { return nodes.baseAddress! + Int(edges[e].to) }
        return inner.baseAddress! + i
    }

    /// Point k of edge e counted in travel direction d (0 along the shape, 1 against it).
    @inlinable @inline(__always) public func point(_ e: Int, _ k: Int, direction d: Int) -> E7Point {
        point(e, d == 0 ? k : count(e) - 1 - k)
    }

    /// Edge e's points in travel direction d, each passed to `body`; the first left out when
    /// `skippingFirst`. One pass: no per-point test for which end it is.
    @inlinable @inline(__always) public func forEachPoint(_ e: Int, direction d: Int, skippingFirst: Bool, _ body: (E7Point) -> Void) {
        let record = edges[e], inner = Int(record.shapeFirst)..<Int(edges[e + 1].shapeFirst)
        if !skippingFirst { body(node(Int(d == 0 ? record.from : record.to))) }
        if d == 0 {
            for i in inner { body(self.inner[i]) }
        } else {
            for i in inner.reversed() { body(self.inner[i]) }
        }
        body(node(Int(d == 0 ? record.to : record.from)))
    }

    /// The first segment of edge e driven in direction d (its start, and the point after it) and
    /// the last (the point before its end, and its end): `point(e, k, direction:)` for the two
    /// points at one end, with the tests for which end and which way made once.
    @inlinable @inline(__always) public func startSegment(_ e: Int, direction d: Int) -> (E7Point, E7Point) {
        let record = edges[e], first = Int(record.shapeFirst), end = Int(edges[e + 1].shapeFirst)
        if d == 0 { return (nodes[Int(record.from)], end > first ? inner[first] : nodes[Int(record.to)]) }
        return (nodes[Int(record.to)], end > first ? inner[end - 1] : nodes[Int(record.from)])
    }

    @inlinable @inline(__always) public func endSegment(_ e: Int, direction d: Int) -> (E7Point, E7Point) {
        let record = edges[e], first = Int(record.shapeFirst), end = Int(edges[e + 1].shapeFirst)
        if d == 0 { return (end > first ? inner[end - 1] : nodes[Int(record.from)], nodes[Int(record.to)]) }
        return (end > first ? inner[first] : nodes[Int(record.to)], nodes[Int(record.from)])
    }

    @inlinable @inline(__always) public func node(_ v: Int) -> E7Point { nodes[v] }
}

extension RoadGraph {
    /// Whether edge e's shape has two or more points and starts and ends at its nodes, as the
    /// graph file's shapes must (it stores only the points in between).
    func shapeRunsBetweenItsNodes(_ e: Int) -> Bool {
        let r = shapeRange(e), from = Int(edgeFrom[e]), to = Int(edgeTo[e])
        return r.count >= 2
            && shapeLatE7[r.lowerBound] == nodeLatE7[from] && shapeLonE7[r.lowerBound] == nodeLonE7[from]
            && shapeLatE7[r.upperBound - 1] == nodeLatE7[to] && shapeLonE7[r.upperBound - 1] == nodeLonE7[to]
    }

    /// The shapes without their end points, as the graph file stores them: per edge, the first
    /// inner point (and the total after the last edge), and the inner points. Every edge's shape
    /// must run between its nodes (`GraphBuild` checks the tiles' edges, and merging chains keeps it).
    func innerShapes() -> (first: [UInt32], points: [E7Point]) {
        var first: [UInt32] = []
        first.reserveCapacity(edgeCount + 1)
        var points: [E7Point] = []
        points.reserveCapacity(max(0, shapeLatE7.count - 2 * edgeCount))
        for e in 0..<edgeCount {
            precondition(shapeRunsBetweenItsNodes(e), "edge \(e)'s shape does not run from its from node to its to node")
            let r = shapeRange(e)
            first.append(UInt32(points.count))
            for i in (r.lowerBound + 1)..<(r.upperBound - 1) { points.append(E7Point(latE7: shapeLatE7[i], lonE7: shapeLonE7[i])) }
        }
        first.append(UInt32(points.count))
        return (first, points)
    }

    /// The nodes' coordinates as the graph file stores them.
    func nodePoints() -> [E7Point] { (0..<nodeCount).map { E7Point(latE7: nodeLatE7[$0], lonE7: nodeLonE7[$0]) } }
}
