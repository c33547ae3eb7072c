import Foundation
import OffgridCore
import PackRepository
import TestSupport
import TileMath
import XCTest

/// A small repository of the Liechtenstein sample, published once per test run: the map packs of
/// the country at zooms 0-12 (`tilepack-build maps`), every routing tile (`tilepack-build
/// routing` + `tilepack-unpack`), written through PackRepository's writer (the same code the
/// publish command uses). Version "2" of the tileset replaces the packs of one band by the
/// PMTiles sample's, so an update has something to fetch.
final class RepositoryFixture {
    static let shared = Result { try RepositoryFixture() }

    let scratch = Scratch("offgrid-repo-fixture")
    let root: String          // the directory nginx serves (holds repository/)
    let repository: String    // root/repository
    var v1Entries: [RepositoryEntry] = []
    var v2Entries: [RepositoryEntry] = []
    var routingEntries: [RepositoryEntry] = []
    let bbox = "9.47,47.05,9.64,47.27"

    init() throws {
        root = scratch.root
        repository = scratch.path("repository")
        let maps = scratch.path("maps")
        try run("tilepack-build", ["maps", "--source", TestTools.path("samples/liechtenstein.mbtiles"), "--bbox", bbox, "--zoom", "0-12", "--output", maps])
        let mapsB = scratch.path("maps-b")
        try run("tilepack-build", ["maps", "--source", TestTools.path("samples/liechtenstein.pmtiles"), "--bbox", bbox, "--zoom", "0-12", "--output", mapsB])
        let pack = scratch.path("li.routing.pack")
        try run("tilepack-build", ["routing", "--input", TestTools.path("samples/liechtenstein.osm.pbf"), "--output", pack])
        let unpacked = scratch.path("routing")
        try run("tilepack-unpack", [pack, "--output", unpacked])

        let writer = try RepositoryWriter(root: repository)
        defer { writer.close() }
        let (manifest, entries) = try putPacks(maps, writer)
        v1Entries = entries
        let (_, entriesB) = try putPacks(mapsB, writer)
        // v2: v1 with the 11-12 band's packs (where the two sources' bytes differ) from the other source.
        let byKey = Dictionary(entriesB.map { ($0.key, $0) }, uniquingKeysWith: { a, _ in a })
        v2Entries = v1Entries.map { e in e.key.hasPrefix("11-") ? (byKey[e.key] ?? e) : e }
        let tileset = manifest["tileset"]?.objectValue ?? [:]
        let bands = Array(Set(entries.map { String($0.key.split(separator: "/")[0]) })).sorted { Int($0.split(separator: "-")[0])! < Int($1.split(separator: "-")[0])! }
        for (version, list) in [("1", v1Entries), ("2", v2Entries)] {
            _ = try writer.commit(TilesetVersionIndex(
                name: "liechtenstein", version: version, tileType: .mvt, tileCompression: .gzip, minZoom: 0, maxZoom: 14,
                bounds: nil, bands: bands, tilesetId: tileset["name"]?.stringValue ?? "liechtenstein", attribution: nil,
                metadata: [:], expires: nil, entries: list))
        }
        let routingManifest = try JSONReader.parse(FileTools.readFile(unpacked + "/manifest.json", maxBytes: 64 << 20)).objectValue ?? [:]
        for t in routingManifest["tiles"]?.arrayValue ?? [] {
            let id = t["id"]?.intValue ?? -1
            let bytes = try FileTools.readFile(unpacked + "/\(id).tile", maxBytes: 256 << 20)
            let sha = SHA256.hex(SHA256.hash(bytes))
            try writer.putObject(parts: [bytes[...]], sha256: sha)
            routingEntries.append(RepositoryEntry(key: String(id), sha256: sha, size: bytes.count))
        }
        _ = try writer.commit(RoutingVersionIndex(
            profile: routingManifest["profileName"]?.stringValue ?? "car", profileHash: routingManifest["profileHash"]?.stringValue ?? "",
            dataVersion: routingManifest["dataVersion"]?.stringValue ?? "", gridDegrees: routingManifest["gridDegrees"]?.doubleValue ?? 0.25,
            bbox: [9.47, 47.05, 9.64, 47.27], entries: routingEntries))
    }

    /// Publishes only version 1 first: tests that update then publish v2 with `publishV2()`.
    private func putPacks(_ dir: String, _ writer: RepositoryWriter) throws -> ([String: JSONValue], [RepositoryEntry]) {
        let manifest = try JSONReader.parse(FileTools.readFile(dir + "/region.json", maxBytes: 64 << 20)).objectValue ?? [:]
        var entries: [RepositoryEntry] = []
        for p in manifest["packs"]?.arrayValue ?? [] {
            let path = p["path"]?.stringValue ?? ""
            let bytes = try FileTools.readFile(dir + "/" + path, maxBytes: 1 << 30)
            let sha = SHA256.hex(SHA256.hash(bytes))
            try writer.putObject(parts: [bytes[...]], sha256: sha)
            // packs/<band>/<z>-<x>-<y>.pack → <band>/<z>-<x>-<y>
            let key = String(path.dropFirst("packs/".count).dropLast(".pack".count))
            entries.append(RepositoryEntry(key: key, sha256: sha, size: bytes.count))
        }
        return (manifest, entries)
    }

    private func run(_ tool: String, _ args: [String]) throws {
        let r = try TestTools.result(tool, args)
        guard r.status == 0 else { throw InputError("\(tool) \(args.joined(separator: " ")) failed: \(r.stderr)") }
    }

    /// Sizes of the objects of `entries` (unique hashes).
    static func uniqueBytes(_ entries: [RepositoryEntry]) -> Int64 {
        var seen = Set<String>()
        return entries.filter { seen.insert($0.sha256).inserted }.reduce(0) { $0 + Int64($1.size) }
    }
}
