import OffgridCore

/// The routing tile's byte layout (docs/FORMATS.md, "Routing tile"): magic, version, a CRC32 of
/// everything after it, then a header and fixed-width arrays. Little-endian throughout.
/// (The checksum sits at the front: a CRC appended at the end would make every tile's
/// whole-file CRC the same constant, useless for telling tiles apart in manifests.)
///
/// Version 2 dropped the data version from the tile (it lives in the pack header and the
/// manifest), so unchanged roads give identical tile bytes in every data version. Version 3
/// made restriction records variable-length: via ways (in order), their junction nodes, and the
/// condition of a conditional restriction. Version 4 keeps OSM tags (tag sets) instead of one
/// profile's speeds, flags, classes and restriction codes: one tile for every mode.
public enum RoutingTileCodec {
    public static let magic: [UInt8] = Array("OGRTILE\0".utf8)
    public static let version: UInt32 = 4
    /// The fewest bytes a restriction record takes (a via node).
    static let minimumRestrictionBytes = 30
    /// The fewest bytes a node and an edge take (every varint one byte).
    static let minimumNodeBytes = 4, minimumEdgeBytes = 10
    static let checksumOffset = 12

    public static func encode(_ t: RoutingTile) -> [UInt8] {
        var w = ByteWriter(capacity: 64 + t.nodes.count * 12 + t.edges.count * 16 + t.shapeLatE7.count * 3
                           + t.tagKeys.count * 3 + t.tagSetCount)
        w.append(contentsOf: magic)
        w.u32(version)
        w.u32(0) // checksum, patched below
        w.u32(t.tileId)
        w.f64(t.gridDegrees)
        w.string(t.schemaHash)
        w.u32(UInt32(t.nodes.count))
        w.u32(UInt32(t.edges.count))
        w.u32(UInt32(t.edges.reduce(0) { $0 + Int($1.shapeCount) }))
        w.u32(UInt32(t.strings.count))
        w.u32(UInt32(t.tagSetCount))
        w.u32(UInt32(t.restrictions.count))
        // Numbers as varints, most of them steps from the one before (ids sorted, points metres
        // apart, a way's edges together): a third of fixed-width bytes, and they compress better.
        var id: Int64 = 0, lat: Int64 = 0, lon: Int64 = 0
        for n in t.nodes {
            w.svarint(n.osmId &- id); w.svarint(Int64(n.latE7) - lat); w.svarint(Int64(n.lonE7) - lon); w.varint(UInt64(n.tags))
            (id, lat, lon) = (n.osmId, Int64(n.latE7), Int64(n.lonE7))
        }
        var from: UInt32 = 0, way: Int64 = 0
        for e in t.edges {
            w.varint(UInt64(e.fromNode &- from)); w.svarint(e.toNodeOsmId &- t.nodes[Int(e.fromNode)].osmId)
            w.svarint(e.wayId &- way); w.varint(UInt64(e.shapeCount)); w.varint(UInt64(e.lengthCm)); w.varint(UInt64(e.tags))
            w.u16(e.bearingStartDeci); w.u16(e.bearingEndDeci)
            (from, way) = (e.fromNode, e.wayId)
        }
        // Each edge's shape run in edge order (so a reader knows where each starts).
        (lat, lon) = (0, 0)
        for e in t.edges {
            for i in Int(e.shapeStart)..<Int(e.shapeStart + e.shapeCount) {
                w.svarint(Int64(t.shapeLatE7[i]) - lat); w.svarint(Int64(t.shapeLonE7[i]) - lon)
                (lat, lon) = (Int64(t.shapeLatE7[i]), Int64(t.shapeLonE7[i]))
            }
        }
        for s in t.strings { w.string(s) }
        for i in 0..<t.tagSetCount {
            let r = Int(t.tagSetFirst[i])..<Int(t.tagSetFirst[i + 1])
            w.varint(UInt64(r.count))
            for k in r { w.varint(UInt64(t.tagKeys[k])); w.varint(UInt64(t.tagValues[k])) }
        }
        for r in t.restrictions {
            w.i64(r.fromWayId); w.i64(r.toWayId); w.u32(r.tags); w.u8(r.members); w.u8(UInt8(r.viaWayIds.count))
            for n in r.nodeOsmIds { w.i64(n) }
            for v in r.viaWayIds { w.i64(v) }
        }
        w.patchU32(at: checksumOffset, CRC32.checksum(w.bytes[(checksumOffset + 4)...]))
        return w.bytes
    }

