import RoutingProfile
import TileMath

/// Collects one tile's nodes, edges and restrictions while the cutter walks the ways,
/// then lays them out in the tile's fixed order.
final class TileAssembly {
    private struct PendingEdge {
        var from: Int32
        var to: Int32
        var wayIndex: Int
        /// The way's tag set in the network.
        var tags: UInt32
        var shapeStart: Int
        var shapeCount: Int
        var lengthCm: UInt32
        var bearingStartDeci: UInt16
        var bearingEndDeci: UInt16
    }

    private var nodes: [Int32] = []
    private var edges: [PendingEdge] = []
    private var shapeLat: [Int32] = []
    private var shapeLon: [Int32] = []
    var restrictions: [RoutingTile.Restriction] = []

    /// Records a node that lies in this tile.
    func touch(_ node: Int32) { nodes.append(node) }

    /// Appends what `other` collected from later ways (a later chunk of the cut).
    func absorb(_ other: TileAssembly) {
        nodes.append(contentsOf: other.nodes)
        let shift = shapeLat.count
        for var e in other.edges {
            e.shapeStart += shift
            edges.append(e)
        }
        shapeLat.append(contentsOf: other.shapeLat)
        shapeLon.append(contentsOf: other.shapeLon)
        restrictions.append(contentsOf: other.restrictions)
    }

    func addEdge(net: RoadNetwork, way: Int, tags: UInt32, from: Int32, to: Int32, lat: [Int32], lon: [Int32]) {
        nodes.append(from)
        var length = 0.0
        var previous = GeoPoint(lon: Double(lon[0]) / 1e7, lat: Double(lat[0]) / 1e7)
        let second = GeoPoint(lon: Double(lon[1]) / 1e7, lat: Double(lat[1]) / 1e7)
        let startBearing = initialBearingDegrees(from: previous, to: second)
        var endBearing = startBearing
        for i in 1..<lat.count {
            let p = GeoPoint(lon: Double(lon[i]) / 1e7, lat: Double(lat[i]) / 1e7)
            length += haversineMeters(previous, p)
            if i == lat.count - 1 { endBearing = initialBearingDegrees(from: previous, to: p) }
            previous = p
        }
        edges.append(PendingEdge(from: from, to: to, wayIndex: way, tags: tags, shapeStart: shapeLat.count,
                                 shapeCount: lat.count, lengthCm: UInt32(min(Double(UInt32.max), (length * 100).rounded())),
                                 bearingStartDeci: deciDegrees(startBearing), bearingEndDeci: deciDegrees(endBearing)))
        shapeLat.append(contentsOf: lat)
        shapeLon.append(contentsOf: lon)
    }

    func finish(tileId: UInt32, net: RoadNetwork, grid: RoutingGrid) -> RoutingTile {
        var tile = RoutingTile(tileId: tileId, gridDegrees: grid.degrees, schemaHash: RoutingTagSchema.hash)
        var sets = LocalTagSets(net: net)
        // Global node indexes follow OSM id order, so sorting them sorts the tile's nodes by id.
        let sortedNodes = Array(Set(nodes)).sorted()
        var local: [Int32: UInt32] = [:]
        local.reserveCapacity(sortedNodes.count)
        for (i, n) in sortedNodes.enumerated() { local[n] = UInt32(i) }
        // Stable order: by start node, then as the ways came in the file.
        let localFrom = edges.map { local[$0.from]! }
        let order = edges.indices.sorted { (localFrom[$0], $0) < (localFrom[$1], $1) }
        // Tag sets and strings are numbered by first use (edges, then nodes, then restrictions),
        // so the tile's bytes depend only on its own content.
        for i in order {
            let e = edges[i]
            let start = tile.shapeLatE7.count
            tile.shapeLatE7.append(contentsOf: shapeLat[e.shapeStart..<e.shapeStart + e.shapeCount])
            tile.shapeLonE7.append(contentsOf: shapeLon[e.shapeStart..<e.shapeStart + e.shapeCount])
            tile.edges.append(.init(
                fromNode: localFrom[i], toNodeOsmId: net.nodeIds[Int(e.to)], wayId: net.wayIds[e.wayIndex],
                shapeStart: UInt32(start), shapeCount: UInt32(e.shapeCount), lengthCm: e.lengthCm,
                tags: sets.local(e.tags), bearingStartDeci: e.bearingStartDeci, bearingEndDeci: e.bearingEndDeci))
        }
        for n in sortedNodes {
            tile.nodes.append(.init(osmId: net.nodeIds[Int(n)], latE7: net.nodeLatE7[Int(n)],
                                    lonE7: net.nodeLonE7[Int(n)], tags: sets.local(net.nodeTags[Int(n)])))
        }
        // Records equal but for their relation's tags follow those tags' text, not the network's numbering.
        let content = restrictions.map { net.tagSetText($0.tags) }
        let byContent = restrictions.indices.sorted { a, b in
            let (x, y) = (restrictions[a], restrictions[b])
            if RoutingTile.Restriction.precedes(x, y) { return true }
            if RoutingTile.Restriction.precedes(y, x) { return false }
            return content[a].lexicographicallyPrecedes(content[b])
        }
        for i in byContent {
            var r = restrictions[i]
            r.tags = sets.local(r.tags)
            tile.restrictions.append(r)
        }
        (tile.strings, tile.tagSetFirst, tile.tagKeys, tile.tagValues) = (sets.strings, sets.first, sets.keys, sets.values)
        return tile
    }
}

/// One tile's tag sets and strings, numbered by first use.
struct LocalTagSets {
    let net: RoadNetwork
    var strings: [String] = [""]
    var first: [UInt32] = [0, 0]
    var keys: [UInt32] = []
    var values: [UInt32] = []
    private var setIndex: [UInt32: UInt32] = [0: 0]
    private var stringIndex: [UInt32: UInt32] = [0: 0]

    init(net: RoadNetwork) { self.net = net }

    mutating func local(_ set: UInt32) -> UInt32 {
        if let i = setIndex[set] { return i }
        for k in Int(net.tagSetFirst[Int(set)])..<Int(net.tagSetFirst[Int(set) + 1]) {
            keys.append(string(net.tagKeys[k]))
            values.append(string(net.tagValues[k]))
        }
        first.append(UInt32(keys.count))
        let i = UInt32(first.count - 2)
        setIndex[set] = i
        return i
    }

    private mutating func string(_ s: UInt32) -> UInt32 {
        if let i = stringIndex[s] { return i }
        let i = UInt32(strings.count)
        strings.append(net.strings[Int(s)])
        stringIndex[s] = i
        return i
    }
}

extension RoadNetwork {
    /// Tag set `set` as its key and value strings in order, for ordering by content.
    func tagSetText(_ set: UInt32) -> [String] {
        (Int(tagSetFirst[Int(set)])..<Int(tagSetFirst[Int(set) + 1])).flatMap { [strings[Int(tagKeys[$0])], strings[Int(tagValues[$0])]] }
    }
}

@inline(__always) func deciDegrees(_ degrees: Double) -> UInt16 {
    UInt16(Int((degrees * 10).rounded()) % 3600)
}
