import OSMPBFProto
#if canImport(Glibc)
import Glibc
#endif

/// Bytes of one string-table entry, without copying.
public struct StringRef {
    public let bytes: UnsafeRawBufferPointer

    public var string: String { String(decoding: bytes, as: UTF8.self) }

    public func equals(_ s: StaticString) -> Bool {
        s.withUTF8Buffer { other in
            other.count == bytes.count && (other.count == 0 || memcmp(other.baseAddress!, bytes.baseAddress!, other.count) == 0)
        }
    }
}

/// A decoded PrimitiveBlock, read in place from protobuf-c's structures.
/// Valid only inside the callback that received it: the memory belongs to a decoding arena.
public struct PrimitiveBlock {
    let raw: UnsafeMutablePointer<OSMPBF__PrimitiveBlock>
    /// Index of the blob in the file (0 is the header blob).
    public let blobIndex: Int
    /// Byte offset of the blob's frame in the file.
    public let fileOffset: Int64

    let granularity: Int64
    let latOffset: Int64
    let lonOffset: Int64
    let dateGranularity: Int64
    let strings: UnsafeMutablePointer<ProtobufCBinaryData>?
    public let stringCount: Int

    init(_ raw: UnsafeMutablePointer<OSMPBF__PrimitiveBlock>, blobIndex: Int, fileOffset: Int64) {
        self.raw = raw
        self.blobIndex = blobIndex
        self.fileOffset = fileOffset
        let b = raw.pointee
        granularity = Int64(b.has_granularity != 0 ? b.granularity : 100)
        latOffset = b.has_lat_offset != 0 ? b.lat_offset : 0
        lonOffset = b.has_lon_offset != 0 ? b.lon_offset : 0
        dateGranularity = Int64(b.has_date_granularity != 0 ? b.date_granularity : 1000)
        strings = b.stringtable?.pointee.s
        stringCount = b.stringtable?.pointee.n_s ?? 0
    }

    /// The string-table entry `i`; `i` must be below `stringCount` (validated on decode).
    @inline(__always) public func string(_ i: Int) -> StringRef {
        let s = strings![i]
        return StringRef(bytes: UnsafeRawBufferPointer(start: s.data, count: s.len))
    }

    /// The index of `s` in this block's string table, or nil. Lets a caller compare tag keys
    /// as integers for a whole block instead of comparing strings per object.
    public func stringIndex(of s: StaticString) -> Int? {
        for i in 1..<max(stringCount, 1) where string(i).equals(s) { return i }
        return nil
    }

    var groups: UnsafeBufferPointer<UnsafeMutablePointer<OSMPBF__PrimitiveGroup>?> {
        UnsafeBufferPointer(start: raw.pointee.primitivegroup, count: raw.pointee.n_primitivegroup)
    }

    public var nodeCount: Int {
        groups.reduce(0) { $0 + ($1.map { $0.pointee.n_nodes + ($0.pointee.dense?.pointee.n_id ?? 0) } ?? 0) }
    }
    public var wayCount: Int { groups.reduce(0) { $0 + ($1?.pointee.n_ways ?? 0) } }
    public var relationCount: Int { groups.reduce(0) { $0 + ($1?.pointee.n_relations ?? 0) } }

    @inline(__always) func latitude(_ raw: Int64) -> Int64 { latOffset &+ granularity &* raw }
    @inline(__always) func longitude(_ raw: Int64) -> Int64 { lonOffset &+ granularity &* raw }

    // MARK: - Objects

    public func forEachNode(_ body: (Node) throws -> Void) rethrows {
        for g in groups {
            guard let g = g?.pointee else { continue }
            if let dense = g.dense?.pointee, dense.n_id > 0 {
                let ids = dense.id!, lats = dense.lat!, lons = dense.lon!
                let kv = dense.keys_vals
                let kvCount = dense.n_keys_vals
                var id: Int64 = 0, lat: Int64 = 0, lon: Int64 = 0
                var kvPos = 0
                for i in 0..<dense.n_id {
                    id &+= ids[i]
                    lat &+= lats[i]
                    lon &+= lons[i]
                    var tags = Tags.empty
                    if let kv, kvPos < kvCount {
                        let start = kvPos
                        while kvPos < kvCount && kv[kvPos] != 0 { kvPos += 2 }
                        tags = Tags(dense: kv + start, pairs: (kvPos - start) / 2)
                        kvPos += 1
                    }
                    try body(Node(id: id, latNano: latitude(lat), lonNano: longitude(lon), tags: tags))
                }
            }
            for i in 0..<g.n_nodes {
                let n = g.nodes[i]!.pointee
                try body(Node(id: n.id, latNano: latitude(n.lat), lonNano: longitude(n.lon),
                              tags: Tags(keys: n.keys, vals: n.vals, count: n.n_keys)))
            }
        }
    }

