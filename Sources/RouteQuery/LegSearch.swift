import ContractionHierarchy
import CustomizableHierarchy

/// The shortest drive between two phantoms, on the CH or with plain Dijkstra, as a sequence of
/// edge-based nodes with the exact time (deciseconds) spent on each.
///
/// Times on the first and last edge are the share of the edge actually driven. The search
/// adds a source's remaining share as its start offset; a target's unused share is taken off
/// by giving every target the offset `C + used − whole` (C the largest whole-edge time among
/// them, so no offset is negative) and subtracting C from the result.
public struct LegSearch {
    public enum Algorithm: String, CaseIterable, Sendable { case ch, dijkstra }

    let data: RoutingData
    let ch: CHQuery
    /// A metric without some roads (exclusions, closures) searched instead of the hierarchy, when set.
    public let avoiding: AvoidanceMetric?
    /// Its search state.
    let customized: CCHQuery?
    /// Plain Dijkstra over the turn graph, made on first use (`--algorithm dijkstra`).
    private let dijkstraBox = DijkstraBox()

    public init(data: RoutingData, avoiding: AvoidanceMetric? = nil) {
        self.data = data
        self.avoiding = avoiding
        customized = avoiding?.query()
        ch = CHQuery(graph: data.ch)
        ch.pathRankData = data.rankEdgeDirection
    }

    var dijkstra: DijkstraQuery {
        if let q = dijkstraBox.query { return q }
        let q = DijkstraQuery(data.plainGraph())
        dijkstraBox.query = q
        return q
    }

    final class DijkstraBox { var query: DijkstraQuery? }

    public struct Leg {
        /// Edge-based nodes driven, in order.
        public var ranks: [UInt32]
        /// Deciseconds spent on each of them (turn costs included in the node turned onto).
        public var times: [Double]
        public var weight: UInt64
        /// Direction of travel on the first and last edge.
        public var sourceDirection: Int
        public var targetDirection: Int
    }

    @inline(__always) func partial(_ rank: UInt32, _ share: Double) -> UInt32 {
        UInt32((Double(data.rankWeight(rank)) * share).rounded())
    }

    /// A point as a search source: each usable direction, offset by what is left of its edge.
    func sourceEndpoints(_ source: Phantom) -> [CHEndpoint] {
        var sources: [CHEndpoint] = []
        sources.reserveCapacity(2)
        source.forEachDirection { d, r in sources.append((r, partial(r, 1 - source.position(d)))) }
        return sources
    }

    /// A point as a search target: each usable direction, offset by the part of its edge up to
    /// the point minus the edge's whole weight (which the search counts on arriving), plus
    /// `shift`, the largest such weight, so that no offset is negative; answers subtract it.
    /// A direction copied for a via-way restriction is a target in its copies too: a point on
    /// the via way is reached along the restriction's path as well (OSRM's "snap to via way").
    func targetEndpoints(_ target: Phantom) -> (targets: [CHEndpoint], shift: UInt32) {
        var shift: UInt32 = 0
        target.forEachDirection { _, r in shift = max(shift, data.rankWeight(r)) }
        var targets: [CHEndpoint] = []
        targets.reserveCapacity(2)
        target.forEachDirection { d, r in
            let offset = shift + partial(r, target.position(d)) - data.rankWeight(r)
            targets.append((r, offset))
            data.forEachCopy(ofEdgeDirection: UInt32(2 * target.edge + d)) { targets.append(($0, offset)) }
        }
        return (targets, shift)
    }

    func endpoints(source: Phantom, target: Phantom) -> (sources: [CHEndpoint], targets: [CHEndpoint], shift: UInt32, expanded: UInt32?) {
        var sources = sourceEndpoints(source)
        let (targets, shift) = targetEndpoints(target)
        // On the same edge direction with the target behind the source, the search must leave
        // the edge and come back: start from the turns out of it instead.
        var expanded: UInt32?
        source.forEachDirection { d, r in
            guard target.direction(of: r) == d, target.position(d) < source.position(d) else { return }
            expanded = r
            let offset = partial(r, 1 - source.position(d))
            sources.removeAll { $0.node == r }
            for turn in avoiding?.turns(from: r) ?? data.turns(from: r) {
                sources.append((turn.head, offset + turn.weight))
            }
        }
        return (sources, targets, shift, expanded)
    }

    /// The weight only (deciseconds), or nil when there is no route.
    public func weight(from source: Phantom, to target: Phantom, algorithm: Algorithm = .ch) -> UInt64? {
        let (s, t, shift, _) = endpoints(source: source, target: target)
        guard !s.isEmpty, !t.isEmpty else { return nil }
        let d = if let customized { customized.distance(sources: s, targets: t) }
                else if algorithm == .ch { ch.distance(sources: s, targets: t) } else { dijkstra.distance(sources: s, targets: t) }
        return d.map { $0 - UInt64(shift) }
    }

