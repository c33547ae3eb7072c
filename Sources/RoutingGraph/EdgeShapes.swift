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
/// Since version 7 an inner point is one word, its offsets from the edge's `from` node as two
/// i16 (`EdgeRecord.offsetShape`), on every edge whose inner points all lie within ±32,767 ×
/// 1e-7° of it (~360 m north-south; 98 % of the edges and 88 % of the points of the bench
/// extracts), else two, its coordinates (`EdgeRecord.pointShape`): 14 MB less at ~5 M OSM
/// nodes, which the core table uses. Every point stays exact, and any one is read without
/// the others.
///
/// Point k of edge e, 0 ..< `count(e)`: 0 is the `from` node, `count(e) - 1` the `to` node.
public struct EdgeShapes {
    public let edges: UnsafeBufferPointer<EdgeRecord>
    public let nodes: UnsafeBufferPointer<E7Point>
    /// The inner points' words, edge after edge: edge e's are
    /// `edges[e].shapeFirst ..< edges[e + 1].shapeFirst`, in its `shapeEncoding`.
    public let words: UnsafeBufferPointer<UInt32>

    /// Over an opened file's sections (which its open-time checks have bounded).
    public init(_ file: GraphFile) {
        edges = file.edges
        nodes = file.records(.nodePoints)
        words = file.array(.shapeWords)
    }

    /// Points of edge e, both ends included: two or more.
    @inlinable @inline(__always) public func count(_ e: Int) -> Int {
        let r = edges[e], n = Int(edges[e + 1].shapeFirst) - Int(r.shapeFirst)
        return (r.shapeEncoding == EdgeRecord.offsetShape ? n : n >> 1) + 2
    }

    @inlinable @inline(__always) public func point(_ e: Int, _ k: Int) -> E7Point {
        let r = edges[e]
        if k == 0 { return nodes[Int(r.from)] }
        if k == count(e) - 1 { return nodes[Int(r.to)] }
        return inner(r, k - 1)
    }

    /// Inner point j (0 is the one after the `from` node) of the edge with record `r`.
    @inlinable @inline(__always) public func inner(_ r: EdgeRecord, _ j: Int) -> E7Point {
        let word = words.baseAddress.unsafelyUnwrapped + Int(r.shapeFirst)
        if r.shapeEncoding == EdgeRecord.offsetShape {
            let w = word[j], from = nodes[Int(r.from)]
            return E7Point(latE7: from.latE7 &+ Int32(Int16(truncatingIfNeeded: w)),
                           lonE7: from.lonE7 &+ Int32(Int16(truncatingIfNeeded: w >> 16)))
        }
        return UnsafeRawPointer(word + 2 * j).load(as: E7Point.self)
    }

    /// Where point k of edge e is stored: in `nodes` for the ends, in `words` between them.
    /// (Prefetches ask for it.)
    @inlinable @inline(__always) public func address(_ e: Int, _ k: Int) -> UnsafeRawPointer {
        let r = edges[e]
        if k == 0 { return UnsafeRawPointer(nodes.baseAddress.unsafelyUnwrapped + Int(r.from)) }
        if k == count(e) - 1 { return UnsafeRawPointer(nodes.baseAddress.unsafelyUnwrapped + Int(r.to)) }
        let perPoint = r.shapeEncoding == EdgeRecord.offsetShape ? 1 : 2
        return UnsafeRawPointer(words.baseAddress.unsafelyUnwrapped + Int(r.shapeFirst) + perPoint * (k - 1))
    }

    /// Point k of edge e counted in travel direction d (0 along the shape, 1 against it).
    @inlinable @inline(__always) public func point(_ e: Int, _ k: Int, direction d: Int) -> E7Point {
        point(e, d == 0 ? k : count(e) - 1 - k)
    }

