/// Where a shortest path starts and ends, and the sum of a `CHNodeMetric` over its nodes after
/// the first (so `length − metric(last)` is the sum strictly between them, unless it is a
/// single node).
public struct CHPathSpan: Equatable, Sendable {
    /// The source endpoint the path leaves from.
    public var first: UInt32
    /// The target endpoint it arrives at.
    public var last: UInt32
    public var length: UInt64
    /// The path is the one node `first == last` (a path can also leave a node and come back).
    public var isSingleNode: Bool

    public init(first: UInt32, last: UInt32, length: UInt64, isSingleNode: Bool) {
        self.first = first
        self.last = last
        self.length = length
        self.isSingleNode = isSingleNode
    }
}

extension CHQuery {
    /// The distance as in `distance(sources:targets:)`, and the span of the path that
    /// `path(sources:targets:)` would unpack, from the sums of the up-down path's arcs
    /// (`CHArcLengths`) instead of unpacking it: a road's length beside its time, at about the
    /// cost of the search. Nil if unreachable; the span is nil if the hierarchy does not unpack.
    public func pathSpan(sources: [CHEndpoint], targets: [CHEndpoint], metric: CHNodeMetric) -> (distance: UInt64, span: CHPathSpan?)? {
        guard let found = pathSearch(sources, targets) else { return nil }
        let lengths: CHArcLengths
        if let existing = arcLengths, existing.metric === metric {
            lengths = existing
        } else {
            lengths = CHArcLengths(graph: graph, metric: metric)
            arcLengths = lengths
        }
        // As in path(sources:targets:): the backward tree's arc from parent x up to y means
        // y → x, the forward tree's x → y.
        func walk(_ labels: UnsafeMutablePointer<SearchLabel>, from start: UInt32, bit: UInt8) -> (end: UInt32, length: UInt64)? {
            var v = start, total: UInt64 = 0
            while labels[Int(v)].parentArc != UpwardSearchBuffers.noArc {
                let arc = labels[Int(v)].parentArc, parent = graph.tail(ofArc: arc)
                guard let l = lengths.length(arc: Int(arc), tail: parent, bit: bit) else { return nil }
                total &+= l
                v = parent
            }
            return (v, total)
        }
        // A core arc is stored at its lower end; from the lower to the higher rank it is used forward.
        var throughCore: UInt64 = 0
        for hop in found.hops {
            let upward = hop.from < hop.to
            guard let l = lengths.length(arc: Int(hop.arc), tail: min(hop.from, hop.to),
                                         bit: upward ? CHDirection.forward : CHDirection.backward) else { return (found.distance, nil) }
            throughCore &+= l
        }
        guard let down = walk(backwardState.buffers.label, from: found.downStart, bit: CHDirection.backward),
              let up = walk(forwardState.buffers.label, from: found.upEnd, bit: CHDirection.forward) else { return (found.distance, nil) }
        return (found.distance, CHPathSpan(first: up.end, last: down.end, length: up.length &+ throughCore &+ down.length,
                                           isSingleNode: found.hops.isEmpty && up.end == found.upEnd && down.end == found.downStart))
    }
}
