import OffgridCore
import RoutingProfile
import RoutingTiles

/// What a profile makes of one routing tile's tags: each tag set of its ways judged once
/// (most edges of a tile share a handful of sets), each tagged node's control, and the
/// restrictions that apply to the profile's vehicle. Tiles keep every mode's roads and raw
/// tags; this is where one mode's graph is chosen from them.
struct TileVerdicts {
    /// By tag set: the way's attributes for the profile, nil where it may not use the way.
    var ways: [WayVerdict?]
    /// By tile node: `NodeControlFlags` bits.
    var nodeControl: [UInt8]
    var restrictions: [RoadRestriction] = []

    struct WayVerdict {
        var roadClass: UInt8
        var speedForwardDeciKmh: UInt16
        var speedBackwardDeciKmh: UInt16
        /// `EdgeFlags` bits.
        var flags: UInt8
        var name: String
        var ref: String
        /// Deciseconds to cross the whole way (`duration=*` of a ferry), 0 when not given:
        /// `RoadGraph` turns it into a speed once the way's length is known.
        var durationDeciseconds: UInt32
        /// `EdgeAttributes` bits (the tags', not the profile's).
        var attributes: UInt8 = 0
    }

    init(_ tile: RoutingTile, profile: TravelProfile) {
        var asked = [Bool](repeating: false, count: tile.tagSetCount)
        ways = [WayVerdict?](repeating: nil, count: tile.tagSetCount)
        for e in tile.edges where !asked[Int(e.tags)] {
            asked[Int(e.tags)] = true
            let tags = tile.tags(e.tags)
            ways[Int(e.tags)] = profile.evaluateWay(tags: tags).map {
                var v = Self.verdict($0)
                v.attributes = EdgeAttributes.of(tags: tags)
                return v
            }
        }
        nodeControl = tile.nodes.map { $0.tags == 0 ? 0 : profile.nodeControl(tags: tile.tags($0.tags)).flags }
        for r in tile.restrictions {
            // Several from (to) ways only for the profile's no_entry (no_exit), as OSRM.
            guard let v = profile.evaluateRestrictionRelation(tags: tile.tags(r.tags)),
                  r.members & RestrictionMembers.severalFrom == 0 || v.kind == .noEntry,
                  r.members & RestrictionMembers.severalTo == 0 || v.kind == .noExit else { continue }
            restrictions.append(RoadRestriction(nodeOsmIds: r.nodeOsmIds, fromWayId: r.fromWayId, viaWayIds: r.viaWayIds,
                                                toWayId: r.toWayId, code: v.kind.rawValue, condition: v.condition))
        }
    }

    static func verdict(_ a: WayAttributes) -> WayVerdict {
        var flags: UInt8 = 0
        if a.forward { flags |= EdgeFlags.forward }
        if a.backward { flags |= EdgeFlags.backward }
        if a.isRoundabout { flags |= EdgeFlags.roundabout }
        if a.restrictedForward { flags |= EdgeFlags.restrictedForward }
        if a.restrictedBackward { flags |= EdgeFlags.restrictedBackward }
        if !a.isStartpoint { flags |= EdgeFlags.notStartpoint }
        return WayVerdict(roadClass: a.roadClass.rawValue, speedForwardDeciKmh: deciKmh(a.speedKmh),
                          speedBackwardDeciKmh: deciKmh(a.speedBackwardKmh), flags: flags, name: a.name, ref: a.ref,
                          durationDeciseconds: a.durationSeconds.map { UInt32(min(($0 * 10).rounded(), 4e9)) } ?? 0)
    }
}

/// A turn restriction as a profile reads it: from way, via node or via ways, to way, its kind.
public struct RoadRestriction: Equatable {
    /// Where it turns, in driving order (`RoutingTile.Restriction.nodeOsmIds`).
    public var nodeOsmIds: [Int64]
    public var fromWayId: Int64
    public var viaWayIds: [Int64]
    public var toWayId: Int64
    /// `RestrictionKind` raw value.
    public var code: UInt8
    /// The condition of a conditional restriction, "" for one that always applies (the graph skips conditional ones).
    public var condition: String

    public init(nodeOsmIds: [Int64], fromWayId: Int64, viaWayIds: [Int64], toWayId: Int64, code: UInt8, condition: String = "") {
        self.nodeOsmIds = nodeOsmIds; self.fromWayId = fromWayId; self.viaWayIds = viaWayIds
        self.toWayId = toWayId; self.code = code; self.condition = condition
    }

    public var viaNodeOsmId: Int64 { nodeOsmIds[0] }
}

@inline(__always) func deciKmh(_ kmh: Double) -> UInt16 {
    UInt16(max(0, min(Double(UInt16.max), (kmh * 10).rounded())))
}
