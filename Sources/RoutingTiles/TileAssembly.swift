import TileMath

/// Collects one tile's nodes, edges and restrictions while the cutter walks the ways,
/// then lays them out in the tile's fixed order.
final class TileAssembly {
    private struct PendingEdge {
        var from: Int32
        var to: Int32
        var wayIndex: Int
        var attrs: WayRecord
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

    func addEdge(net: RoadNetwork, way: Int, attrs: WayRecord, from: Int32, to: Int32, lat: [Int32], lon: [Int32]) {
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
        edges.append(PendingEdge(from: from, to: to, wayIndex: way, attrs: attrs, shapeStart: shapeLat.count,
                                 shapeCount: lat.count, lengthCm: UInt32(min(Double(UInt32.max), (length * 100).rounded())),
                                 bearingStartDeci: deciDegrees(startBearing), bearingEndDeci: deciDegrees(endBearing)))
        shapeLat.append(contentsOf: lat)
        shapeLon.append(contentsOf: lon)
    }

    func finish(tileId: UInt32, net: RoadNetwork, grid: RoutingGrid, profileHash: String) -> RoutingTile {
        var tile = RoutingTile(tileId: tileId, gridDegrees: grid.degrees, profileHash: profileHash)
        // Global node indexes follow OSM id order, so sorting them sorts the tile's nodes by id.
        let sortedNodes = Array(Set(nodes)).sorted()
        var local: [Int32: UInt32] = [:]
        local.reserveCapacity(sortedNodes.count)
        for (i, n) in sortedNodes.enumerated() {
            local[n] = UInt32(i)
            tile.nodes.append(.init(osmId: net.nodeIds[Int(n)], latE7: net.nodeLatE7[Int(n)],
                                    lonE7: net.nodeLonE7[Int(n)], control: net.nodeControl[Int(n)]))
        }
        // Stable order: by start node, then as the ways came in the file.
        let localFrom = edges.map { local[$0.from]! }
        let order = edges.indices.sorted { (localFrom[$0], $0) < (localFrom[$1], $1) }
        var strings: [Int32: UInt32] = [0: 0]
        func string(_ s: Int32) -> UInt32 {
            if let i = strings[s] { return i }
            let i = UInt32(tile.strings.count)
            tile.strings.append(net.strings[Int(s)])
            strings[s] = i
            return i
        }
        for i in order {
            let e = edges[i]
            let start = tile.shapeLatE7.count
            tile.shapeLatE7.append(contentsOf: shapeLat[e.shapeStart..<e.shapeStart + e.shapeCount])
            tile.shapeLonE7.append(contentsOf: shapeLon[e.shapeStart..<e.shapeStart + e.shapeCount])
            tile.edges.append(.init(
                fromNode: localFrom[i], toNodeOsmId: net.nodeIds[Int(e.to)], wayId: net.wayIds[e.wayIndex],
                shapeStart: UInt32(start), shapeCount: UInt32(e.shapeCount), lengthCm: e.lengthCm,
                speedForwardDeciKmh: e.attrs.speedForwardDeciKmh, speedBackwardDeciKmh: e.attrs.speedBackwardDeciKmh,
                flags: e.attrs.flags, roadClass: e.attrs.roadClass, name: string(e.attrs.name), ref: string(e.attrs.ref),
                bearingStartDeci: e.bearingStartDeci, bearingEndDeci: e.bearingEndDeci))
        }
        tile.restrictions = restrictions
        return tile
    }
}

@inline(__always) func deciDegrees(_ degrees: Double) -> UInt16 {
    UInt16(Int((degrees * 10).rounded()) % 3600)
}
