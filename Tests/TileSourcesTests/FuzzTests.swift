import Foundation
import TileSources
import TileMath
import OffgridCore
import XCTest
import TestSupport

/// Random damage to real and fixture archives: every outcome is a clean result or an
/// `InputError`, never a crash or a hang.
final class FuzzTests: XCTestCase {
    var scratch: Scratch!
    override func setUp() { scratch = Scratch() }
    override func tearDown() { scratch.remove() }

    func exercise(_ bytes: [UInt8], _ name: String) {
        let path = try! scratch.write(name, bytes)
        do {
            let s = try TileSources.open(path: path)
            for z in s.info.minZoom...min(s.info.maxZoom, 8) {
                for t in try s.index(under: TileCoordinate(z: 0, x: 0, y: 0), atZoom: z) {
                    _ = try s.tile(t.coordinate)
                }
                try s.read(under: TileCoordinate(z: 0, x: 0, y: 0), atZoom: z) { _, _ in }
            }
        } catch is InputError {
        } catch {
            XCTFail("\(name): not an InputError: \(error)")
        }
    }

    func testDamagedPMTiles() {
        var rng = SplitMix64(seed: 99)
        var tiles: [PMTilesFixture.Tile] = []
        for z in 0...5 { for x in 0..<(1 << z) { for y in 0..<(1 << z) where (x * 7 + y) % 4 != 0 {
            tiles.append(.init(id: PMTilesID.id(TileCoordinate(z: z, x: x, y: y)), bytes: Array("t\(x % 3)".utf8)))
        } } }
        let plain = PMTilesFixture.build(tiles: tiles, leafSize: 16, gzipInternal: false, maxZoom: 5)
        let gz = PMTilesFixture.build(tiles: tiles, leafSize: 16, gzipInternal: true, maxZoom: 5)
        let sample = fileBytes(samplePMTiles)
        for (k, base) in [plain, gz, Array(sample.prefix(4096)) + Array(repeating: 0, count: sample.count - 4096)].enumerated() {
            // Damage only the part before the tile data (header, directories, metadata).
            let limit = k == 2 ? 1300 : base.count - 200
            for round in 0..<300 {
                var b = base
                for _ in 0..<(1 + Int(rng.next() % 4)) {
                    let i = Int(rng.next() % UInt64(limit))
                    b[i] = UInt8(truncatingIfNeeded: rng.next())
                }
                if round % 10 == 0 { b = Array(b.prefix(Int(rng.next() % UInt64(b.count)))) }
                exercise(b, "f\(k)-\(round).pmtiles")
            }
        }
    }
}
