import OSMPBF
import RoutingProfile

/// Reads the routable network from a PBF file in two passes: ways and restriction relations
/// first (`RoutingTagSchema` decides which ways any mode may use, and which of their tags to
/// keep), then the coordinates and tags of the nodes those ways use. Both passes decode blocks
/// on all cores; results are merged in file order, so the network is the same whatever the
/// thread timing.
public struct RoadNetworkReader {
    public init() {}

    public func read(_ reader: PBFReader, progress: ((Int64) -> Void)? = nil) throws -> RoadNetwork {
        // Pass 1 skips node blocks without decoding them; a file whose node blocks also hold
        // ways or relations (no writer does this, the format allows it) is read again in full.
        if let net = try read(reader, skipNodeBlocks: true, progress: progress) { return net }
        return try read(reader, skipNodeBlocks: false, progress: progress)!
    }

    /// The network, or nil when `skipNodeBlocks` skipped a block that turned out to hold ways or relations.
    func read(_ reader: PBFReader, skipNodeBlocks: Bool, progress: ((Int64) -> Void)?) throws -> RoadNetwork? {
        var net = RoadNetwork()
        // Object timestamps only matter when the header has no replication timestamp.
        let wantTimestamps = reader.header.replicationTimestamp == nil
        var nodeBlobs: [PBFReader.BlobLocation] = []
        var wayRefs: [Int64] = []
        var tagSets = TagSetInterner()

        // Pass 1: ways and relations.
        var skipped = Set<Int>()
        let pass1Progress = progress.map { p in { p($0 / 2) } }
        let map = { (block: PrimitiveBlock) in WayPassResult(block: block, wantTimestamps: wantTimestamps) }
        let reduce = { (location: PBFReader.BlobLocation, result: WayPassResult?) in
            guard let r = result else {
                nodeBlobs.append(location)
                skipped.insert(location.index)
                return
            }
            if r.hasNodes { nodeBlobs.append(location) }
            if let t = r.newestTimestamp { net.newestTimestamp = max(net.newestTimestamp ?? t, t) }
            let strings = r.tags.strings.map { tagSets.intern(string: $0) }
            for i in 0..<r.wayIds.count {
                net.wayIds.append(r.wayIds[i])
                wayRefs.append(contentsOf: r.refs[r.refStart[i]..<r.refStart[i + 1]])
                net.wayNodeStart.append(wayRefs.count)
                net.wayTags.append(tagSets.intern(r.tags, object: i, strings: strings))
            }
            let relationStrings = r.relationTags.strings.map { tagSets.intern(string: $0) }
            for var restriction in r.restrictions {
                restriction.tags = tagSets.intern(r.relationTags, object: Int(restriction.tags), strings: relationStrings)
                net.restrictions.append(restriction)
            }
            net.restrictionsSkipped += r.restrictionsSkipped
        }
        if skipNodeBlocks {
            try reader.forEachBlockSkippingNodeBlocks(progress: pass1Progress, map: map, reduce: reduce)
        } else {
            try reader.forEachBlock(progress: pass1Progress, map: map, reduce: reduce)
        }

        // The nodes the routable ways use, sorted and unique; ways then refer to them by index.
        var ids = wayRefs
        ids.sort()
        var unique = 0
        for i in 0..<ids.count where i == 0 || ids[i] != ids[unique - 1] {
            ids[unique] = ids[i]
            unique += 1
        }
        ids.removeSubrange(unique...)
        net.nodeIds = ids
        net.wayNodes = ids.withUnsafeBufferPointer { sorted in
            wayRefs.map { Int32(lowerBound(sorted, $0)) }
        }
        wayRefs = []
        net.nodeLatE7 = [Int32](repeating: RoadNetwork.missingCoordinate, count: ids.count)
        net.nodeLonE7 = [Int32](repeating: RoadNetwork.missingCoordinate, count: ids.count)
        net.nodeTags = [UInt32](repeating: 0, count: ids.count)

        // Pass 2: coordinates and tags of those nodes, reading only blobs that hold nodes.
        var mixedBlock = false
        let neededIds = net.nodeIds
        try reader.forEachBlock(only: nodeBlobs, progress: progress.map { p in { p(reader.fileSize / 2 + $0 / 2) } }, map: { block in
            NodePassResult(block: block, neededIds: neededIds, wantTimestamps: wantTimestamps)
        }, reduce: { location, r in
            if skipped.contains(location.index) {
                if r.holdsWaysOrRelations { mixedBlock = true }
                if let t = r.newestTimestamp { net.newestTimestamp = max(net.newestTimestamp ?? t, t) }
            }
            let strings = r.tags.strings.map { tagSets.intern(string: $0) }
            for i in 0..<r.indexes.count {
                let n = Int(r.indexes[i])
                net.nodeLatE7[n] = r.latE7[i]
                net.nodeLonE7[n] = r.lonE7[i]
            }
            for (k, i) in r.tagged.enumerated() { net.nodeTags[Int(r.indexes[i])] = tagSets.intern(r.tags, object: k, strings: strings) }
        })
        net.strings = tagSets.strings
        net.tagSetFirst = tagSets.setFirst
        net.tagKeys = tagSets.keys
        net.tagValues = tagSets.values
        return mixedBlock ? nil : net
    }
}

