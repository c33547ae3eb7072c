import OffgridCore
import Foundation
import OSMPBF
import RoutingPacks
import RoutingGraph
import RoutingProfile
import RoutingTiles
import TileMath
import TestSupport

/// The Liechtenstein sample compiled end to end (PBF → routing pack → unpacked tiles → graph
/// file) the way `route-graph` does it, once per test process and shared by every test class.
/// The temporary directory is removed when the process exits.
enum SampleGraphFixture {
    static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let samplePBF = repositoryRoot.appendingPathComponent("samples/liechtenstein.osm.pbf").path
    static let directory = FileManager.default.temporaryDirectory.appendingPathComponent("offgrid-map-matching-\(getpid())")

    private static let lock = NSLock()
    private static var built: Result<(path: String, file: GraphFile), Error>?

    /// Path of the sample's graph file.
    static func graphPath() throws -> String { try build().path }

    /// The sample's graph file, mapped once.
    static func graphFile() throws -> GraphFile { try build().file }

    private static func build() throws -> (path: String, file: GraphFile) {
        lock.lock()
        defer { lock.unlock() }
        if let built { return try built.get() }
        let result = Result { () throws -> (path: String, file: GraphFile) in
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            atexit { try? FileManager.default.removeItem(at: SampleGraphFixture.directory) }
            let profile = TravelProfile.embeddedDefault
            let tiles = try RoutingTileBuild(grid: RoutingGrid.standard).run(PBFReader(path: samplePBF), selected: nil)
            let pack = directory.appendingPathComponent("li.routing.pack").path
            try RoutingPackWriter.write(header: RoutingPackHeader(dataVersion: tiles.dataVersion, profileName: RoutingTagSchema.name,
                                                                  profileHash: RoutingTagSchema.hash, gridDegrees: 0.25,
                                                                  regionBBox: (9, 47, 10, 48), createdBy: "test"),
                                        tiles: tiles.tiles, to: pack)
            let tilesDir = directory.appendingPathComponent("tiles").path
            _ = try RoutingPackUnpacker.unpack(packPath: pack, outputDir: tilesDir, progress: SilentProgress())
            let graph = directory.appendingPathComponent("li.chg").path
            _ = try GraphBuild(profile: profile).run(directories: [tilesDir], output: graph)
            return (graph, try GraphFile(path: graph))
        }
        built = result
        return try result.get()
    }
}
