import TileMath

/// Content checks of a decoded tile, beyond the indexes the decoder checks while reading:
/// a CRC proves the bytes are the ones written, not that they make sense.
extension RoutingTile {
    /// The first rule the tile breaks, or nil. Linear in the tile.
    public func contentProblem() -> String? {
        guard let grid = try? RoutingGrid(degrees: gridDegrees) else { return "grid of \(gridDegrees)°" }
        guard Int(tileId) < grid.tileCount else { return "tile id \(tileId) outside the \(gridDegrees)° grid" }
        let sets = UInt32(tagSetCount)
        guard sets >= 1, tagSetFirst[1] == 0 else { return "tag set 0 is not empty" }
        for (i, n) in nodes.enumerated() {
            if n.tags >= sets { return "node \(i) has tag set \(n.tags) of \(sets)" }
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
            if e.tags >= sets { return "edge \(i) has tag set \(e.tags) of \(sets)" }
        }
        for i in shapeLatE7.indices {
            guard (-900_000_000...900_000_000).contains(shapeLatE7[i]), (-1_800_000_000...1_800_000_000).contains(shapeLonE7[i]) else {
                return "shape point \(i) at latitude \(Double(shapeLatE7[i]) * 1e-7), longitude \(Double(shapeLonE7[i]) * 1e-7)"
            }
        }
        if strings.first != "" { return "string 0 is not empty" }
        // A set's keys are distinct and sorted (by their text), so a set reads as one dictionary.
        for i in 0..<tagSetCount {
            let start = Int(tagSetFirst[i]), end = Int(tagSetFirst[i + 1])
            guard start <= end, end <= tagKeys.count else { return "tag set \(i) runs outside the pairs" }
            for k in start..<end where k > start && strings[Int(tagKeys[k - 1])] >= strings[Int(tagKeys[k])] { return "tag set \(i) keys not sorted" }
        }
        for (i, r) in restrictions.enumerated() {
            if r.tags >= sets { return "restriction \(i) has tag set \(r.tags) of \(sets)" }
            if r.members > RestrictionMembers.severalFrom | RestrictionMembers.severalTo { return "restriction \(i) has members \(r.members)" }
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
