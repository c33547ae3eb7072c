import RoutingGraph
import CustomizableHierarchy

// What map matching (the MapMatching module) shares of routing: the turns out of an
// edge-based node without building the plain graph, a leg along a path it found itself, and
// a route assembled from legs exactly as the route service assembles one.

extension RoutingData {
    /// `body(head)` for every turn out of edge-based node `r` (heads of the hierarchy's real arcs
    /// from it, copies for via-way restrictions included), in no particular order and without
    /// allocating: `turns(from:)` without the weights, for searches that run per GPS fix.
    @inline(__always) public func forEachTurn(from r: UInt32, _ body: (UInt32) -> Void) {
        let direction = Int(rankEdgeDirection[Int(r)])
        let junction = endNode(direction >> 1, direction & 1)
        guard junction < nodeCount else { return }
        for i in ends(of: junction) {
            forEachCopy(ofEdgeDirection: nodeEnds[i]) { c in
                if ch.hasOriginalArc(from: r, to: c) { body(c) }
            }
            let x = edgeDirectionRank[Int(nodeEnds[i])]
            guard x != UInt32.max, ch.hasOriginalArc(from: r, to: x) else { continue }
            body(x)
        }
    }

    /// Where edge-based node `r`'s road piece ends: the junction a search leaves it through.
    @inline(__always) public func rankEnd(_ r: UInt32) -> E7Point {
        let direction = Int(rankEdgeDirection[Int(r)])
        return shapes.node(endNode(direction >> 1, direction & 1))
    }

    /// The length of edge-based node `r`'s edge, centimetres.
    @inline(__always) public func rankLengthCm(_ r: UInt32) -> UInt32 {
        edges[Int(rankEdgeDirection[Int(r)] >> 1)].lengthCm
    }
}

extension Phantom {
    /// The same point usable only in travel direction `d` (0 along the shape): a matched fix is
    /// a position *and* the direction the vehicle drove there.
    public func only(direction d: Int) -> Phantom { leaving(inDirection: d) }

    /// Share of the edge before the point in travel direction `d` (0 along the shape).
    public func share(direction d: Int) -> Double { position(d) }
}

extension LegSearch {
    /// The leg along `ranks` (a path found by another search, first rank on `source`'s edge,
    /// last on `target`'s), with the time on each rank and their sum as its weight.
    public func leg(alongRanks ranks: [UInt32], source: Phantom, target: Phantom) -> Leg {
        var made = leg(ranks: ranks, weight: 0, source: source, target: target)
        made.weight = UInt64(max(0, made.times.reduce(0, +)).rounded())
        return made
    }
}

extension RouteService {
    /// A route through `phantoms` along `legs` (one fewer), as `routes` assembles one: steps,
    /// annotations, overview and geometry as `request` asks (its coordinates are not read but
    /// for voice instructions' waypoint names).
    public func route(legs: [LegSearch.Leg], phantoms: [Phantom], request: RouteRequest) -> Route {
        RouteAssembly(data: data, steps: steps, request: request).route(legs: legs, phantoms: phantoms)
    }

    /// The response's waypoint for a snapped point: its location, road name and distance.
    public func snappedWaypoint(_ p: Phantom) -> Waypoint { waypoint(p) }

    /// The snapper this service uses (one per thread, as the service).
    public var snapping: Snapper { snapper }

    /// The leg search this service uses.
    public var legSearch: LegSearch { search }
}