    /// The route: which edge-based nodes, and the time on each.
    public func leg(from source: Phantom, to target: Phantom, algorithm: Algorithm = .ch) -> Leg? {
        let (s, t, shift, expanded) = endpoints(source: source, target: target)
        guard !s.isEmpty, !t.isEmpty else { return nil }
        var ranks: [UInt32], total: UInt64, arcWeights: [UInt32]?
        if let customized {
            guard let found = customized.path(sources: s, targets: t) else { return nil }
            (total, ranks, arcWeights) = (found.distance, found.nodes, nil)
        } else if algorithm == .ch {
            guard let found = ch.pathWithArcWeights(sources: s, targets: t) else { return nil }
            (total, ranks, arcWeights) = (found.distance, found.nodes, found.arcWeights)
        } else {
            guard let found = dijkstra.path(sources: s, targets: t) else { return nil }
            (total, ranks, arcWeights) = (found.distance, found.nodes, nil)
        }
        // A path started from the turns out of the source edge: put the source edge back in front.
        if let r = expanded, source.direction(of: ranks[0]) == nil {
            ranks.insert(r, at: 0)
            arcWeights?.insert(data.ch.originalArcWeight(from: r, to: ranks[1]) ?? 0, at: 0)   // (nil arcWeights when avoiding)
        }
        return leg(ranks: ranks, weight: total - UInt64(shift), source: source, target: target, arcWeights: arcWeights)
    }

    /// The weight of `leg(from:to:)`'s leg and its span for `data.rankLength` (so its metres),
    /// from the search without unpacking the path (CH only); nil when there is no route, a nil
    /// span when the lengths cannot be summed (then unpack: `leg`).
    public func span(from source: Phantom, to target: Phantom) -> (weight: UInt64, span: CHPathSpan?)? {
        if customized != nil {
            // No spans on a customized metric: the caller unpacks (`leg`).
            return weight(from: source, to: target).map { ($0, nil) }
        }
        let (s, t, shift, expanded) = endpoints(source: source, target: target)
        guard !s.isEmpty, !t.isEmpty else { return nil }
        guard let (total, found) = ch.pathSpan(sources: s, targets: t, metric: data.rankLength) else { return nil }
        guard var span = found else { return (total - UInt64(shift), nil) }
        // Started from the turns out of the source edge: the source edge comes first, as in `leg`.
        if let r = expanded, source.direction(of: span.first) == nil {
            span.length += UInt64(data.rankLength.value(span.first))
            span.first = r
            span.isSingleNode = false
        }
        return (total - UInt64(shift), span)
    }

    /// A leg along given edge-based nodes (a found path), with the time spent on each.
    /// `arcWeights[i]`, when given, is the weight of the arc into `ranks[i + 1]` (else looked up).
    func leg(ranks: [UInt32], weight: UInt64, source: Phantom, target: Phantom, arcWeights: [UInt32]? = nil) -> Leg {
        let sourceDirection = source.direction(of: ranks[0]) ?? 0
        let targetDirection = data.direction(of: ranks[ranks.count - 1], on: target) ?? 0
        var times: [Double] = []
        if ranks.count == 1 {
            let r = ranks[0]
            times = [Double(data.rankWeight(r)) * (target.position(targetDirection) - source.position(sourceDirection))]
        } else {
            times.append(Double(partial(ranks[0], 1 - source.position(sourceDirection))))
            for i in 1..<ranks.count {
                var turn = arcWeights.map { Double($0[i - 1]) } ?? arcWeight(ranks[i - 1], ranks[i])
                if i == ranks.count - 1 {
                    let r = ranks[i]
                    turn = turn - Double(data.rankWeight(r)) + Double(partial(r, target.position(targetDirection)))
                }
                times.append(turn)
            }
        }
        return Leg(ranks: ranks, times: times, weight: weight, sourceDirection: sourceDirection, targetDirection: targetDirection)
    }

    /// Weight of the turn a → b (a real arc of the hierarchy, or any allowed turn of the
    /// avoidance metric: a path there may take a turn the hierarchy replaced).
    func arcWeight(_ a: UInt32, _ b: UInt32) -> Double {
        if let avoiding { return Double(avoiding.turnWeight(from: a, to: b) ?? 0) }
        return Double(data.ch.originalArcWeight(from: a, to: b) ?? 0)
    }
}
