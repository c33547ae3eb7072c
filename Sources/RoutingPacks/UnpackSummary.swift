/// What `RoutingPackUnpacker.unpack` did; `tilepack-unpack` prints it as JSON on stdout.
public struct UnpackSummary: Equatable, Encodable {
    /// The output directory as given.
    public var output: String
    /// Base name of the pack file.
    public var pack: String
    public var dataVersion: String
    /// Tiles in the directory afterwards.
    public var tiles: Int
    /// Tiles in the pack.
    public var packTiles: Int
    /// Tiles the directory did not have before (all of them after a replace).
    public var tilesAdded: Int
    /// Pack tiles the directory already held, byte-identical.
    public var tilesAlreadyPresent: Int
    /// Regions (packs) listed in the manifest afterwards.
    public var regions: Int
    /// The directory already held this pack and was not modified.
    public var noop: Bool
    /// The directory held another data version, profile or grid and was replaced.
    public var replaced: Bool
}
