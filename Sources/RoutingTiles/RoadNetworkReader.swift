import OSMPBF
import RoutingProfile

/// Reads the drivable network from a PBF file in two passes: ways and restriction relations
/// first (the profile decides what is drivable), then the coordinates and control tags of the
/// nodes those ways use. Both passes decode blocks on all cores; results are merged in file
/// order, so the network is the same whatever the thread timing.
public struct RoadNetworkReader {
    public let profile: CarProfile

    public init(profile: CarProfile) { self.profile = profile }

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
        var stringIndex: [String: Int32] = ["": 0]
        func intern(_ s: String) -> Int32 {
            if let i = stringIndex[s] { return i }
            let i = Int32(net.strings.count)
            net.strings.append(s)
            stringIndex[s] = i
            return i
        }

        // Pass 1: ways and relations.
        let profile = self.profile
        var skipped = Set<Int>()
        let pass1Progress = progress.map { p in { p($0 / 2) } }
        let map = { (block: PrimitiveBlock) in WayPassResult(block: block, profile: profile, wantTimestamps: wantTimestamps) }
        let reduce = { (location: PBFReader.BlobLocation, result: WayPassResult?) in
            guard let r = result else {
                nodeBlobs.append(location)
                skipped.insert(location.index)
                return
            }
            if r.hasNodes { nodeBlobs.append(location) }
            if let t = r.newestTimestamp { net.newestTimestamp = max(net.newestTimestamp ?? t, t) }
            for i in 0..<r.wayIds.count {
                net.wayIds.append(r.wayIds[i])
                wayRefs.append(contentsOf: r.refs[r.refStart[i]..<r.refStart[i + 1]])
                net.wayNodeStart.append(wayRefs.count)
                let a = r.attributes[i]
                net.wayAttributes.append(WayRecord(roadClass: a.roadClass, speedForwardDeciKmh: a.speedForwardDeciKmh,
                                                   speedBackwardDeciKmh: a.speedBackwardDeciKmh, flags: a.flags,
                                                   name: intern(a.name), ref: intern(a.ref),
                                                   durationDeciseconds: a.durationDeciseconds))
            }
            net.restrictions.append(contentsOf: r.restrictions)
            net.restrictionsSkipped += r.restrictionsSkipped
        }
        if skipNodeBlocks {
            try reader.forEachBlockSkippingNodeBlocks(progress: pass1Progress, map: map, reduce: reduce)
        } else {
            try reader.forEachBlock(progress: pass1Progress, map: map, reduce: reduce)
        }

        // The nodes the drivable ways use, sorted and unique; ways then refer to them by index.
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
        net.nodeControl = [UInt8](repeating: 0, count: ids.count)

        // Pass 2: coordinates and controls of those nodes, reading only blobs that hold nodes.
        var mixedBlock = false
        let neededIds = net.nodeIds
        try reader.forEachBlock(only: nodeBlobs, progress: progress.map { p in { p(reader.fileSize / 2 + $0 / 2) } }, map: { block in
            NodePassResult(block: block, neededIds: neededIds, profile: profile, wantTimestamps: wantTimestamps)
        }, reduce: { location, r in
            if skipped.contains(location.index) {
                if r.holdsWaysOrRelations { mixedBlock = true }
                if let t = r.newestTimestamp { net.newestTimestamp = max(net.newestTimestamp ?? t, t) }
            }
            for i in 0..<r.indexes.count {
                let n = Int(r.indexes[i])
                net.nodeLatE7[n] = r.latE7[i]
                net.nodeLonE7[n] = r.lonE7[i]
                net.nodeControl[n] = r.control[i]
            }
        })
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
    var attributes: [EvaluatedWay] = []
    var restrictions: [RestrictionRecord] = []
    var restrictionsSkipped = 0

    struct EvaluatedWay {
        var roadClass: UInt8
        var speedForwardDeciKmh: UInt16
        var speedBackwardDeciKmh: UInt16
        var flags: UInt8
        var name: String
        var ref: String
        var durationDeciseconds: UInt32
    }

