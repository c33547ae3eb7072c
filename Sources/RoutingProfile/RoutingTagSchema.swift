import OffgridCore

/// Which OpenStreetMap objects and tags routing tiles keep: every way a car, a bicycle or a
/// walker might use, and of its tags those any profile reads. Tiles carry these raw tags instead
/// of one profile's verdicts, so one routing pack serves every mode and a profile can be added
/// or edited without packing the tiles again (`route-graph --profile` applies it).
///
/// The key lists are generous on purpose (lanes, destinations, sidewalks, surfaces…): a key
/// added later changes `hash`, and packs built before it must be built again.
public enum RoutingTagSchema {
    /// What routing packs and manifests name as their profile: tiles for every mode.
    public static let name = "all"

    /// Ways kept whatever their other tags: a `highway=*` way (but for values no mode uses), a
    /// ferry or shuttle train route, a platform or a pier.
    public static func isRoutableWay(highway: String?, route: String?, railway: String?, publicTransport: String?,
                                     manMade: String?) -> Bool {
        if let highway { return !unusedHighways.contains(highway) }
        if let route, route == "ferry" || route == "shuttle_train" { return true }
        return railway == "platform" || publicTransport == "platform" || manMade == "pier"
    }

    /// `highway=*` values that are not (or not yet, or no longer) a way anyone travels on.
    static let unusedHighways: Set<String> = ["proposed", "planned", "construction", "abandoned", "disused",
                                               "razed", "dismantled", "no", "none"]

    /// Keys kept on ways: those the car profile reads (`WayTags`, with the `:forward` and
    /// `:backward` forms of its directional keys) and those of bicycle and foot travel.
    public static func keepsWayKey(_ key: String) -> Bool { wayKeys.contains(key) }

    /// Keys kept on nodes of routable ways: controls, barriers and what opens or closes them.
    public static func keepsNodeKey(_ key: String) -> Bool { nodeKeys.contains(key) }

    /// Keys kept on `type=restriction` relations: every `restriction*` form, `except`, `type`.
    public static func keepsRelationKey(_ key: String) -> Bool {
        key == "type" || key == "except" || key.hasPrefix("restriction")
    }

    static let modeKeys = ["access", "vehicle", "motor_vehicle", "motorcar", "bicycle", "foot", "horse", "hgv", "psv",
                           "bus", "motorcycle", "moped", "mofa"]

    static let wayKeys: Set<String> = {
        var keys = Set(WayTags.Key.allCases.map(\.osm))
        for k in WayTags.DirectionalKey.allCases.map(\.osm) + modeKeys + ["lanes", "turn:lanes", "destination", "destination:ref",
                                                                        "destination:street", "cycleway", "sidewalk"] {
            keys.formUnion([k, k + ":forward", k + ":backward"])
        }
        keys.formUnion(["oneway:bicycle", "oneway:foot", "oneway:conditional", "cycleway:left", "cycleway:right",
                        "cycleway:both", "cycleway:left:oneway", "cycleway:right:oneway", "sidewalk:left", "sidewalk:right",
                        "sidewalk:both", "segregated", "toll", "toll:motorcar", "tunnel", "bridge", "ford", "motorroad",
                        "railway", "public_transport", "man_made", "amenity", "leisure", "sac_scale", "mtb:scale",
                        "incline", "lit", "junction:ref", "name:pronunciation", "ref:pronunciation", "side_road",
                        "access:conditional", "motor_vehicle:conditional", "bicycle:conditional", "foot:conditional",
                        "maxspeed:conditional", "maxspeed:type", "zone:traffic", "source:maxspeed"])
        return keys
    }()

    static let nodeKeys: Set<String> = Set(modeKeys + ["highway", "barrier", "crossing", "crossing:signals", "bollard",
                                                       "kerb", "maxheight", "maxwidth", "sensory", "railway", "direction",
                                                       "traffic_signals", "traffic_signals:direction", "entrance"])

    /// Whether a node's kept tags can make it a place of its own (a control, a barrier, a
    /// crossing): such nodes end edges, so every profile sees them.
    public static func endsEdges(nodeTags: [String: String]) -> Bool {
        if nodeTags["barrier"] != nil { return true }
        if let h = nodeTags["highway"], ["traffic_signals", "stop", "give_way", "crossing", "turning_circle",
                                          "turning_loop", "mini_roundabout"].contains(h) { return true }
        if nodeTags["railway"] == "level_crossing" || nodeTags["railway"] == "crossing" { return true }
        return modeKeys.contains { nodeTags[$0] != nil }
    }

    /// Hex SHA-256 of the kept keys and the rules above (by version): tiles record it, and
    /// `route-graph` refuses tiles built under another schema.
    public static let hash: String = {
        let text = "routing-tag-schema 1\nway " + wayKeys.sorted().joined(separator: ",") + "\nnode "
            + nodeKeys.sorted().joined(separator: ",") + "\nunused " + unusedHighways.sorted().joined(separator: ",")
        return SHA256.hex(SHA256.hash(Array(text.utf8)))
    }()
}