    public func forEachWay(_ body: (Way) throws -> Void) rethrows {
        for g in groups {
            guard let g = g?.pointee, g.n_ways > 0 else { continue }
            for i in 0..<g.n_ways {
                let w = g.ways[i]!.pointee
                try body(Way(id: w.id, tags: Tags(keys: w.keys, vals: w.vals, count: w.n_keys),
                             deltaRefs: UnsafeBufferPointer(start: w.refs, count: w.n_refs)))
            }
        }
    }

    public func forEachRelation(_ body: (Relation) throws -> Void) rethrows {
        for g in groups {
            guard let g = g?.pointee, g.n_relations > 0 else { continue }
            for i in 0..<g.n_relations {
                let r = g.relations[i]!.pointee
                try body(Relation(id: r.id, tags: Tags(keys: r.keys, vals: r.vals, count: r.n_keys),
                                  roles: r.roles_sid, deltaIds: r.memids, types: r.types, memberCount: r.n_memids))
            }
        }
    }

    /// Oldest and newest object timestamps in seconds, when the block carries metadata.
    public func timestampRange() -> (min: Int64, max: Int64)? {
        var lo = Int64.max, hi = Int64.min
        for g in groups {
            guard let g = g?.pointee else { continue }
            if let info = g.dense?.pointee.denseinfo?.pointee, info.n_timestamp > 0 {
                var t: Int64 = 0
                for i in 0..<info.n_timestamp {
                    t &+= info.timestamp[i]
                    lo = min(lo, t); hi = max(hi, t)
                }
            }
            func visit(_ info: UnsafeMutablePointer<OSMPBF__Info>?) {
                guard let i = info?.pointee, i.has_timestamp != 0 else { return }
                lo = min(lo, i.timestamp); hi = max(hi, i.timestamp)
            }
            for i in 0..<g.n_nodes { visit(g.nodes[i]!.pointee.info) }
            for i in 0..<g.n_ways { visit(g.ways[i]!.pointee.info) }
            for i in 0..<g.n_relations { visit(g.relations[i]!.pointee.info) }
        }
        guard lo <= hi else { return nil }
        return (lo &* dateGranularity / 1000, hi &* dateGranularity / 1000)
    }
}

/// An object's tags as string-table indices.
public struct Tags {
    // Dense nodes interleave key and value; other objects have two arrays.
    let dense: UnsafeMutablePointer<Int32>?
    let keys: UnsafeMutablePointer<UInt32>?
    let vals: UnsafeMutablePointer<UInt32>?
    public let count: Int

    static let empty = Tags(keys: nil, vals: nil, count: 0)

    init(dense: UnsafeMutablePointer<Int32>, pairs: Int) {
        self.dense = dense; keys = nil; vals = nil; count = pairs
    }

    init(keys: UnsafeMutablePointer<UInt32>?, vals: UnsafeMutablePointer<UInt32>?, count: Int) {
        dense = nil; self.keys = keys; self.vals = vals; self.count = count
    }

    @inline(__always) public func key(_ i: Int) -> Int {
        if let dense { return Int(dense[2 * i]) }
        return Int(keys![i])
    }

    @inline(__always) public func value(_ i: Int) -> Int {
        if let dense { return Int(dense[2 * i + 1]) }
        return Int(vals![i])
    }

    /// The value's string index for a key's string index, or nil.
    @inline(__always) public func value(forKey key: Int) -> Int? {
        for i in 0..<count where self.key(i) == key { return value(i) }
        return nil
    }
}

public struct Node {
    public let id: Int64
    /// Coordinates in nanodegrees (exact; the PBF's own resolution).
    public let latNano: Int64
    public let lonNano: Int64
    public let tags: Tags
    public var lat: Double { Double(latNano) / 1e9 }
    public var lon: Double { Double(lonNano) / 1e9 }
}

public struct Way {
    public let id: Int64
    public let tags: Tags
    let deltaRefs: UnsafeBufferPointer<Int64>
    public var refCount: Int { deltaRefs.count }

    public func forEachRef(_ body: (Int64) throws -> Void) rethrows {
        var ref: Int64 = 0
        for d in deltaRefs {
            ref &+= d
            try body(ref)
        }
    }

    /// Node ids appended to `out` (the caller reuses one array for every way).
    public func appendRefs(to out: inout [Int64]) {
        var ref: Int64 = 0
        for d in deltaRefs {
            ref &+= d
            out.append(ref)
        }
    }
}

public struct Relation {
    public enum MemberType: UInt8 { case node = 0, way = 1, relation = 2 }
    public let id: Int64
    public let tags: Tags
    let roles: UnsafeMutablePointer<Int32>?
    let deltaIds: UnsafeMutablePointer<Int64>?
    let types: UnsafeMutablePointer<OSMPBF__Relation__MemberType>?
    public let memberCount: Int

    /// Members in order: type, id and the role's string index.
    public func forEachMember(_ body: (MemberType, Int64, Int) throws -> Void) rethrows {
        var id: Int64 = 0
        for i in 0..<memberCount {
            id &+= deltaIds![i]
            let type = MemberType(rawValue: UInt8(truncatingIfNeeded: types![i].rawValue)) ?? .node
            try body(type, id, Int(roles![i]))
        }
    }
}
