import RoutingProfile
import TileMath

/// Content checks of a decoded tile, beyond the indexes the decoder checks while reading:
/// a CRC proves the bytes are the ones written, not that they make sense.
extension RoutingTile {
    /// The first rule the tile breaks, or nil. Linear in the tile.
    public func contentProblem() -> String? {
        guard let grid = try? RoutingGrid(degrees: gridDegrees) else { return "grid of \(gridDegrees)°" }
        guard Int(tileId) < grid.tileCount else { return "tile id \(tileId) outside the \(gridDegrees)° grid" }
        for (i, n) in nodes.enumerated() {
            guard (-900_000_000...900_000_000).contains(n.latE7), (-1_800_000_000...1_800_000_000).contains(n.lonE7) else {
                return "node \(i) at latitude \(Double(n.latE7) * 1e-7), longitude \(Double(n.lonE7) * 1e-7)"
            }
            // Nodes are sorted by OSM id (lookups binary-search them) and lie in the tile's cell.
            if i > 0 && nodes[i - 1].osmId >= n.osmId { return "nodes not sorted by OSM id at \(i)" }
            // (Divided as the cutter divides, so a node on a cell edge lands in the same cell.)
            if grid.tileId(lon: Double(n.lonE7) / 1e7, lat: Double(n.latE7) / 1e7) != tileId { return "node \(i) lies outside the tile" }
        }
        for (i, e) in edges.enumerated() {
            if i > 0 && edges[i - 1].fromNode > e.fromNode { return "edges not sorted by start node at \(i)" }
            if e.bearingStartDeci >= 3600 || e.bearingEndDeci >= 3600 { return "edge \(i) has a bearing past 360°" }
            if e.flags & (EdgeFlags.forward | EdgeFlags.backward) == 0 { return "edge \(i) is drivable in no direction" }
        }
        for i in shapeLatE7.indices {
            guard (-900_000_000...900_000_000).contains(shapeLatE7[i]), (-1_800_000_000...1_800_000_000).contains(shapeLonE7[i]) else {
                return "shape point \(i) at latitude \(Double(shapeLatE7[i]) * 1e-7), longitude \(Double(shapeLonE7[i]) * 1e-7)"
            }
        }
        if strings.first != "" { return "string 0 is not empty" }
        for (i, r) in restrictions.enumerated() {
            if RestrictionKind(rawValue: r.code) == nil { return "restriction \(i) has unknown code \(r.code)" }
            if i > 0 && RoutingTile.Restriction.precedes(r, restrictions[i - 1]) { return "restrictions not sorted at \(i)" }
            // Stored in the tile of its first node (nodes are sorted by id, checked above).
            var lo = 0, hi = nodes.count
            while lo < hi {
                let mid = (lo + hi) >> 1
                if nodes[mid].osmId < r.nodeOsmIds[0] { lo = mid + 1 } else { hi = mid }
            }
            if lo == nodes.count || nodes[lo].osmId != r.nodeOsmIds[0] { return "restriction \(i) turns at node \(r.nodeOsmIds[0]), not in the tile" }
        }
        return nil
    }
}
