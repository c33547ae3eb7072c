import ContractionHierarchy
import Foundation
import OffgridCore
import CustomizableHierarchy
import RoutingGraph

/// A graph file's turn graph (edge-based nodes = the hierarchy's ranks, arcs = allowed turns with
/// their weights) as a customizable hierarchy: a nested-dissection order on the roads' geometry
/// and its chordal supergraph, built once; a metric (the default weights with some roads removed)
/// is then a customization, exact for that metric (`CCHMetric`).
public struct CustomizableTurnGraph {
    public let topology: CCHTopology
    /// The turn graph's weights, per input arc (deciseconds, as the hierarchy's).
    public let weights: [UInt32]
    let data: RoutingData
    /// Seconds spent building the order and the topology.
    public let orderSeconds: Double
    public let topologySeconds: Double

    public init(data: RoutingData) {
        let graph = data.ch.originalGraph()
        let n = graph.nodeCount
        var tails = [UInt32](), heads = [UInt32]()
        tails.reserveCapacity(graph.arcCount)
        heads.reserveCapacity(graph.arcCount)
        var both = ArcList()
        both.reserveCapacity(2 * graph.arcCount)
        for v in 0..<n {
            for a in Int(graph.firstOut[v])..<Int(graph.firstOut[v + 1]) {
                tails.append(UInt32(v))
                heads.append(graph.head[a])
                both.append(tail: UInt32(v), head: graph.head[a], weight: 0)
                both.append(tail: graph.head[a], head: UInt32(v), weight: 0)
            }
        }
        // A rank sits where its road direction starts (planar: longitude scaled to the latitude).
        var x = [Float](repeating: 0, count: n), y = [Float](repeating: 0, count: n)
        for r in 0..<n {
            let ed = Int(data.rankEdgeDirection[r])
            let edge = data.edges[ed >> 1]
            let p = data.shapes.nodes[Int(ed & 1 == 0 ? edge.from : edge.to)]
            let lat = Double(p.latE7) / 1e7
            x[r] = Float(Double(p.lonE7) / 1e7 * cos(lat * .pi / 180))
            y[r] = Float(lat)
        }
        let t0 = MonotonicClock.nanoseconds()
        let order = NestedDissectionOrder(adjacency: CSRGraph(nodeCount: n, arcs: both), x: x, y: y)
        let t1 = MonotonicClock.nanoseconds()
        topology = CCHTopology(nodeCount: n, tails: tails, heads: heads, order: order)
        let t2 = MonotonicClock.nanoseconds()
        orderSeconds = Double(t1 - t0) / 1e9
        topologySeconds = Double(t2 - t1) / 1e9
        weights = graph.weight
        self.data = data
    }

    /// The weights with every turn into a removed edge direction (`2 × edge + direction`) made
    /// impassable.
    public func weights(removing removed: (_ edgeDirection: Int) -> Bool) -> [UInt32] {
        var out = weights
        let heads = topology.inputHead, edgeDirection = data.rankEdgeDirection
        for i in out.indices where removed(Int(edgeDirection[Int(heads[i])])) { out[i] = CCHMetric.infinity }
        return out
    }

    public func customize(_ weights: [UInt32]) -> CCHMetric {
        weights.withUnsafeBufferPointer { topology.customize(weights: $0) }
    }
}
