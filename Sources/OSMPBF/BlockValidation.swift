import OSMPBFProto

extension PrimitiveBlock {
    /// Checks every index and array length once, so iteration can run without checks
    /// and a hostile file cannot make it read out of bounds. Returns what is wrong, or nil.
    func validate() -> String? {
        guard raw.pointee.stringtable != nil else { return "no string table" }
        guard granularity > 0 else { return "granularity \(granularity) is not positive" }
        guard dateGranularity > 0 else { return "date granularity \(dateGranularity) is not positive" }
        let n = stringCount
        for i in 0..<n where strings![i].len > 0 && strings![i].data == nil { return "string \(i) has no bytes" }
        @inline(__always) func validIndex(_ i: Int) -> Bool { i >= 0 && i < n }

        // `what` is built only for the message: a String per object would cost more than the check.
        func checkKeysVals(_ keys: UnsafeMutablePointer<UInt32>?, _ nk: Int,
                           _ vals: UnsafeMutablePointer<UInt32>?, _ nv: Int, _ what: @autoclosure () -> String) -> String? {
            guard nk == nv else { return "\(what()) has \(nk) keys but \(nv) values" }
            for i in 0..<nk where !validIndex(Int(keys![i])) || !validIndex(Int(vals![i])) {
                return "\(what()) tag \(i) refers to a string outside the table"
            }
            return nil
        }

        for (gi, group) in groups.enumerated() {
            guard let g = group?.pointee else { return "group \(gi) missing" }
            if let d = g.dense?.pointee {
                guard d.n_lat == d.n_id, d.n_lon == d.n_id else {
                    return "dense nodes have \(d.n_id) ids, \(d.n_lat) latitudes, \(d.n_lon) longitudes"
                }
                if d.n_keys_vals > 0 {
                    // (key, value)* 0 per node, one run per node.
                    var pos = 0, nodes = 0
                    let kv = d.keys_vals!
                    while pos < d.n_keys_vals {
                        if kv[pos] == 0 { nodes += 1; pos += 1; continue }
                        guard pos + 1 < d.n_keys_vals else { return "dense node tags end in the middle of a pair" }
                        guard validIndex(Int(kv[pos])), validIndex(Int(kv[pos + 1])) else {
                            return "dense node tag refers to a string outside the table"
                        }
                        pos += 2
                    }
                    guard nodes == d.n_id else { return "dense node tags describe \(nodes) nodes, block has \(d.n_id)" }
                }
                // Coordinates (deltas summed as the reader sums them, wrapping) must lie on the globe:
                // consumers convert them to fixed-width types without further checks.
                var lat: Int64 = 0, lon: Int64 = 0
                for i in 0..<d.n_id {
                    lat &+= d.lat[i]
                    lon &+= d.lon[i]
                    if !onGlobe(latitude(lat), longitude(lon)) { return "dense node \(i) lies off the globe" }
                }
                if let info = d.denseinfo?.pointee {
                    for count in [info.n_version, info.n_timestamp, info.n_changeset, info.n_uid, info.n_user_sid]
                    where count != 0 && count != d.n_id {
                        return "dense info column of \(count) entries for \(d.n_id) nodes"
                    }
                }
            }
            for i in 0..<g.n_nodes {
                guard let node = g.nodes[i]?.pointee else { return "node \(i) missing" }
                if !onGlobe(latitude(node.lat), longitude(node.lon)) { return "node \(node.id) lies off the globe" }
                if let p = checkKeysVals(node.keys, node.n_keys, node.vals, node.n_vals, "node \(node.id)") { return p }
            }
            for i in 0..<g.n_ways {
                guard let way = g.ways[i]?.pointee else { return "way \(i) missing" }
                if let p = checkKeysVals(way.keys, way.n_keys, way.vals, way.n_vals, "way \(way.id)") { return p }
            }
            for i in 0..<g.n_relations {
                guard let rel = g.relations[i]?.pointee else { return "relation \(i) missing" }
                if let p = checkKeysVals(rel.keys, rel.n_keys, rel.vals, rel.n_vals, "relation \(rel.id)") { return p }
                guard rel.n_roles_sid == rel.n_memids, rel.n_types == rel.n_memids else {
                    return "relation \(rel.id) has \(rel.n_memids) members but \(rel.n_roles_sid) roles and \(rel.n_types) types"
                }
                for m in 0..<rel.n_memids {
                    guard validIndex(Int(rel.roles_sid[m])) else { return "relation \(rel.id) role refers to a string outside the table" }
                    guard (0...2).contains(rel.types[m].rawValue) else { return "relation \(rel.id) has member type \(rel.types[m].rawValue)" }
                }
            }
        }
        return nil
    }

    /// Nanodegrees within ±90° latitude and ±180° longitude.
    @inline(__always) func onGlobe(_ latNano: Int64, _ lonNano: Int64) -> Bool {
        (-90_000_000_000...90_000_000_000).contains(latNano) && (-180_000_000_000...180_000_000_000).contains(lonNano)
    }
}
