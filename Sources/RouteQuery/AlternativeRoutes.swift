import RoutingGraph
import ContractionHierarchy

/// Alternative routes by the via-node method (as OSRM's): through an important node v near the
/// best route, the route s → v → t is a good alternative when it is at most `maxStretch` longer,
/// shares little with the routes already chosen, and does not loop. Distances to and from all
/// candidates come from two bucket (one-to-many) CH searches, so the cost is a few queries.
struct AlternativeRoutes {
    let data: RoutingData
    let search: LegSearch
    var maxStretch = 1.25
    var maxSharing = 0.75
    var candidateLimit = 400

    func find(_ count: Int, main: LegSearch.Leg, source: Phantom, target: Phantom) -> [LegSearch.Leg] {
        guard count > 0, main.ranks.count > 2 else { return [] }
        let candidates = candidateNodes(around: main)
        guard !candidates.isEmpty else { return [] }
        let (s, t, shift, _) = search.endpoints(source: source, target: target)
        let atVia: [[CHEndpoint]] = candidates.map { [(node: $0, offset: UInt32(0))] }
        let toVia: [UInt64?] = search.ch.table(sources: [s], targets: atVia)[0]
        let fromVia: [UInt64?] = search.ch.table(sources: atVia, targets: [t]).map { $0[0] }
        let best = Double(main.weight)
        var ranked: [(UInt64, Int)] = []
        for i in 0..<candidates.count {
            guard let a = toVia[i], let b = fromVia[i], a + b >= UInt64(shift) else { continue }
            let total = a + b - UInt64(shift)
            if Double(total) <= best * maxStretch && total > main.weight { ranked.append((total, i)) }
        }
        ranked.sort { ($0.0, $0.1) < ($1.0, $1.1) }
        var chosen: [LegSearch.Leg] = []
        var chosenEdges = [lengthByEdge(main)]
        // Candidates with the smallest detours mostly repeat the best route; look further down
        // the list, skipping those whose route was already tried.
        var tried = Set<UInt32>()
        for (total, i) in ranked.prefix(200) {
            let v = candidates[i]
            let via: [CHEndpoint] = [(node: v, offset: 0)]
            guard let (_, first) = search.ch.path(sources: s, targets: via),
                  let (_, second) = search.ch.path(sources: via, targets: t) else { continue }
            let ranks = first + second.dropFirst()
            guard Set(ranks).count == ranks.count else { continue }   // loops back on itself
            // Nodes of this path are via candidates giving the same route: skip them later.
            guard !tried.contains(v) else { continue }
            tried.formUnion(ranks)
            let leg = search.leg(ranks: Array(ranks), weight: total, source: source, target: target)
            let edges = lengthByEdge(leg)
            let length = edges.values.reduce(0, +)
            guard length > 0, chosenEdges.allSatisfy({ shared(edges, $0) / length <= maxSharing }) else { continue }
            chosen.append(leg)
            chosenEdges.append(edges)
            if chosen.count == count { break }
        }
        return chosen
    }

    /// Important nodes (high rank) on roads in the neighbourhood of the best route: the grid
    /// cells its edges pass through, widened by one ring.
    func candidateNodes(around leg: LegSearch.Leg) -> [UInt32] {
        let f = data.file
        let gridCells = GridCells(f)
        let cellEdges: UnsafeBufferPointer<UInt32> = f.array(.gridCellEdges)
        let columns = f.scalar(.gridColumns), rows = f.scalar(.gridRows), cell = f.scalar(.gridCellE7)
        let minLat = f.scalar(.gridMinLatE7), minLon = f.scalar(.gridMinLonE7)
        var cells = Set<Int>()
        for rank in leg.ranks {
            let e = Int(data.rankEdgeDirection[Int(rank)] >> 1)
            let p = data.shapes.point(e, 0)
            let row = (Int(p.latE7) - minLat) / cell, column = (Int(p.lonE7) - minLon) / cell
            for dr in -1...1 { for dc in -1...1 {
                let r = row + dr, c = column + dc
                if r >= 0, r < rows, c >= 0, c < columns { cells.insert(r * columns + c) }
            } }
        }
        let onRoute = Set(leg.ranks)
        var nodes = Set<UInt32>()
        for c in cells {
            for i in gridCells.entries(c) {
                let e = Int(cellEdges[i])
                for d in 0..<2 {
                    let r = data.edgeDirectionRank[2 * e + d]
                    if r != UInt32.max, !onRoute.contains(r), data.rankComponent[Int(r)] == 0 { nodes.insert(r) }
                }
            }
        }
        // Higher ranks are the roads many shortest paths use: the natural via points.
        return Array(nodes.sorted(by: >).prefix(candidateLimit))
    }

    func lengthByEdge(_ leg: LegSearch.Leg) -> [Int: Double] {
        var out: [Int: Double] = [:]
        for r in leg.ranks {
            let e = Int(data.rankEdgeDirection[Int(r)] >> 1)
            out[e] = Double(data.edges[e].lengthCm)
        }
        return out
    }

    func shared(_ a: [Int: Double], _ b: [Int: Double]) -> Double {
        a.reduce(0) { $0 + (b[$1.key] != nil ? $1.value : 0) }
    }
}
