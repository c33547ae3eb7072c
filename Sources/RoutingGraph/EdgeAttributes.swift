/// Bits of what a road is, read from its OSM tags whatever the profile (`EdgeRecord.attributes`,
/// since graph format 12): what a traveller may ask to avoid (`route-query --exclude`). Motorways
/// and ferries are road classes (`EdgeRecord.roadClass`) and need no bit. Each bit splits a chain
/// of ways the graph would merge into one edge (`ChainCompression`), so only what an exclusion
/// needs is kept.
public enum EdgeAttributes {
    /// `toll=yes` or `toll:motorcar=yes`.
    public static let toll: UInt8 = 1
    /// `tunnel=*` other than `no`.
    public static let tunnel: UInt8 = 2
    /// `surface=*` one of `unpavedSurfaces`, or `tracktype=grade2`…`grade5`.
    public static let unpaved: UInt8 = 4

    /// Surfaces without pavement (OSM wiki's `surface=*` unpaved values).
    public static let unpavedSurfaces: Set<String> = [
        "unpaved", "compacted", "fine_gravel", "gravel", "pebblestone", "rock", "ground", "dirt", "earth", "grass",
        "grass_paver", "mud", "sand", "woodchips", "snow", "ice", "salt", "shells",
    ]

    /// The bits of a way's tags.
    public static func of(tags: [String: String]) -> UInt8 {
        var bits: UInt8 = 0
        if tags["toll"] == "yes" || tags["toll:motorcar"] == "yes" { bits |= toll }
        if let v = tags["tunnel"], v != "no" { bits |= tunnel }
        if let v = tags["surface"] {
            if unpavedSurfaces.contains(v) { bits |= unpaved }
        } else if let v = tags["tracktype"], ["grade2", "grade3", "grade4", "grade5"].contains(v) {
            bits |= unpaved
        }
        return bits
    }
}
