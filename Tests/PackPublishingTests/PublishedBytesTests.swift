import Foundation
import OffgridCore
import PackRepository
import RoutingPacks
import TestSupport
import XCTest

/// Published objects are exactly what the other tools write: map packs equal `tilepack-build
/// maps` packs, routing tiles equal `tilepack-unpack`'s `<id>.tile` files, and the routing index
/// carries what that directory's manifest.json says.
final class PublishedBytesTests: XCTestCase {
    func testObjectsAreThePacksAndTilesTheToolsWrite() throws {
        let scratch = Scratch("publish-bytes")
        defer { scratch.remove() }
        let repo = scratch.path("repo")
        try Publish.run(["maps", "--source", Publish.mbtiles, "--tileset", "li", "--repository", repo])
        // --progress json: NDJSON events on stderr (each a valid object), the summary alone on stdout.
        let r = try TestTools.result("tilepack-build", ["publish", "routing", "--input", Publish.pbf, "--repository", repo, "--progress", "json"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let events = try r.stderr.split(separator: "\n").map { try JSONReader.parse(String($0)) }
        XCTAssertEqual(events.last?["event"], "done")
        XCTAssertEqual(events.last?["objectsWritten"], 3)
        XCTAssertEqual(try JSONReader.parse(r.stdout.trimmingCharacters(in: .newlines))["objectsWritten"], 3)
        let maps = try TilesetVersionIndex.decode(FileTools.readFile(repo + "/tilesets/li/3.0.json", maxBytes: 1 << 20), source: "li")
        XCTAssertEqual(maps.bands, ["0-5", "6-10", "11-14"])
        XCTAssertEqual(maps.tilesetId, "Liechtenstein (tilemaker 2.2.0 OpenMapTiles schema, OSM-only layers)")
        XCTAssertEqual(maps.vectorLayers?.contains("transportation"), true)

        // A region covering the whole sample: its packs are the published ones.
        let region = try scratch.write("all.geojson", """
        {"type":"Polygon","coordinates":[[[9.45,47.03],[9.66,47.03],[9.66,47.29],[9.45,47.29],[9.45,47.03]]]}
        """)
        let out = scratch.path("maps")
        let built = try TestTools.result("tilepack-build", ["maps", "--source", Publish.mbtiles, "--region", region, "--zoom", "0-14",
                                                             "--output", out, "--progress", "none"])
        XCTAssertEqual(built.status, 0, built.stderr)
        var packs = 0
        for e in maps.entries {
            let key = MapPackKey(e.key)!
            let file = "\(out)/packs/\(key.band)/\(key.parent.z)-\(key.parent.x)-\(key.parent.y).pack"
            XCTAssertEqual(try FileTools.readFile(file, maxBytes: 1 << 30), try FileTools.readFile(repo + "/" + e.objectPath, maxBytes: 1 << 30), e.key)
            packs += 1
        }
        XCTAssertEqual(packs, (FileManager.default.enumerator(atPath: out + "/packs")?.compactMap { $0 as? String }.filter { $0.hasSuffix(".pack") }.count))

        // The routing pack unpacked: the same tiles, and the manifest fields the index carries.
        let pack = scratch.path("li.routing.pack"), dir = scratch.path("routing")
        XCTAssertEqual(try TestTools.result("tilepack-build", ["routing", "--input", Publish.pbf, "--output", pack]).status, 0)
        XCTAssertEqual(try TestTools.result("tilepack-unpack", [pack, "--output", dir]).status, 0)
        let manifest = try UnpackedRoutingDirectory.load(dir)
        let routing = try RoutingVersionIndex.decode(FileTools.readFile(repo + "/routing/all/2024-03-04-3988.json", maxBytes: 1 << 20), source: "r")
        XCTAssertEqual(routing.dataVersion, manifest.dataVersion)
        XCTAssertEqual(routing.profile, manifest.profileName)
        XCTAssertEqual(routing.profileHash, manifest.profileHash)
        XCTAssertEqual(routing.gridDegrees, manifest.gridDegrees)
        XCTAssertEqual(routing.tiles.map(\.id), manifest.tiles.map(\.id))
        for (id, entry) in routing.tiles {
            let bytes = try FileTools.readFile(repo + "/" + entry.objectPath, maxBytes: 1 << 30)
            XCTAssertEqual(bytes, try FileTools.readFile("\(dir)/\(id).tile", maxBytes: 1 << 30), "tile \(id)")
            XCTAssertEqual(CRC32.checksum(bytes), manifest.tile(id: id)?.crc32)
        }
    }
}
