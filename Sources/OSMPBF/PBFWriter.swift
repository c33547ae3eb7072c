import OffgridCore

/// OSM objects to write (small files: test fixtures, hand-made networks).
public struct OSMNode {
    public var id: Int64, lat: Double, lon: Double, tags: [(String, String)]
    public init(id: Int64, lat: Double, lon: Double, tags: [(String, String)] = []) {
        self.id = id; self.lat = lat; self.lon = lon; self.tags = tags
    }
}

public struct OSMWay {
    public var id: Int64, refs: [Int64], tags: [(String, String)]
    public init(id: Int64, refs: [Int64], tags: [(String, String)] = []) {
        self.id = id; self.refs = refs; self.tags = tags
    }
}

public struct OSMRelation {
    public var id: Int64, members: [(type: Relation.MemberType, ref: Int64, role: String)], tags: [(String, String)]
    public init(id: Int64, members: [(type: Relation.MemberType, ref: Int64, role: String)], tags: [(String, String)] = []) {
        self.id = id; self.members = members; self.tags = tags
    }
}

/// Writes OSM PBF files: an OSMHeader blob, then one OSMData blob per object kind
/// (DenseNodes, ways, relations), zlib-compressed or raw. The protobuf encoding is written
/// directly here; reading goes through protoc-c's generated code, so the two check each other.
public struct PBFWriter {
    public var bbox: (minLon: Double, minLat: Double, maxLon: Double, maxLat: Double)?
    public var requiredFeatures = ["OsmSchema-V0.6", "DenseNodes"]
    public var replicationTimestamp: Int64?
    public var replicationSequenceNumber: Int64?
    public var compress = true
    /// Everything in one block and one group (nodes, then ways, then relations), which the format
    /// allows and no common writer does: for testing readers that skip node blocks.
    public var singleBlock = false

    public init() {}

    public func encode(nodes: [OSMNode], ways: [OSMWay], relations: [OSMRelation]) -> [UInt8] {
        var out: [UInt8] = []
        out += frame(type: "OSMHeader", payload: headerBlock())
        if singleBlock {
            return out + frame(type: "OSMData", payload: primitiveBlock(nodes: nodes, ways: ways, relations: relations))
        }
        if !nodes.isEmpty { out += frame(type: "OSMData", payload: primitiveBlock(nodes: nodes)) }
        if !ways.isEmpty { out += frame(type: "OSMData", payload: primitiveBlock(ways: ways)) }
        if !relations.isEmpty { out += frame(type: "OSMData", payload: primitiveBlock(relations: relations)) }
        return out
    }

    // MARK: - Blocks

    func headerBlock() -> [UInt8] {
        var m = ProtoMessage()
        if let b = bbox {
            var box = ProtoMessage()
            box.sint(1, Int64((b.minLon * 1e9).rounded()))
            box.sint(2, Int64((b.maxLon * 1e9).rounded()))
            box.sint(3, Int64((b.maxLat * 1e9).rounded()))
            box.sint(4, Int64((b.minLat * 1e9).rounded()))
            m.bytes(1, box.bytes)
        }
        for f in requiredFeatures { m.string(4, f) }
        m.string(16, "offgrid")
        if let t = replicationTimestamp { m.uint(32, UInt64(bitPattern: t)) }
        if let s = replicationSequenceNumber { m.uint(33, UInt64(bitPattern: s)) }
        return m.bytes
    }

