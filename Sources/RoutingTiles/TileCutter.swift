import OffgridCore
import TileMath

/// Cuts a road network into routing tiles: splits ways into edges at routing nodes
/// (intersections, way ends, controlled nodes, the last node before a node missing from the
/// file) and files each edge under the tile of its start node.
///
/// A tile's content depends only on the network, never on which tiles were asked for, so
/// the same tile is byte-identical in every pack that includes it (and in every data version
/// whose roads inside it did not change: the data version is the pack's, not the tile's).
public struct TileCutter {
    public let grid: RoutingGrid

    public init(grid: RoutingGrid) {
        self.grid = grid
    }

    /// The ids of every tile that would hold a routing node of `net`, sorted.
    public func occupiedTiles(_ net: RoadNetwork) -> [UInt32] {
        let routing = routingNodes(net)
        var set = Set<UInt32>()
        for n in 0..<net.nodeIds.count where routing[n] { set.insert(tileOf(net, Int32(n))) }
        return set.sorted()
    }

    /// Tiles among `selected` (nil = all) that hold at least one node, sorted by id.
    public func cut(_ net: RoadNetwork, selected: Set<UInt32>?) -> [RoutingTile] {
        let routing = routingNodes(net)
        // Ways are walked in chunks on all cores; merging the chunks' tiles in chunk order keeps
        // every tile's edges in file order, so the tiles do not depend on the thread count.
        let chunkSize = max(1024, (net.wayCount + 15) / 16)
        let parts = Parallel.map(count: (net.wayCount + chunkSize - 1) / chunkSize) { c in
            walk(net, ways: c * chunkSize ..< min(net.wayCount, (c + 1) * chunkSize), routing: routing, selected: selected)
        }
        var builders: [UInt32: TileAssembly] = [:]
        for part in parts {
            for (id, a) in part {
                if let b = builders[id] { b.absorb(a) } else { builders[id] = a }
            }
        }
        for r in validRestrictions(net) {
            let first = Int32(net.nodeIds.withUnsafeBufferPointer { lowerBound($0, r.nodeOsmIds[0]) })
            Self.assembly(tileOf(net, first), in: &builders, selected: selected)?.restrictions.append(r)
        }

        // Each tile's layout depends only on its own assembly: finish them on all cores.
        let ids = builders.keys.sorted()
        let assemblies = ids.map { builders[$0]! }
        return Parallel.map(count: ids.count) { i in
            assemblies[i].finish(tileId: ids[i], net: net, grid: grid)
        }
    }

    /// The assembly of `tile` in `builders`, made on first use; nil for a tile outside `selected`.
    static func assembly(_ tile: UInt32, in builders: inout [UInt32: TileAssembly], selected: Set<UInt32>?) -> TileAssembly? {
        if let selected, !selected.contains(tile) { return nil }
        if let b = builders[tile] { return b }
        let b = TileAssembly()
        builders[tile] = b
        return b
    }

    /// Splits `ways` into edges at routing nodes and files them under their start node's tile.
    func walk(_ net: RoadNetwork, ways: Range<Int>, routing: [Bool], selected: Set<UInt32>?) -> [UInt32: TileAssembly] {
        var builders: [UInt32: TileAssembly] = [:]
        func assembly(_ tile: UInt32) -> TileAssembly? { Self.assembly(tile, in: &builders, selected: selected) }
        var runLat: [Int32] = [], runLon: [Int32] = []
        for w in ways {
            let tags = net.wayTags[w]
            var start: Int32 = -1
            var previous: Int32 = -1
            runLat.removeAll(keepingCapacity: true)
            runLon.removeAll(keepingCapacity: true)
            for node in net.nodes(ofWay: w) {
                if node == previous { continue }          // repeated node in the way: no segment
                previous = node
                guard net.hasCoordinate(node) else {      // the file lacks it: the way breaks here
                    start = -1
                    runLat.removeAll(keepingCapacity: true)
                    runLon.removeAll(keepingCapacity: true)
                    continue
                }
                runLat.append(net.nodeLatE7[Int(node)])
                runLon.append(net.nodeLonE7[Int(node)])
                if start < 0 { start = node; continue }
                if routing[Int(node)] {
                    if let b = assembly(tileOf(net, start)) {
                        b.addEdge(net: net, way: w, tags: tags, from: start, to: node, lat: runLat, lon: runLon)
                    }
                    // The end node must be in its own tile even if no edge starts there.
                    assembly(tileOf(net, node))?.touch(node)
                    start = node
                    runLat.removeFirst(runLat.count - 1)
                    runLon.removeFirst(runLon.count - 1)
                }
            }
        }
        return builders
    }

    func tileOf(_ net: RoadNetwork, _ node: Int32) -> UInt32 {
        grid.tileId(lon: Double(net.nodeLonE7[Int(node)]) / 1e7, lat: Double(net.nodeLatE7[Int(node)]) / 1e7)
    }

