import ContractionHierarchy
import TestSupport

/// A test graph: node count and arcs.
struct TestGraph {
    var name: String
    var nodeCount: Int
    var arcs: ArcList
}

/// Generators of the graph shapes the hierarchy must handle.
enum TestGraphs {
    /// A node-based road-like network: a jittered grid of intersections with missing streets
    /// (dead ends, irregular blocks), primary roads on every 8th line, grade-separated motorways
    /// on every 40th line with a junction at every 5th crossing only, streets cut into chains of
    /// shape nodes, and oneway residential streets. Weights are travel times in deciseconds.
    /// Also returns coordinates (metres) for turn angles.
    static func roadNetwork(width: Int, height: Int, rng: inout SplitMix64, removal: Double = 0.3,
                            onewayShare: Double = 0.15, chainShare: Double = 0.1)
        -> (nodeCount: Int, arcs: ArcList, x: [Double], y: [Double]) {
        var x: [Double] = [], y: [Double] = []
        let cell = 150.0
        for j in 0..<height {
            for i in 0..<width {
                x.append(Double(i) * cell + Double(rng.below(61) - 30))
                y.append(Double(j) * cell + Double(rng.below(61) - 30))
            }
        }
        var arcs = ArcList()
        let speeds = [8.3, 16.7, 30.6]  // m/s: 30, 60, 110 km/h
        func time(_ p: Int, _ q: Int, _ speed: Double) -> UInt32 {
            let length = ((x[p] - x[q]) * (x[p] - x[q]) + (y[p] - y[q]) * (y[p] - y[q])).squareRoot()
            return UInt32(max(1.0, (length / speed * 10).rounded()))
        }
        func addStreet(_ a: Int, _ b: Int, roadClass: Int) {
            var chain = [a]
            if rng.chance(chainShare) {
                for k in 1...(1 + rng.below(3)) {
                    let t = Double(k) / 4.0
                    x.append(x[a] + (x[b] - x[a]) * t + Double(rng.below(21) - 10))
                    y.append(y[a] + (y[b] - y[a]) * t + Double(rng.below(21) - 10))
                    chain.append(x.count - 1)
                }
            }
            chain.append(b)
            let oneway = roadClass == 0 && rng.chance(onewayShare)
            let reversed = rng.chance(0.5)
            for k in 0..<(chain.count - 1) {
                let p = chain[k], q = chain[k + 1]
                let t = time(p, q, speeds[roadClass])
                if !oneway || !reversed { arcs.append(tail: UInt32(p), head: UInt32(q), weight: t) }
                if !oneway || reversed { arcs.append(tail: UInt32(q), head: UInt32(p), weight: t) }
            }
        }
        func isPrimary(_ line: Int) -> Bool { line % 8 == 4 }
        for j in 0..<height {
            for i in 0..<width {
                let v = j * width + i
                if i + 1 < width && (isPrimary(j) || !rng.chance(removal)) {
                    addStreet(v, v + 1, roadClass: isPrimary(j) ? 1 : 0)
                }
                if j + 1 < height && (isPrimary(i) || !rng.chance(removal)) {
                    addStreet(v, v + width, roadClass: isPrimary(i) ? 1 : 0)
                }
            }
        }
        // Motorways: own nodes above the grid, joined to it by ramps at every 5th crossing.
        func motorway(along cells: [Int]) {
            var previous = -1
            for (k, v) in cells.enumerated() {
                x.append(x[v] + 5); y.append(y[v] + 5)
                let m = x.count - 1
                if previous >= 0 {
                    let t = time(previous, m, speeds[2])
                    arcs.append(tail: UInt32(previous), head: UInt32(m), weight: t)
                    arcs.append(tail: UInt32(m), head: UInt32(previous), weight: t)
                }
                if k % 5 == 2 {
                    arcs.append(tail: UInt32(m), head: UInt32(v), weight: 90)
                    arcs.append(tail: UInt32(v), head: UInt32(m), weight: 90)
                }
                previous = m
            }
        }
        for j in stride(from: 20, to: height, by: 40) { motorway(along: (0..<width).map { j * width + $0 }) }
        for i in stride(from: 20, to: width, by: 40) { motorway(along: (0..<height).map { $0 * width + i }) }
        return (x.count, arcs, x, y)
    }

