extension CHGraphView {
    /// The real (non-shortcut) arcs of the hierarchy as a forward CSR graph on ranks: the turn
    /// graph itself, minus arcs a cheaper path made redundant (which changes no distance). Lets a
    /// graph file omit a separate copy of the plain graph; plain Dijkstra runs on this.
    public func originalGraph() -> CSRGraph {
        realArcGraph(nodeCount: nodeCount, arcs: { arcRange($0) }, head: { head[$0] }, weight: { weight[$0] },
                     isShortcut: { middle[$0] != UInt32.max }, direction: { direction[$0] })
    }

    /// Whether there is a real arc `from → to` (`originalArcWeight` without the weight: the first
    /// one found will do).
    public func hasOriginalArc(from: UInt32, to: UInt32) -> Bool {
        let (low, high, bit) = from < to ? (from, to, CHDirection.forward) : (to, from, CHDirection.backward)
        for a in arcRange(Int(low))
        where head[a] == high && middle[a] == UInt32.max && direction[a] & bit != 0 {
            return true
        }
        return false
    }

    /// Weight of the real arc `from → to`, looked up at the lower-ranked end; nil if there is none.
    public func originalArcWeight(from: UInt32, to: UInt32) -> UInt32? {
        let (low, high, bit) = from < to ? (from, to, CHDirection.forward) : (to, from, CHDirection.backward)
        var best: UInt32?
        for a in arcRange(Int(low))
        where head[a] == high && middle[a] == UInt32.max && direction[a] & bit != 0 {
            best = min(best ?? UInt32.max, weight[a])
        }
        return best
    }
}

extension ContractedGraph {
    /// `CHGraphView.originalGraph()` of the hierarchy as built, before it is written.
    public func originalGraph() -> CSRGraph {
        realArcGraph(nodeCount: nodeCount, arcs: { Int(firstOut[$0])..<Int(firstOut[$0 + 1]) }, head: { head[$0] },
                     weight: { weight[$0] }, isShortcut: { middle[$0] != UInt32.max }, direction: { direction[$0] })
    }
}

/// The real arcs of an upward hierarchy (no middle), each in the directions it carries, as a
/// forward CSR graph on ranks.
private func realArcGraph(nodeCount: Int, arcs arcRange: (Int) -> Range<Int>, head: (Int) -> UInt32, weight: (Int) -> UInt32,
                          isShortcut: (Int) -> Bool, direction: (Int) -> UInt8) -> CSRGraph {
    var arcs = ArcList()
    for r in 0..<nodeCount {
        for a in arcRange(r) where !isShortcut(a) {
            if direction(a) & CHDirection.forward != 0 { arcs.append(tail: UInt32(r), head: head(a), weight: weight(a)) }
            if direction(a) & CHDirection.backward != 0 { arcs.append(tail: head(a), head: UInt32(r), weight: weight(a)) }
        }
    }
    return CSRGraph(nodeCount: nodeCount, arcs: arcs)
}
