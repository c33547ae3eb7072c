import RoutingTiles
/// A uniform lon/lat grid over the network's extent listing, for every cell, the edges with a
/// shape segment whose bounding box reaches into it: what snapping searches, ring by ring
/// around a point, to find the nearest point on a road.
public struct SegmentGrid {
    public var minLatE7: Int32 = 0
    public var minLonE7: Int32 = 0
    /// Cell edge in 1e-7 degrees (square in degrees).
    public var cellE7: Int32 = 50_000
    public var columns: Int32 = 1
    public var rows: Int32 = 1
    /// CSR: the edges of cell `row * columns + column`.
    public var cellFirst: [UInt32] = [0, 0]
    public var cellEdges: [UInt32] = []
    /// Per `cellEdges` entry, where in its cell the edge can be (`CellEdgeBox`).
    public var cellEdgeBox: [UInt16] = []

    public init() {}

    public init(_ g: RoadGraph) {
        guard g.edgeCount > 0, let minLat = g.shapeLatE7.min(), let maxLat = g.shapeLatE7.max(),
              let minLon = g.shapeLonE7.min(), let maxLon = g.shapeLonE7.max() else { return }
        minLatE7 = minLat
        minLonE7 = minLon
        // 0.0025° cells (about 280 m north–south), coarser while there would be more than two
        // cells per edge (extents with wide empty areas): the index stays under ~10 bytes per
        // edge. A snap tests every edge of the cells it visits, so the cell size sets its cost:
        // on the ~1 M-node bench extract, 0.01° → 0.005° cells took a snap from 9.7 to 4.1 µs.
        var cell: Int64 = 25_000
        let latSpan = Int64(maxLat) - Int64(minLat), lonSpan = Int64(maxLon) - Int64(minLon)
        while (latSpan / cell + 1) * (lonSpan / cell + 1) > max(4096, 2 * Int64(g.edgeCount)) { cell *= 2 }
        cellE7 = Int32(cell)
        rows = Int32(latSpan / cell + 1)
        columns = Int32(lonSpan / cell + 1)

        // (cell, edge) pairs, each once per edge, with the entry's `CellEdgeBox`: the bounding
        // box of the edge's segments that reach into the cell, clipped to it. A nearest point of
        // the edge outside the cell lies in another cell that lists the edge too, so the clipped
        // box bounds what this entry can offer.
        var pairs: [(key: UInt64, box: UInt16)] = []
        pairs.reserveCapacity(g.shapeLatE7.count + g.edgeCount)
        // Per segment and cell it reaches: the cell, and the segment's box clipped to it.
        var cellsOfEdge: [(cell: UInt32, latLo: Int64, latHi: Int64, lonLo: Int64, lonHi: Int64)] = []
        // Edges routes may not start or end on (ferries, private service roads) are left out:
        // waypoints snap to the roads around them.
        for e in 0..<g.edgeCount where g.edgeFlags[e] & EdgeFlags.notStartpoint == 0 {
            cellsOfEdge.removeAll(keepingCapacity: true)
            let r = g.shapeRange(e)
            for i in r.lowerBound..<(r.upperBound - 1) {
                let aLat = Int64(g.shapeLatE7[i]), bLat = Int64(g.shapeLatE7[i + 1])
                let aLon = Int64(g.shapeLonE7[i]), bLon = Int64(g.shapeLonE7[i + 1])
                let r0 = row(g.shapeLatE7[i]), r1 = row(g.shapeLatE7[i + 1])
                let c0 = column(g.shapeLonE7[i]), c1 = column(g.shapeLonE7[i + 1])
                for rr in min(r0, r1)...max(r0, r1) {
                    let south = Int64(minLatE7) + Int64(rr) * cell
                    for cc in min(c0, c1)...max(c0, c1) {
                        let west = Int64(minLonE7) + Int64(cc) * cell
                        cellsOfEdge.append((UInt32(rr * columns + cc),
                                            max(min(aLat, bLat), south), min(max(aLat, bLat), south + cell - 1),
                                            max(min(aLon, bLon), west), min(max(aLon, bLon), west + cell - 1)))
                    }
                }
            }
            cellsOfEdge.sort { $0.cell < $1.cell }
            var k = 0
            while k < cellsOfEdge.count {
                var merged = cellsOfEdge[k]
                k += 1
                while k < cellsOfEdge.count && cellsOfEdge[k].cell == merged.cell {
                    let next = cellsOfEdge[k]
                    merged = (merged.cell, min(merged.latLo, next.latLo), max(merged.latHi, next.latHi),
                              min(merged.lonLo, next.lonLo), max(merged.lonHi, next.lonHi))
                    k += 1
                }
                let c = Int(merged.cell), columns = Int(columns)
                let box = CellEdgeBox.packed(latE7: merged.latLo...merged.latHi, lonE7: merged.lonLo...merged.lonHi,
                                             south: Int64(minLatE7) + Int64(c / columns) * cell,
                                             west: Int64(minLonE7) + Int64(c % columns) * cell, cellE7: cell)
                pairs.append((UInt64(merged.cell) << 32 | UInt64(e), box))
            }
        }
        pairs.sort { $0.key < $1.key }
        let cellCount = Int(rows) * Int(columns)
        cellFirst = [UInt32](repeating: 0, count: cellCount + 1)
        cellEdges = pairs.map { UInt32(truncatingIfNeeded: $0.key) }
        cellEdgeBox = pairs.map(\.box)
        for p in pairs { cellFirst[Int(p.key >> 32) + 1] += 1 }
        for c in 0..<cellCount { cellFirst[c + 1] += cellFirst[c] }
    }

    @inline(__always) public func row(_ latE7: Int32) -> Int32 {
        Int32(max(0, min(Int64(rows) - 1, (Int64(latE7) - Int64(minLatE7)) / Int64(cellE7))))
    }

    @inline(__always) public func column(_ lonE7: Int32) -> Int32 {
        Int32(max(0, min(Int64(columns) - 1, (Int64(lonE7) - Int64(minLonE7)) / Int64(cellE7))))
    }
}