    init(block: PrimitiveBlock, profile: CarProfile, wantTimestamps: Bool) {
        hasNodes = block.nodeCount > 0
        if wantTimestamps { newestTimestamp = block.timestampRange()?.max }
        let highwayKey = block.stringIndex(of: "highway"), routeKey = block.stringIndex(of: "route")
        if highwayKey != nil || routeKey != nil {
            // The profile's verdict per highway value (a string-table index), asked once per block
            // and not once per way: 0 not asked yet, 1 drivable, 2 only if access tags open it.
            var drivable = [UInt8](repeating: 0, count: block.stringCount)
            // Keys whose presence can open an unknown highway value to cars.
            let accessKeys = wayAccessKeys.compactMap { block.stringIndex(of: $0) }
            let routeValues = ["ferry", "shuttle_train"].compactMap { block.stringIndex(of: $0) }
            block.forEachWay { way in
                guard way.refCount >= 2 else { return }
                if let v = highwayKey.flatMap({ way.tags.value(forKey: $0) }) {
                    if drivable[v] == 0 { drivable[v] = profile.mightBeDrivable(highwayValue: block.string(v).string) ? 1 : 2 }
                    guard drivable[v] == 1 || accessKeys.contains(where: { way.tags.value(forKey: $0) != nil })
                            || routeKey.flatMap({ way.tags.value(forKey: $0) }).map(routeValues.contains) == true else { return }
                } else {
                    guard let r = routeKey.flatMap({ way.tags.value(forKey: $0) }), routeValues.contains(r) else { return }
                }
                guard let a = profile.evaluateWay(tags: tagDictionary(block, way.tags)) else { return }
                var flags: UInt8 = 0
                if a.forward { flags |= EdgeFlags.forward }
                if a.backward { flags |= EdgeFlags.backward }
                if a.isRoundabout { flags |= EdgeFlags.roundabout }
                if a.restrictedForward { flags |= EdgeFlags.restrictedForward }
                if a.restrictedBackward { flags |= EdgeFlags.restrictedBackward }
                if !a.isStartpoint { flags |= EdgeFlags.notStartpoint }
                wayIds.append(way.id)
                way.appendRefs(to: &refs)
                refStart.append(refs.count)
                attributes.append(EvaluatedWay(roadClass: a.roadClass.rawValue,
                                               speedForwardDeciKmh: deciKmh(a.speedKmh),
                                               speedBackwardDeciKmh: deciKmh(a.speedBackwardKmh),
                                               flags: flags, name: a.name, ref: a.ref,
                                               durationDeciseconds: a.durationSeconds.map { UInt32(min(($0 * 10).rounded(), 4e9)) } ?? 0))
            }
        }
        if let typeKey = block.stringIndex(of: "type"), let restrictionValue = block.stringIndex(of: "restriction") {
            let roles = (from: block.stringIndex(of: "from"), via: block.stringIndex(of: "via"), to: block.stringIndex(of: "to"))
            block.forEachRelation { rel in
                guard rel.tags.value(forKey: typeKey) == restrictionValue,
                      let verdict = profile.evaluateRestrictionRelation(tags: tagDictionary(block, rel.tags)) else { return }
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
                // to ways only for no_exit (as OSRM): each gives one record.
                let kind = verdict.kind
                guard !from.isEmpty, !to.isEmpty, (via.count == 1 && viaWays.isEmpty) || (via.isEmpty && !viaWays.isEmpty),
                      from.count == 1 || (kind == .noEntry && to.count == 1),
                      to.count == 1 || (kind == .noExit && from.count == 1) else {
                    restrictionsSkipped += 1
                    return
                }
                for f in from {
                    for t in to {
                        restrictions.append(RestrictionRecord(relationId: rel.id, fromWayId: f, viaNodeId: via.first ?? 0,
                                                              toWayId: t, code: kind.code, viaWayIds: viaWays,
                                                              condition: verdict.condition))
                    }
                }
            }
        }
    }
}

/// Pass 2's harvest from one block: coordinates of the needed nodes it holds.
struct NodePassResult {
    var indexes: [Int32] = []
    var latE7: [Int32] = []
    var lonE7: [Int32] = []
    var control: [UInt8] = []
    /// For blocks pass 1 skipped: what it would have needed from them.
    var holdsWaysOrRelations = false
    var newestTimestamp: Int64?

    init(block: PrimitiveBlock, neededIds: [Int64], profile: CarProfile, wantTimestamps: Bool) {
        holdsWaysOrRelations = block.wayCount > 0 || block.relationCount > 0
        if wantTimestamps { newestTimestamp = block.timestampRange()?.max }
        // Keys that can give a node a control or make it a barrier: nodes without any are skipped.
        let controlKeys = nodeControlKeys.compactMap { block.stringIndex(of: $0) }
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
                var c: UInt8 = 0
                if node.tags.count > 0, controlKeys.contains(where: { node.tags.value(forKey: $0) != nil }) {
                    c = profile.nodeControl(tags: tagDictionary(block, node.tags)).flags
                }
                control.append(c)
            }
        }
    }
}

/// Keys whose presence can open a way with an unknown `highway=*` value to cars.
private let wayAccessKeys: [StaticString] = ["access", "access:forward", "access:backward", "vehicle", "vehicle:forward",
                                             "vehicle:backward", "motor_vehicle", "motor_vehicle:forward",
                                             "motor_vehicle:backward", "motorcar", "motorcar:forward", "motorcar:backward"]

/// Keys that can give a node a control or make it a barrier (`CarProfile.nodeControl`).
private let nodeControlKeys: [StaticString] = ["highway", "crossing", "barrier", "access", "vehicle", "motor_vehicle", "motorcar"]

/// An object's tags as a dictionary, built only for objects the profile must look at.
func tagDictionary(_ block: PrimitiveBlock, _ tags: Tags) -> [String: String] {
    var d = [String: String](minimumCapacity: tags.count)
    for i in 0..<tags.count { d[block.string(tags.key(i)).string] = block.string(tags.value(i)).string }
    return d
}

/// Nanodegrees to OSM's 1e-7 fixed point, rounding to nearest.
@inline(__always) func e7(_ nano: Int64) -> Int32 {
    Int32(truncatingIfNeeded: (nano >= 0 ? nano + 50 : nano - 50) / 100)
}

@inline(__always) func deciKmh(_ kmh: Double) -> UInt16 {
    UInt16(max(0, min(Double(UInt16.max), (kmh * 10).rounded())))
}