    /// The edge-based graph of a node-based one: a node per directed road segment, an arc per
    /// allowed turn (no U-turns except at dead ends), weighing the first segment's time plus a
    /// turn penalty from the angle (straight 0, right 2 s, left 5 s, U-turn 20 s).
    static func edgeBased(nodeCount: Int, arcs: ArcList, x: [Double], y: [Double]) -> (nodeCount: Int, arcs: ArcList) {
        let csr = CSRGraph(nodeCount: nodeCount, arcs: arcs)
        var result = ArcList()
        result.reserveCapacity(csr.arcCount * 3)
        var segmentTail = [Int](repeating: 0, count: csr.arcCount)
        for v in 0..<nodeCount {
            for a in Int(csr.firstOut[v])..<Int(csr.firstOut[v + 1]) { segmentTail[a] = v }
        }
        for s in 0..<csr.arcCount {
            let a = segmentTail[s], b = Int(csr.head[s])
            let outs = Int(csr.firstOut[b])..<Int(csr.firstOut[b + 1])
            for t in outs {
                let c = Int(csr.head[t])
                let uTurn = c == a
                if uTurn && outs.count > 1 { continue }
                let (dx1, dy1) = (x[b] - x[a], y[b] - y[a])
                let (dx2, dy2) = (x[c] - x[b], y[c] - y[b])
                let cross = dx1 * dy2 - dy1 * dx2
                let dot = dx1 * dx2 + dy1 * dy2
                let angle = atan2Approx(cross, dot)  // 0 straight, >0 left, <0 right
                let penalty: UInt32 = uTurn ? 200 : (abs(angle) < 0.5 ? 0 : (angle > 0 ? 50 : 20))
                result.append(tail: UInt32(s), head: UInt32(t), weight: csr.weight[s] + penalty)
            }
        }
        return (csr.arcCount, result)
    }

    /// atan2 without Foundation, accurate enough to classify turns.
    static func atan2Approx(_ y: Double, _ x: Double) -> Double {
        if x == 0 && y == 0 { return 0 }
        let ax = abs(x), ay = abs(y)
        let a = min(ax, ay) / max(ax, ay)
        let s = a * a
        var r = ((-0.0464964749 * s + 0.15931422) * s - 0.327622764) * s * a + a
        if ay > ax { r = 1.57079637 - r }
        if x < 0 { r = 3.14159274 - r }
        return y < 0 ? -r : r
    }

    /// A road-like edge-based graph with about `targetNodes` nodes: towns and roads.
    static func edgeBasedRoadGraph(targetNodes: Int, seed: UInt64) -> TestGraph {
        var rng = SplitMix64(seed: seed)
        let side = max(1, Int((Double(targetNodes) / 160).squareRoot()))
        let road = townsAndRoads(townsX: side, townsY: side, rng: &rng)
        let edge = edgeBased(nodeCount: road.nodeCount, arcs: road.arcs, x: road.x, y: road.y)
        return TestGraph(name: "edge-based towns and roads \(side)x\(side)", nodeCount: edge.nodeCount, arcs: edge.arcs)
    }

    /// An edge-based jittered grid city (a hard case for hierarchies: no natural separators).
    static func edgeBasedGridGraph(targetNodes: Int, seed: UInt64) -> TestGraph {
        var rng = SplitMix64(seed: seed)
        let side = max(2, Int((Double(targetNodes) / 3.0).squareRoot()))
        let road = roadNetwork(width: side, height: side, rng: &rng)
        let edge = edgeBased(nodeCount: road.nodeCount, arcs: road.arcs, x: road.x, y: road.y)
        return TestGraph(name: "edge-based grid \(side)x\(side)", nodeCount: edge.nodeCount, arcs: edge.arcs)
    }