/// Pass 1's harvest from one block (computed on a decoding thread).
struct WayPassResult {
    var hasNodes = false
    var newestTimestamp: Int64?
    var wayIds: [Int64] = []
    var refStart: [Int] = [0]
    var refs: [Int64] = []
    /// Way i's kept tags are `tags` object i.
    var tags = BlockTagSets()
    /// Restriction records; a record's `tags` is its relation's object in `relationTags`.
    var restrictions: [RestrictionRecord] = []
    var relationTags = BlockTagSets()
    var restrictionsSkipped = 0

    init(block: PrimitiveBlock, wantTimestamps: Bool) {
        hasNodes = block.nodeCount > 0
        if wantTimestamps { newestTimestamp = block.timestampRange()?.max }
        let keys = (highway: block.stringIndex(of: "highway"), route: block.stringIndex(of: "route"),
                    railway: block.stringIndex(of: "railway"), publicTransport: block.stringIndex(of: "public_transport"),
                    manMade: block.stringIndex(of: "man_made"))
        if keys.highway != nil || keys.route != nil || keys.railway != nil || keys.publicTransport != nil || keys.manMade != nil {
            // The schema's verdict per key (a string-table index), asked once per block: 0 not asked yet, 1 kept, 2 not.
            var keptKey = [UInt8](repeating: 0, count: block.stringCount)
            func value(_ key: Int?, _ tags: Tags) -> String? { key.flatMap { tags.value(forKey: $0) }.map { block.string($0).string } }
            block.forEachWay { way in
                guard way.refCount >= 2,
                      RoutingTagSchema.isRoutableWay(highway: value(keys.highway, way.tags), route: value(keys.route, way.tags),
                                                     railway: value(keys.railway, way.tags),
                                                     publicTransport: value(keys.publicTransport, way.tags),
                                                     manMade: value(keys.manMade, way.tags)) else { return }
                wayIds.append(way.id)
                way.appendRefs(to: &refs)
                refStart.append(refs.count)
                tags.add(block, way.tags, verdicts: &keptKey, keeps: RoutingTagSchema.keepsWayKey)
            }
        }
        if let typeKey = block.stringIndex(of: "type"), let restrictionValue = block.stringIndex(of: "restriction") {
            let roles = (from: block.stringIndex(of: "from"), via: block.stringIndex(of: "via"), to: block.stringIndex(of: "to"))
            var keptKey = [UInt8](repeating: 0, count: block.stringCount)
            block.forEachRelation { rel in
                guard rel.tags.value(forKey: typeKey) == restrictionValue else { return }
                var from: [Int64] = [], via: [Int64] = [], to: [Int64] = [], viaWays: [Int64] = []
                rel.forEachMember { type, id, role in
                    switch (type, role) {
                    case (.way, roles.from): from.append(id)
                    case (.way, roles.to): to.append(id)
                    case (.node, roles.via): via.append(id)
                    case (.way, roles.via): viaWays.append(id)
                    default: break
                    }
                }
                // One via: a node, or ways in order. Several from ways only for no_entry, several
                // to ways only for no_exit (as OSRM), in any of the relation's restriction values
                // (each profile checks its own): each gives one record.
                var values: [String] = []
                for i in 0..<rel.tags.count where block.string(rel.tags.key(i)).string.hasPrefix("restriction") {
                    values.append(block.string(rel.tags.value(i)).string)
                }
                let noEntry = values.contains { $0.contains("no_entry") }, noExit = values.contains { $0.contains("no_exit") }
                guard !from.isEmpty, !to.isEmpty, (via.count == 1 && viaWays.isEmpty) || (via.isEmpty && !viaWays.isEmpty),
                      from.count == 1 || (noEntry && to.count == 1),
                      to.count == 1 || (noExit && from.count == 1) else {
                    restrictionsSkipped += 1
                    return
                }
                let object = UInt32(relationTags.objectCount)
                relationTags.add(block, rel.tags, verdicts: &keptKey, keeps: RoutingTagSchema.keepsRelationKey)
                let members = (from.count > 1 ? RestrictionMembers.severalFrom : 0) | (to.count > 1 ? RestrictionMembers.severalTo : 0)
                for f in from {
                    for t in to {
                        restrictions.append(RestrictionRecord(relationId: rel.id, fromWayId: f, viaNodeId: via.first ?? 0,
                                                              toWayId: t, viaWayIds: viaWays, tags: object, members: members))
                    }
                }
            }
        }
    }
}

