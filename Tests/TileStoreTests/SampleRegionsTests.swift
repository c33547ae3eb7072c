import OffgridCore
import Foundation
import MapPacks
import TileMath
@testable import TileStore
import TileSources
import TestSupport
import XCTest

/// The sample's real regions, built by MapPackBuilder from samples/liechtenstein.mbtiles (what
/// `tilepack-build maps` writes), installed together: shared packs stored once, every tile of
/// every region readable through the store byte for byte.
final class SampleRegionsTests: XCTestCase {
    var scratch: Scratch!
    var store: String { scratch.path("store") }
    override func setUp() { scratch = Scratch() }
    override func tearDown() { scratch.remove() }

    func testSampleRegionsInstallShareAndReadBack() throws {
        let mbtiles = repositoryRoot.appendingPathComponent("samples/liechtenstein.mbtiles").path
        guard FileManager.default.fileExists(atPath: mbtiles) else { throw XCTSkip("no sample tileset") }
        let names = ["liechtenstein-oberland", "vaduz-2km", "vaduz-balzers-corridor"]
        var packsPerRegion: [String: Set<String>] = [:]
        for name in names {
            let source = try TileSources.open(path: mbtiles)
            let text = try String(contentsOfFile: repositoryRoot.appendingPathComponent("samples/regions/\(name).geojson").path, encoding: .utf8)
            let region = try Region.parse(geoJSON: text)
            var options = MapBuildOptions()
            options.regionId = name
            let plan = try MapPackBuilder.plan(source: source, region: region, options: options)
            let built = try MapPackBuilder.build(plan: plan, source: source, region: region, options: options,
                                                 output: scratch.path(name), progress: SilentProgress())
            packsPerRegion[name] = Set(built.map(\.sha256))
            let result = try withStore(store) { try $0.installRegion(directory: scratch.path(name)) }
            XCTAssertEqual(result.packs, built.count)
        }
        let unique = packsPerRegion.values.reduce(Set<String>()) { $0.union($1) }
        let summary = try withStore(store, access: .read) { try $0.summary() }
        XCTAssertEqual(summary.mapPacks, unique.count, "each shared pack stored once")
        XCTAssertLessThan(unique.count, packsPerRegion.values.reduce(0) { $0 + $1.count }, "the sample regions share packs")

        // Every tile of the source within the installed packs reads back identical.
        let source = try TileSources.open(path: mbtiles)
        var checked = 0
        try withStore(store, access: .read) { s in
            for entry in try source.allTiles() {
                let c = entry.coordinate
                guard let got = try s.tile(z: c.z, x: c.x, y: c.y, tileset: nil) else { continue }
                XCTAssertEqual(Array(got.bytes), try source.tile(c), "\(c)")
                checked += 1
            }
        }
        XCTAssertGreaterThan(checked, 50)
        XCTAssertTrue(try withStore(store, access: .verify) { try $0.verify(repair: false) }.consistent)
    }
}
