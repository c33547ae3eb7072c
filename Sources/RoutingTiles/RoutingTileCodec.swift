import OffgridCore

/// The routing tile's byte layout (docs/FORMATS.md, "Routing tile"): magic, version, a CRC32 of
/// everything after it, then a header and fixed-width arrays. Little-endian throughout.
/// (The checksum sits at the front: a CRC appended at the end would make every tile's
/// whole-file CRC the same constant, useless for telling tiles apart in manifests.)
///
/// Version 2 dropped the data version from the tile (it lives in the pack header and the
/// manifest), so unchanged roads give identical tile bytes in every data version. Version 3
/// made restriction records variable-length: via ways (in order), their junction nodes, and the
/// condition of a conditional restriction.
public enum RoutingTileCodec {
    public static let magic: [UInt8] = Array("OGRTILE\0".utf8)
    public static let version: UInt32 = 3
    /// The fewest bytes a restriction record takes (a via node, no condition).
    static let minimumRestrictionBytes = 30
    static let checksumOffset = 12

    public static func encode(_ t: RoutingTile) -> [UInt8] {
        var w = ByteWriter(capacity: 64 + t.nodes.count * 17 + t.edges.count * 56 + t.shapeLatE7.count * 8)
        w.append(contentsOf: magic)
        w.u32(version)
        w.u32(0) // checksum, patched below
        w.u32(t.tileId)
        w.f64(t.gridDegrees)
        w.string(t.profileHash)
        w.u32(UInt32(t.nodes.count))
        w.u32(UInt32(t.edges.count))
        w.u32(UInt32(t.shapeLatE7.count))
        w.u32(UInt32(t.strings.count))
        w.u32(UInt32(t.restrictions.count))
        for n in t.nodes {
            w.i64(n.osmId); w.i32(n.latE7); w.i32(n.lonE7); w.u8(n.control)
        }
        for e in t.edges {
            w.u32(e.fromNode); w.i64(e.toNodeOsmId); w.i64(e.wayId)
            w.u32(e.shapeStart); w.u32(e.shapeCount); w.u32(e.lengthCm)
            w.u16(e.speedForwardDeciKmh); w.u16(e.speedBackwardDeciKmh)
            w.u8(e.flags); w.u8(e.roadClass)
            w.u32(e.name); w.u32(e.ref)
            w.u16(e.bearingStartDeci); w.u16(e.bearingEndDeci)
        }
        for i in 0..<t.shapeLatE7.count {
            w.i32(t.shapeLatE7[i]); w.i32(t.shapeLonE7[i])
        }
        for s in t.strings { w.string(s) }
        for r in t.restrictions {
            w.i64(r.fromWayId); w.i64(r.toWayId); w.u8(r.code); w.u8(UInt8(r.viaWayIds.count))
            for n in r.nodeOsmIds { w.i64(n) }
            for v in r.viaWayIds { w.i64(v) }
            w.string(r.condition)
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
        var t = RoutingTile(tileId: try r.u32(), gridDegrees: try r.f64(), profileHash: try r.string())
        let nodeCount = Int(try r.u32()), edgeCount = Int(try r.u32()), shapeCount = Int(try r.u32())
        let stringCount = Int(try r.u32()), restrictionCount = Int(try r.u32())
        // Counts are checked against the bytes left before allocating anything.
        let need = nodeCount * 17 + edgeCount * 50 + shapeCount * 8 + stringCount * 4 + restrictionCount * minimumRestrictionBytes
        guard need <= r.remaining else {
            throw BinaryFormatError(offset: r.offset, "routing tile counts need \(need) bytes, \(r.remaining) left")
        }
        t.nodes.reserveCapacity(nodeCount)
        for _ in 0..<nodeCount {
            t.nodes.append(.init(osmId: try r.i64(), latE7: try r.i32(), lonE7: try r.i32(), control: try r.u8()))
        }
        t.edges.reserveCapacity(edgeCount)
        for _ in 0..<edgeCount {
            let e = RoutingTile.Edge(
                fromNode: try r.u32(), toNodeOsmId: try r.i64(), wayId: try r.i64(),
                shapeStart: try r.u32(), shapeCount: try r.u32(), lengthCm: try r.u32(),
                speedForwardDeciKmh: try r.u16(), speedBackwardDeciKmh: try r.u16(),
                flags: try r.u8(), roadClass: try r.u8(), name: try r.u32(), ref: try r.u32(),
                bearingStartDeci: try r.u16(), bearingEndDeci: try r.u16())
            guard Int(e.fromNode) < nodeCount, Int(e.shapeStart) + Int(e.shapeCount) <= shapeCount, e.shapeCount >= 2,
                  Int(e.name) < stringCount, Int(e.ref) < stringCount else {
                throw BinaryFormatError(offset: r.offset, "routing tile edge \(t.edges.count) refers outside the tile")
            }
            t.edges.append(e)
        }
        t.shapeLatE7.reserveCapacity(shapeCount)
        t.shapeLonE7.reserveCapacity(shapeCount)
        for _ in 0..<shapeCount {
            t.shapeLatE7.append(try r.i32())
            t.shapeLonE7.append(try r.i32())
        }
        t.strings = []
        t.strings.reserveCapacity(stringCount)
        for _ in 0..<stringCount { t.strings.append(try r.string()) }
        t.restrictions.reserveCapacity(restrictionCount)
        for _ in 0..<restrictionCount {
            let from = try r.i64(), to = try r.i64(), code = try r.u8(), viaWays = Int(try r.u8())
            guard (viaWays * 2 + 1) * 8 + 4 <= r.remaining else {
                throw BinaryFormatError(offset: r.offset, "routing tile restriction \(t.restrictions.count) runs past the tile")
            }
            var nodes: [Int64] = [], ways: [Int64] = []
            for _ in 0...viaWays { nodes.append(try r.i64()) }
            for _ in 0..<viaWays { ways.append(try r.i64()) }
            t.restrictions.append(.init(nodeOsmIds: nodes, fromWayId: from, viaWayIds: ways, toWayId: to, code: code,
                                        condition: try r.string()))
        }
        guard r.isAtEnd else { throw BinaryFormatError(offset: r.offset, "\(r.remaining) unexpected bytes after the routing tile") }
        if let problem = t.contentProblem() { throw BinaryFormatError(offset: 0, "routing tile \(t.tileId): \(problem)") }
        return t
    }
}