    /// Decodes and checks a tile; every index and value is validated (`contentProblem`) so a
    /// damaged tile with a valid CRC is an error, not a crash.
    public static func decode(_ bytes: [UInt8]) throws -> RoutingTile {
        guard bytes.count >= checksumOffset + 4, Array(bytes[0..<magic.count]) == magic else {
            throw BinaryFormatError(offset: 0, "not a routing tile (bad magic)")
        }
        var r = ByteReader(bytes, offset: magic.count)
        let v = try r.u32()
        guard v == version else { throw BinaryFormatError(offset: magic.count, "unsupported routing tile version \(v)") }
        let stored = try r.u32()
        guard CRC32.checksum(bytes[(checksumOffset + 4)...]) == stored else {
            throw BinaryFormatError(offset: checksumOffset, "routing tile checksum mismatch")
        }
        var t = RoutingTile(tileId: try r.u32(), gridDegrees: try r.f64(), schemaHash: try r.string())
        let nodeCount = Int(try r.u32()), edgeCount = Int(try r.u32()), shapeCount = Int(try r.u32())
        let stringCount = Int(try r.u32()), tagSetCount = Int(try r.u32()), restrictionCount = Int(try r.u32())
        // Counts are checked against the bytes left before allocating anything.
        let need = nodeCount * minimumNodeBytes + edgeCount * minimumEdgeBytes + shapeCount * 2 + stringCount * 4 + tagSetCount
            + restrictionCount * minimumRestrictionBytes
        guard need <= r.remaining else {
            throw BinaryFormatError(offset: r.offset, "routing tile counts need \(need) bytes, \(r.remaining) left")
        }
        t.nodes.reserveCapacity(nodeCount)
        var id: Int64 = 0, lat: Int64 = 0, lon: Int64 = 0
        for i in 0..<nodeCount {
            id &+= try r.svarint(); lat &+= try r.svarint(); lon &+= try r.svarint()
            let tags = try r.varint()
            guard let la = Int32(exactly: lat), let lo = Int32(exactly: lon), let tg = UInt32(exactly: tags) else {
                throw BinaryFormatError(offset: r.offset, "routing tile node \(i) out of range")
            }
            t.nodes.append(.init(osmId: id, latE7: la, lonE7: lo, tags: tg))
        }
        t.edges.reserveCapacity(edgeCount)
        var from: UInt64 = 0, way: Int64 = 0, shapeStart = 0
        for i in 0..<edgeCount {
            from &+= try r.varint()
            guard from < UInt64(nodeCount) else {
                throw BinaryFormatError(offset: r.offset, "routing tile edge \(i) starts outside the tile's nodes")
            }
            let to = t.nodes[Int(from)].osmId &+ (try r.svarint())
            way &+= try r.svarint()
            let count = try r.varint(), length = try r.varint(), tags = try r.varint()
            guard count >= 2, count <= UInt64(shapeCount - shapeStart), let cm = UInt32(exactly: length), let tg = UInt32(exactly: tags) else {
                throw BinaryFormatError(offset: r.offset, "routing tile edge \(i) refers outside the tile")
            }
            t.edges.append(RoutingTile.Edge(fromNode: UInt32(from), toNodeOsmId: to, wayId: way, shapeStart: UInt32(shapeStart),
                                            shapeCount: UInt32(count), lengthCm: cm, tags: tg,
                                            bearingStartDeci: try r.u16(), bearingEndDeci: try r.u16()))
            shapeStart += Int(count)
        }
        guard shapeStart == shapeCount else {
            throw BinaryFormatError(offset: r.offset, "routing tile edges cover \(shapeStart) shape points of \(shapeCount)")
        }
        t.shapeLatE7.reserveCapacity(shapeCount)
        t.shapeLonE7.reserveCapacity(shapeCount)
        (lat, lon) = (0, 0)
        for i in 0..<shapeCount {
            lat &+= try r.svarint()
            lon &+= try r.svarint()
            guard let la = Int32(exactly: lat), let lo = Int32(exactly: lon) else {
                throw BinaryFormatError(offset: r.offset, "routing tile shape point \(i) out of range")
            }
            t.shapeLatE7.append(la)
            t.shapeLonE7.append(lo)
        }
        t.strings = []
        t.strings.reserveCapacity(stringCount)
        for _ in 0..<stringCount { t.strings.append(try r.string()) }
        t.tagSetFirst = [0]
        t.tagSetFirst.reserveCapacity(tagSetCount + 1)
        for _ in 0..<tagSetCount {
            let pairs = Int(clamping: try r.varint())
            guard pairs <= r.remaining / 2 else {
                throw BinaryFormatError(offset: r.offset, "routing tile tag set \(t.tagSetCount) runs past the tile")
            }
            for _ in 0..<pairs {
                let key = try r.varint(), value = try r.varint()
                guard key < UInt64(stringCount), value < UInt64(stringCount) else {
                    throw BinaryFormatError(offset: r.offset, "routing tile tag set \(t.tagSetCount) refers outside the strings")
                }
                t.tagKeys.append(UInt32(key))
                t.tagValues.append(UInt32(value))
            }
            t.tagSetFirst.append(UInt32(t.tagKeys.count))
        }
        t.restrictions.reserveCapacity(restrictionCount)
        for _ in 0..<restrictionCount {
            let from = try r.i64(), to = try r.i64(), tags = try r.u32(), members = try r.u8(), viaWays = Int(try r.u8())
            guard (viaWays * 2 + 1) * 8 <= r.remaining else {
                throw BinaryFormatError(offset: r.offset, "routing tile restriction \(t.restrictions.count) runs past the tile")
            }
            var nodes: [Int64] = [], ways: [Int64] = []
            for _ in 0...viaWays { nodes.append(try r.i64()) }
            for _ in 0..<viaWays { ways.append(try r.i64()) }
            t.restrictions.append(.init(nodeOsmIds: nodes, fromWayId: from, viaWayIds: ways, toWayId: to, tags: tags, members: members))
        }
        guard r.isAtEnd else { throw BinaryFormatError(offset: r.offset, "\(r.remaining) unexpected bytes after the routing tile") }
        if let problem = t.contentProblem() { throw BinaryFormatError(offset: 0, "routing tile \(t.tileId): \(problem)") }
        return t
    }
}
