import RoutingGraph
import TileMath

/// The edges an `Avoidance` removes, one bit per edge: those of an excluded class, and those
/// with a part inside a closure (found through the snapping grid's cells under the closure's
/// box, so a closure costs the roads near it, not the graph; and among the few edges the grid
/// leaves out, `RoutingData.edgesOffGrid`).
public struct ClosedEdges: Sendable {
    public private(set) var words: [UInt64]
    public private(set) var count = 0

    init(edgeCount: Int) { words = [UInt64](repeating: 0, count: (edgeCount + 63) / 64) }

    /// The edges `closing` names (tests, benchmarks).
    public init(edgeCount: Int, closing: (Int) -> Bool) {
        self.init(edgeCount: edgeCount)
        for e in 0..<edgeCount where closing(e) { insert(e) }
    }

    @inline(__always) public func contains(_ edge: Int) -> Bool { words[edge >> 6] & (1 << UInt64(edge & 63)) != 0 }

    @inline(__always) mutating func insert(_ edge: Int) {
        let bit: UInt64 = 1 << UInt64(edge & 63)
        if words[edge >> 6] & bit == 0 { words[edge >> 6] |= bit; count += 1 }
    }

    /// The edges of `data` the avoidance removes; `snapper` gives the grid (the caller's own).
    public init(_ avoidance: Avoidance, data: RoutingData, snapper: Snapper) {
        self.init(edgeCount: data.edgeCount)
        if !avoidance.classes.isEmpty {
            let groups = Array(avoidance.classes)
            for e in 0..<data.edgeCount {
                let record = data.edges[e]
                if groups.contains(where: { $0.contains(record) }) { insert(e) }
            }
        }
        guard !avoidance.closures.isEmpty else { return }
        let offGrid = data.edgesOffGrid()
        for closure in avoidance.closures {
            close(closure, snapper: snapper, shapes: data.shapes)
            // The roads the grid leaves out (ferries, private service roads), by their end points'
            // box first.
            let b = closure.bounds
            for e32 in offGrid {
                let e = Int(e32)
                guard !contains(e) else { continue }
                let p = data.shapes.nodes[Int(data.edges[e].from)], q = data.shapes.nodes[Int(data.edges[e].to)]
                // A long ferry may cross a closure with both ends outside: test its whole shape
                // unless its end points' box misses the closure's (a shape can bulge beyond it:
                // test every edge longer than 2 km whatever its ends).
                let west = Double(min(p.lonE7, q.lonE7)) * 1e-7, east = Double(max(p.lonE7, q.lonE7)) * 1e-7
                let south = Double(min(p.latE7, q.latE7)) * 1e-7, north = Double(max(p.latE7, q.latE7)) * 1e-7
                let far = east < b.west || west > b.east || north < b.south || south > b.north
                if far && data.edges[e].lengthCm < 200_000 { continue }
                if Self.edge(e, touches: closure, data.shapes) { insert(e) }
            }
        }
    }

    private mutating func close(_ closure: Closure, snapper g: Snapper, shapes: EdgeShapes) {
        let b = closure.bounds
        let c0 = max(0, Int(((b.west - g.gridMinLon) / g.cellDegrees).rounded(.down)))
        let c1 = min(g.columns - 1, Int(((b.east - g.gridMinLon) / g.cellDegrees).rounded(.down)))
        let r0 = max(0, Int(((b.south - g.gridMinLat) / g.cellDegrees).rounded(.down)))
        let r1 = min(g.rows - 1, Int(((b.north - g.gridMinLat) / g.cellDegrees).rounded(.down)))
        guard c0 <= c1, r0 <= r1 else { return }
        for row in r0...r1 {
            for column in c0...c1 {
                let cell = row * g.columns + column
                guard g.cells.hasEntries(cell) else { continue }
                for i in g.cells.entries(cell) {
                    let e = Int(g.cellEdges[i])
                    guard e < g.edgeCount, !contains(e) else { continue }
                    if Self.edge(e, touches: closure, shapes) { insert(e) }
                }
            }
        }
    }

    static func edge(_ e: Int, touches closure: Closure, _ shapes: EdgeShapes) -> Bool {
        let n = shapes.count(e)
        func point(_ k: Int) -> GeoPoint {
            let p = shapes.point(e, k)
            return GeoPoint(lon: Double(p.lonE7) * 1e-7, lat: Double(p.latE7) * 1e-7)
        }
        var a = point(0)
        for k in 1..<n {
            let b = point(k)
            if closure.touches(a, b) { return true }
            a = b
        }
        return false
    }
}