    /// Edge e's points in travel direction d, each passed to `body`; the first left out when
    /// `skippingFirst`. One pass: no per-point test for which end it is.
    @inlinable @inline(__always) public func forEachPoint(_ e: Int, direction d: Int, skippingFirst: Bool, _ body: (E7Point) -> Void) {
        let record = edges[e]
        if !skippingFirst { body(node(Int(d == 0 ? record.from : record.to))) }
        if d == 0 {
            forEachInner(e, body)
        } else {
            for j in (0..<(count(e) - 2)).reversed() { body(inner(record, j)) }
        }
        body(node(Int(d == 0 ? record.to : record.from)))
    }

    /// The first segment of edge e driven in direction d (its start, and the point after it) and
    /// the last (the point before its end, and its end): `point(e, k, direction:)` for the two
    /// points at one end, with the tests for which end and which way made once.
    @inlinable @inline(__always) public func startSegment(_ e: Int, direction d: Int) -> (E7Point, E7Point) {
        let record = edges[e], n = count(e) - 2
        if d == 0 { return (nodes[Int(record.from)], n > 0 ? inner(record, 0) : nodes[Int(record.to)]) }
        return (nodes[Int(record.to)], n > 0 ? inner(record, n - 1) : nodes[Int(record.from)])
    }

    @inlinable @inline(__always) public func endSegment(_ e: Int, direction d: Int) -> (E7Point, E7Point) {
        let record = edges[e], n = count(e) - 2
        if d == 0 { return (n > 0 ? inner(record, n - 1) : nodes[Int(record.from)], nodes[Int(record.to)]) }
        return (n > 0 ? inner(record, 0) : nodes[Int(record.to)], nodes[Int(record.from)])
    }

    @inlinable @inline(__always) public func node(_ v: Int) -> E7Point { nodes[v] }

    /// Edge e's inner points, in order along the shape.
    @inlinable @inline(__always) public func forEachInner(_ e: Int, _ body: (E7Point) -> Void) {
        let record = edges[e]
        for j in 0..<(count(e) - 2) { body(inner(record, j)) }
    }
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

    /// The shapes without their end points, as the graph file stores them (`EdgeShapes`).
    /// Every edge's shape must run between its nodes (`GraphBuild` checks the tiles' edges, and
    /// merging chains keeps it).
    func innerShapes() -> InnerShapes {
        var out = InnerShapes()
        out.first.reserveCapacity(edgeCount + 1)
        out.encoding.reserveCapacity(edgeCount)
        out.words.reserveCapacity(max(0, shapeLatE7.count - 2 * edgeCount))
        for e in 0..<edgeCount {
            precondition(shapeRunsBetweenItsNodes(e), "edge \(e)'s shape does not run from its from node to its to node")
            let r = shapeRange(e), inner = (r.lowerBound + 1)..<(r.upperBound - 1), from = Int(edgeFrom[e])
            out.first.append(UInt32(out.words.count))
            let offsets = inner.lazy.map { (Int(self.shapeLatE7[$0]) - Int(self.nodeLatE7[from]), Int(self.shapeLonE7[$0]) - Int(self.nodeLonE7[from])) }
            if offsets.allSatisfy({ Int16(exactly: $0.0) != nil && Int16(exactly: $0.1) != nil }) {
                out.encoding.append(EdgeRecord.offsetShape)
                for (lat, lon) in offsets { out.words.append(UInt32(UInt16(bitPattern: Int16(lat))) | UInt32(UInt16(bitPattern: Int16(lon))) << 16) }
            } else {
                out.encoding.append(EdgeRecord.pointShape)
                for i in inner {
                    out.words.append(UInt32(bitPattern: shapeLatE7[i]))
                    out.words.append(UInt32(bitPattern: shapeLonE7[i]))
                }
            }
        }
        out.first.append(UInt32(out.words.count))
        return out
    }

    /// The nodes' coordinates as the graph file stores them.
    func nodePoints() -> [E7Point] { (0..<nodeCount).map { E7Point(latE7: nodeLatE7[$0], lonE7: nodeLonE7[$0]) } }
}

/// The inner shape points as the graph file stores them: per edge, its first word (and the
/// total after the last edge) and its `EdgeRecord` shape encoding, and the words.
struct InnerShapes {
    var first: [UInt32] = []
    var encoding: [UInt8] = []
    var words: [UInt32] = []
}