    /// Nodes where edges begin and end.
    func routingNodes(_ net: RoadNetwork) -> [Bool] {
        var uses = [UInt8](repeating: 0, count: net.nodeIds.count)
        var routing = [Bool](repeating: false, count: net.nodeIds.count)
        for w in 0..<net.wayCount {
            let nodes = net.nodes(ofWay: w)
            var previous: Int32 = -1
            for node in nodes {
                if node == previous { continue }
                let present = net.hasCoordinate(node)
                if present, uses[Int(node)] < 2 { uses[Int(node)] += 1 }
                if previous >= 0 {
                    // Around a node the file lacks, the way breaks: its neighbours end edges.
                    let previousPresent = net.hasCoordinate(previous)
                    if present && !previousPresent { routing[Int(node)] = true }
                    if !present && previousPresent { routing[Int(previous)] = true }
                }
                previous = node
            }
            if let f = nodes.first, net.hasCoordinate(f) { routing[Int(f)] = true }
            if let l = nodes.last, net.hasCoordinate(l) { routing[Int(l)] = true }
            // A closed way (a ring road alone, a turning loop) would be one edge from its first
            // node back to it, which no route can start and end on with the end behind the start:
            // its middle node ends edges too.
            if nodes.count >= 3, nodes.first == nodes.last {
                let middle = nodes[nodes.startIndex + nodes.count / 2]
                if net.hasCoordinate(middle) { routing[Int(middle)] = true }
            }
        }
        for n in 0..<uses.count where uses[n] >= 2 || net.nodeTags[n] != 0 { routing[n] = true }
        return routing
    }

    /// The restrictions a graph can apply, resolved to the nodes they turn at, sorted by
    /// `RoutingTile.Restriction.precedes` and without repeats (their `tags` are the network's
    /// sets). Kept when every way they name is routable (each profile then checks its own
    /// ways) and, as OSRM requires, each way meets the next at one of its ends: the via node
    /// is an end of the from way and of the to way (where a way runs on through the via node,
    /// which branch is meant is ambiguous: the restriction is ignored), and via ways chain end to
    /// end (a closed via way, or a chain that fits in two ways, is ignored too).
    func validRestrictions(_ net: RoadNetwork) -> [RoutingTile.Restriction] {
        var wayIndex: [Int64: Int] = [:]
        let wanted = Set(net.restrictions.flatMap { [$0.fromWayId, $0.toWayId] + $0.viaWayIds })
        for (i, id) in net.wayIds.enumerated() where wanted.contains(id) { wayIndex[id] = i }
        /// A way's end nodes, nil when the file lacks one of them.
        func ends(_ w: Int) -> (Int32, Int32)? {
            let nodes = net.nodes(ofWay: w)
            guard let a = nodes.first, let b = nodes.last, net.hasCoordinate(a), net.hasCoordinate(b) else { return nil }
            return (a, b)
        }
        func isEnd(_ n: Int32, _ e: (Int32, Int32)) -> Bool { n == e.0 || n == e.1 }
        var kept: [RoutingTile.Restriction] = []
        net.nodeIds.withUnsafeBufferPointer { ids in
            for r in net.restrictions {
                guard r.viaWayIds.count <= Int(UInt8.max), let f = wayIndex[r.fromWayId], let t = wayIndex[r.toWayId],
                      let fromEnds = ends(f), let toEnds = ends(t) else { continue }
                var path: [Int32] = []
                if r.viaWayIds.isEmpty {
                    let v = lowerBound(ids, r.viaNodeId)
                    guard v < ids.count, ids[v] == r.viaNodeId, isEnd(Int32(v), fromEnds), isEnd(Int32(v), toEnds) else { continue }
                    path = [Int32(v)]
                } else {
                    let vias = r.viaWayIds.compactMap { wayIndex[$0] }
                    let viaEnds = vias.compactMap(ends)
                    guard viaEnds.count == r.viaWayIds.count else { continue }
                    // The first via way is entered at an end it shares with the from way; each via way
                    // is left at its other end, which the next way must share. One reading only.
                    var found: [[Int32]] = []
                    for start in Set([viaEnds[0].0, viaEnds[0].1]) where isEnd(start, fromEnds) {
                        var p = [start], ok = true
                        for e in viaEnds {
                            guard e.0 != e.1, isEnd(p.last!, e) else { ok = false; break }
                            p.append(p.last! == e.0 ? e.1 : e.0)
                        }
                        if ok && isEnd(p.last!, toEnds) { found.append(p) }
                    }
                    guard found.count == 1 else { continue }
                    path = found[0]
                }
                kept.append(RoutingTile.Restriction(nodeOsmIds: path.map { ids[Int($0)] }, fromWayId: r.fromWayId,
                                                    viaWayIds: r.viaWayIds, toWayId: r.toWayId, tags: r.tags, members: r.members))
            }
        }
        kept.sort { RoutingTile.Restriction.precedes($0, $1) || !RoutingTile.Restriction.precedes($1, $0) && $0.tags < $1.tags }
        var unique: [RoutingTile.Restriction] = []
        for r in kept where unique.last != r { unique.append(r) }
        return unique
    }
}