/// Pass 2's harvest from one block: coordinates of the needed nodes it holds, and the kept tags
/// of those that end edges (`RoutingTagSchema.endsEdges`).
struct NodePassResult {
    var indexes: [Int32] = []
    var latE7: [Int32] = []
    var lonE7: [Int32] = []
    /// Positions in `indexes` of the nodes with kept tags, in order; the k-th is `tags` object k.
    var tagged: [Int] = []
    var tags = BlockTagSets()
    /// For blocks pass 1 skipped: what it would have needed from them.
    var holdsWaysOrRelations = false
    var newestTimestamp: Int64?

    init(block: PrimitiveBlock, neededIds: [Int64], wantTimestamps: Bool) {
        holdsWaysOrRelations = block.wayCount > 0 || block.relationCount > 0
        if wantTimestamps { newestTimestamp = block.timestampRange()?.max }
        var keptKey = [UInt8](repeating: 0, count: block.stringCount)
        neededIds.withUnsafeBufferPointer { needed in
            var p = 0
            var previous = Int64.max
            block.forEachNode { node in
                // Files sorted by id need one search per block (its first node: walking from the
                // start of `needed` in every block would be quadratic) and then a forward walk;
                // unsorted ones a search per node.
                if node.id < previous { p = lowerBound(needed, node.id) }
                previous = node.id
                while p < needed.count && needed[p] < node.id { p += 1 }
                guard p < needed.count, needed[p] == node.id else { return }
                indexes.append(Int32(p))
                latE7.append(e7(node.latNano))
                lonE7.append(e7(node.lonNano))
                if node.tags.count > 0, tags.addIfEndsEdges(block, node.tags, verdicts: &keptKey) { tagged.append(indexes.count - 1) }
            }
        }
    }
}

/// Nanodegrees to OSM's 1e-7 fixed point, rounding to nearest.
@inline(__always) func e7(_ nano: Int64) -> Int32 {
    Int32(truncatingIfNeeded: (nano >= 0 ? nano + 50 : nano - 50) / 100)
}

