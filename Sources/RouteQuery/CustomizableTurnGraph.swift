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
    /// The input arcs by tail (CSR, `turnFirst` has rankCount + 1 offsets into `turnArcs`), so a
    /// route's turns and weights can be looked up under any metric, replaced turns included.
    public let turnFirst: [UInt32]
    public let turnArcs: [UInt32]

    public init(data: RoutingData) {
        // Every allowed turn: the hierarchy's real arcs and those it replaced by a path through
        // lower ranks (which a metric without that path needs).
        let graph = data.ch.originalGraph()
        let replaced: UnsafeBufferPointer<UInt32> = data.file.array(.chReplacedTurns)
        let n = graph.nodeCount
        var tails = [UInt32](), heads = [UInt32](), turnWeights = [UInt32]()
        let arcCount = graph.arcCount + replaced.count / 3
        tails.reserveCapacity(arcCount)
        heads.reserveCapacity(arcCount)
        turnWeights.reserveCapacity(arcCount)
        for v in 0..<n {
            for a in Int(graph.firstOut[v])..<Int(graph.firstOut[v + 1]) {
                tails.append(UInt32(v))
                heads.append(graph.head[a])
                turnWeights.append(graph.weight[a])
            }
        }
        for i in stride(from: 0, to: replaced.count, by: 3) {
            tails.append(replaced[i])
            heads.append(replaced[i + 1])
            turnWeights.append(replaced[i + 2])
        }
        var both = ArcList()
        both.reserveCapacity(2 * arcCount)
        for i in tails.indices {
            both.append(tail: tails[i], head: heads[i], weight: 0)
            both.append(tail: heads[i], head: tails[i], weight: 0)
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
        weights = turnWeights
        self.data = data
        var first = [UInt32](repeating: 0, count: n + 1)
        for t in tails { first[Int(t) + 1] += 1 }
        for v in 0..<n { first[v + 1] += first[v] }
        var next = first, arcs = [UInt32](repeating: 0, count: tails.count)
        for (i, t) in tails.enumerated() { arcs[Int(next[Int(t)])] = UInt32(i); next[Int(t)] += 1 }
        turnFirst = first
        turnArcs = arcs
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
