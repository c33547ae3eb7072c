import OffgridCore
import OSMPBF
import RoutingProfile
import TileMath

/// PBF → routing tiles (every mode's roads and their tags) for a set of grid cells: the stages of `tilepack-build routing`
/// without the argument parsing and the pack writing.
public struct RoutingTileBuild {
    public let grid: RoutingGrid

    public init(grid: RoutingGrid) {
        self.grid = grid
    }

    public struct Result {
        public var dataVersion: String
        /// Encoded tiles sorted by id.
        public var tiles: [(id: UInt32, raw: [UInt8])]
        public var nodes = 0
        public var edges = 0
        public var restrictions = 0
        public var restrictionsSkipped = 0
        /// Ways any mode may use (`RoutingTagSchema`).
        public var routableWays = 0
        /// OSM nodes the routable ways use (shape points included), the size measure of a road network.
        public var osmNodes = 0
    }

    /// Reads `reader`'s file and returns the tiles among `selected` (nil: every tile with data).
    public func run(_ reader: PBFReader, selected: Set<UInt32>?, progress: ((Int64) -> Void)? = nil) throws -> Result {
        let network = try RoadNetworkReader().read(reader, progress: progress)
        guard let version = DataVersion.make(header: reader.header, newestTimestamp: network.newestTimestamp) else {
            throw BuildError.noDataVersion
        }
        let cutter = TileCutter(grid: grid)
        let tiles = cutter.cut(network, selected: selected)
        var result = Result(dataVersion: version, tiles: [])
        result.routableWays = network.wayCount
        result.osmNodes = network.nodeIds.count
        result.restrictionsSkipped = network.restrictionsSkipped
        let encoded = Parallel.map(count: tiles.count) { RoutingTileCodec.encode(tiles[$0]) }
        for (t, raw) in zip(tiles, encoded) {
            result.nodes += t.nodes.count
            result.edges += t.edges.count
            result.restrictions += t.restrictions.count
            result.tiles.append((t.tileId, raw))
        }
        return result
    }

    public enum BuildError: Error, CustomStringConvertible {
        case noDataVersion
        public var description: String {
            "no replication timestamp in the header and no object timestamps: cannot derive the data version"
        }
    }
}