    func primitiveBlock(nodes: [OSMNode] = [], ways: [OSMWay] = [], relations: [OSMRelation] = []) -> [UInt8] {
        var table = StringTableBuilder()
        var group = ProtoMessage()
        if !nodes.isEmpty {
            var dense = ProtoMessage()
            var ids: [Int64] = [], lats: [Int64] = [], lons: [Int64] = [], kv: [Int64] = []
            var pid: Int64 = 0, plat: Int64 = 0, plon: Int64 = 0
            for n in nodes {
                let lat = Int64((n.lat * 1e7).rounded()), lon = Int64((n.lon * 1e7).rounded())
                ids.append(n.id - pid); lats.append(lat - plat); lons.append(lon - plon)
                pid = n.id; plat = lat; plon = lon
                for (k, v) in n.tags { kv.append(Int64(table.index(k))); kv.append(Int64(table.index(v))) }
                kv.append(0)
            }
            dense.packedSint(1, ids)
            dense.packedSint(8, lats)
            dense.packedSint(9, lons)
            if nodes.contains(where: { !$0.tags.isEmpty }) { dense.packedUint(10, kv.map { UInt64($0) }) }
            group.bytes(2, dense.bytes)
        }
        for w in ways {
            var m = ProtoMessage()
            m.uint(1, UInt64(bitPattern: w.id))
            m.packedUint(2, w.tags.map { UInt64(table.index($0.0)) })
            m.packedUint(3, w.tags.map { UInt64(table.index($0.1)) })
            var prev: Int64 = 0
            m.packedSint(8, w.refs.map { r in defer { prev = r }; return r - prev })
            group.bytes(3, m.bytes)
        }
        for r in relations {
            var m = ProtoMessage()
            m.uint(1, UInt64(bitPattern: r.id))
            m.packedUint(2, r.tags.map { UInt64(table.index($0.0)) })
            m.packedUint(3, r.tags.map { UInt64(table.index($0.1)) })
            m.packedUint(8, r.members.map { UInt64(table.index($0.role)) })
            var prev: Int64 = 0
            m.packedSint(9, r.members.map { mem in defer { prev = mem.ref }; return mem.ref - prev })
            m.packedUint(10, r.members.map { UInt64($0.type.rawValue) })
            group.bytes(4, m.bytes)
        }
        var block = ProtoMessage()
        var st = ProtoMessage()
        for s in table.strings { st.bytes(1, Array(s.utf8)) }
        block.bytes(1, st.bytes)
        block.bytes(2, group.bytes)
        return block.bytes
    }

    // MARK: - Framing

    func frame(type: String, payload: [UInt8]) -> [UInt8] {
        var blob = ProtoMessage()
        if compress {
            blob.uint(2, UInt64(payload.count))
            blob.bytes(3, Zlib.compress(payload))
        } else {
            blob.bytes(1, payload)
        }
        var header = ProtoMessage()
        header.string(1, type)
        header.uint(3, UInt64(blob.bytes.count))
        let n = UInt32(header.bytes.count)
        return [UInt8(n >> 24), UInt8((n >> 16) & 0xff), UInt8((n >> 8) & 0xff), UInt8(n & 0xff)] + header.bytes + blob.bytes
    }
}

struct StringTableBuilder {
    var strings: [String] = [""]
    var indexes: [String: Int] = ["": 0]
    mutating func index(_ s: String) -> Int {
        if let i = indexes[s] { return i }
        strings.append(s)
        indexes[s] = strings.count - 1
        return strings.count - 1
    }
}

/// Protocol-buffer wire encoding, just what the writer needs.
public struct ProtoMessage {
    public private(set) var bytes: [UInt8] = []
    public init() {}
    private mutating func varint(_ v: UInt64) {
        var v = v
        while v >= 0x80 { bytes.append(UInt8(truncatingIfNeeded: v) | 0x80); v >>= 7 }
        bytes.append(UInt8(v))
    }
    private mutating func key(_ field: Int, _ wire: Int) { varint(UInt64(field << 3 | wire)) }
    private static func zigzag(_ v: Int64) -> UInt64 { UInt64(bitPattern: (v << 1) ^ (v >> 63)) }

    public mutating func uint(_ field: Int, _ v: UInt64) { key(field, 0); varint(v) }
    public mutating func sint(_ field: Int, _ v: Int64) { key(field, 0); varint(Self.zigzag(v)) }
    public mutating func bytes(_ field: Int, _ b: [UInt8]) { key(field, 2); varint(UInt64(b.count)); bytes += b }
    public mutating func string(_ field: Int, _ s: String) { bytes(field, Array(s.utf8)) }
    public mutating func packedUint(_ field: Int, _ values: [UInt64]) {
        guard !values.isEmpty else { return }
        var inner = ProtoMessage()
        for v in values { inner.varint(v) }
        bytes(field, inner.bytes)
    }
    public mutating func packedSint(_ field: Int, _ values: [Int64]) {
        packedUint(field, values.map(Self.zigzag))
    }
}