    /// What real road networks look like at scale: small grid towns (3–11 streets across, some
    /// streets missing or oneway) 3 km apart, joined by winding rural roads cut into segments
    /// (60 km/h, some town pairs not joined), and a 130 km/h motorway on every 3rd row and column of towns with a
    /// ramp to each town it passes. Node-based, travel times in deciseconds, coordinates in metres.
    static func townsAndRoads(townsX: Int, townsY: Int, rng: inout SplitMix64)
        -> (nodeCount: Int, arcs: ArcList, x: [Double], y: [Double]) {
        var x: [Double] = [], y: [Double] = []
        var arcs = ArcList()
        func node(_ px: Double, _ py: Double) -> Int { x.append(px); y.append(py); return x.count - 1 }
        func connect(_ p: Int, _ q: Int, speed: Double, oneway: Bool = false) {
            let length = ((x[p] - x[q]) * (x[p] - x[q]) + (y[p] - y[q]) * (y[p] - y[q])).squareRoot()
            let t = UInt32(max(1.0, (length / speed * 10).rounded()))
            let reversed = oneway && rng.chance(0.5)
            if !reversed { arcs.append(tail: UInt32(p), head: UInt32(q), weight: t) }
            if !oneway || reversed { arcs.append(tail: UInt32(q), head: UInt32(p), weight: t) }
        }
        /// A road from p to q through `bends` jittered shape/junction nodes.
        func road(_ p: Int, _ q: Int, bends: Int, speed: Double, wiggle: Double) {
            var previous = p
            for k in 0..<bends {
                let t = Double(k + 1) / Double(bends + 1)
                let n = node(x[p] + (x[q] - x[p]) * t + Double(rng.below(Int(2 * wiggle) + 1)) - wiggle,
                             y[p] + (y[q] - y[p]) * t + Double(rng.below(Int(2 * wiggle) + 1)) - wiggle)
                connect(previous, n, speed: speed)
                previous = n
            }
            connect(previous, q, speed: speed)
        }
        var centre: [Int] = [], east: [Int] = [], west: [Int] = [], north: [Int] = [], south: [Int] = []
        for ty in 0..<townsY {
            for tx in 0..<townsX {
                let size = 3 + rng.below(9)
                let ox = Double(tx) * 3000 + Double(rng.below(801)) - 400
                let oy = Double(ty) * 3000 + Double(rng.below(801)) - 400
                let first = x.count
                for j in 0..<size {
                    for i in 0..<size { _ = node(ox + Double(i) * 120 + Double(rng.below(41)) - 20, oy + Double(j) * 120 + Double(rng.below(41)) - 20) }
                }
                for j in 0..<size {
                    for i in 0..<size {
                        let v = first + j * size + i
                        let main = i == size / 2 || j == size / 2  // the two through streets
                        if i + 1 < size && (j == size / 2 || !rng.chance(0.3)) {
                            connect(v, v + 1, speed: main ? 13.9 : 8.3, oneway: !main && rng.chance(0.15))
                        }
                        if j + 1 < size && (i == size / 2 || !rng.chance(0.3)) {
                            connect(v, v + size, speed: main ? 13.9 : 8.3, oneway: !main && rng.chance(0.15))
                        }
                    }
                }
                centre.append(first + (size / 2) * size + size / 2)
                east.append(first + (size / 2) * size + size - 1)
                west.append(first + (size / 2) * size)
                north.append(first + (size - 1) * size + size / 2)
                south.append(first + size / 2)
            }
        }
        for ty in 0..<townsY {
            for tx in 0..<townsX {
                let t = ty * townsX + tx
                if tx + 1 < townsX && rng.chance(0.85) { road(east[t], west[t + 1], bends: 3 + rng.below(6), speed: 16.7, wiggle: 150) }
                if ty + 1 < townsY && rng.chance(0.85) { road(north[t], south[t + townsX], bends: 3 + rng.below(6), speed: 16.7, wiggle: 150) }
            }
        }
        /// A motorway through the given towns with a ramp (both ways) to each town centre.
        func motorway(_ towns: [Int]) {
            var previous = -1
            for t in towns {
                let m = node(x[centre[t]] + 400, y[centre[t]] + 400)
                connect(m, centre[t], speed: 13.9)
                if previous >= 0 { road(previous, m, bends: 2, speed: 36.1, wiggle: 50) }
                previous = m
            }
        }
        for ty in stride(from: 1, to: townsY, by: 3) { motorway((0..<townsX).map { ty * townsX + $0 }) }
        for tx in stride(from: 1, to: townsX, by: 3) { motorway((0..<townsY).map { $0 * townsX + tx }) }
        return (x.count, arcs, x, y)
    }

    /// A random sparse digraph with loops, parallel arcs and a mix of zero, tiny, equal and
    /// large weights (many ties and zero-weight cycles).
    static func randomSparse(nodeCount: Int, arcsPerNode: Double, maxWeight: UInt32, rng: inout SplitMix64) -> ArcList {
        var arcs = ArcList()
        let m = Int(Double(nodeCount) * arcsPerNode)
        for _ in 0..<m {
            let t = UInt32(rng.below(nodeCount))
            let h = rng.chance(0.05) ? t : UInt32(rng.below(nodeCount))
            let w: UInt32
            switch rng.below(5) {
            case 0: w = 0
            case 1: w = UInt32(rng.below(3))
            case 2: w = 7
            default: w = UInt32(rng.next(upperBound: UInt64(maxWeight) + 1))
            }
            arcs.append(tail: t, head: h, weight: w)
            if rng.chance(0.1) { arcs.append(tail: t, head: h, weight: w / 2 + UInt32(rng.below(3))) }
        }
        return arcs
    }

    /// Several graphs side by side with shifted ids: unreachable pairs between parts.
    static func disjointUnion(_ parts: [(nodeCount: Int, arcs: ArcList)]) -> (nodeCount: Int, arcs: ArcList) {
        var arcs = ArcList()
        var offset: UInt32 = 0
        for part in parts {
            for i in 0..<part.arcs.count {
                arcs.append(tail: part.arcs.tails[i] + offset, head: part.arcs.heads[i] + offset, weight: part.arcs.weights[i])
            }
            offset += UInt32(part.nodeCount)
        }
        return (Int(offset), arcs)
    }

    /// A directed grid (both directions, some oneway) with uniform weights: many equal paths.
    static func uniformGrid(width: Int, height: Int, rng: inout SplitMix64) -> ArcList {
        var arcs = ArcList()
        for j in 0..<height {
            for i in 0..<width {
                let v = UInt32(j * width + i)
                for (di, dj) in [(1, 0), (0, 1)] where i + di < width && j + dj < height {
                    let w = v + UInt32(dj * width + di)
                    let mode = rng.below(10)
                    if mode != 0 { arcs.append(tail: v, head: w, weight: 10) }
                    if mode != 1 { arcs.append(tail: w, head: v, weight: 10) }
                }
            }
        }
        return arcs
    }
}
