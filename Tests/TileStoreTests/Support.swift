import OffgridCore
import Foundation
import MapPacks
import TileMath
import RoutingPacks
import StylePacks
@testable import TileStore
import TileSources
import TestSupport
import XCTest
#if canImport(Glibc)
import Glibc
#endif

let repositoryRoot = TestTools.repositoryRoot

/// Fixture bytes: eight per draw of the shared generator.
struct SplitMix {
    private var rng: SplitMix64
    init(seed: UInt64) { rng = SplitMix64(seed: seed) }
    mutating func next() -> UInt64 { rng.next() }
    mutating func bytes(_ n: Int) -> [UInt8] { rng.wideBytes(n) }
}

/// One map pack of a fixture region: the band, the parent tile, and a seed deciding its tiles'
/// bytes (same seed, same pack bytes, same SHA-256: a pack two regions share).
struct FixturePack {
    var band: ZoomBand
    var parent: TileCoordinate
    var seed: UInt64
    /// Bytes per tile (random, so the pack is about tiles × this).
    var tileBytes = 2_000
    /// Tiles at the zoom below the parent (0…4), besides the parent itself.
    var children = 3

    /// Pack `i` of band 11-14 along a row of parents near Vaduz.
    static func at(_ i: Int, seed: UInt64? = nil, tileBytes: Int = 2_000) -> FixturePack {
        FixturePack(band: ZoomBand(11, 14), parent: TileCoordinate(z: 11, x: 1078 + i, y: 719), seed: seed ?? UInt64(1000 + i),
                    tileBytes: tileBytes)
    }

    var tiles: [(TileCoordinate, [UInt8])] {
        var rng = SplitMix(seed: seed)
        var out = [(parent, rng.bytes(tileBytes))]
        if band.maxZoom > parent.z {
            for k in 0..<min(children, 4) {
                let c = TileCoordinate(z: parent.z + 1, x: 2 * parent.x + k % 2, y: 2 * parent.y + k / 2)
                out.append((c, rng.bytes(tileBytes)))
            }
        }
        return out
    }

    var header: MapPackHeader {
        MapPackHeader(band: band, parent: parent, tilesetId: "fixture", tileType: .mvt, tileCompression: .gzip)
    }

    var bytes: [UInt8] { MapPackWriter.encode(header: header, tiles: tiles.map { ($0.0, $0.1[...]) }).bytes }
}

/// Writes a region directory the way `tilepack-build maps` does: `packs/<band>/<z>-<x>-<y>.pack`
/// and `region.json` (format offgrid-map-region, version 1). Replaces `dir`.
@discardableResult
func makeRegion(_ dir: String, id: String, packs: [FixturePack], expires: Any = NSNull(), metadata: Any = NSNull(),
                limits: [String: Any]? = nil) throws -> [String: Any] {
    try? FileManager.default.removeItem(atPath: dir)
    var rows: [[String: Any]] = []
    var totalBytes = 0, totalTiles = 0
    for p in packs {
        let bytes = p.bytes
        let relative = p.header.relativePath
        let full = (dir as NSString).appendingPathComponent(relative)
        try FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(bytes).write(to: URL(fileURLWithPath: full))
        rows.append(["path": relative, "band": p.band.description, "parent": [p.parent.z, p.parent.x, p.parent.y],
                     "tiles": p.tiles.count, "uniqueTiles": p.tiles.count, "tileBytes": p.tiles.reduce(0) { $0 + $1.1.count },
                     "bytes": bytes.count, "sha256": SHA256.hex(SHA256.hash(bytes))])
        totalBytes += bytes.count
        totalTiles += p.tiles.count
    }
    var manifest: [String: Any] = [
        "format": "offgrid-map-region", "version": 1, "id": id,
        "geometry": ["type": "FeatureCollection", "features": [["type": "Feature", "properties": [String: Any](),
                     "geometry": ["type": "Point", "coordinates": [9.5215, 47.141]]] as [String: Any]]],
        "bbox": [9.49, 47.12, 9.55, 47.16],
        "tileset": ["name": "fixture", "tileType": "mvt", "tileCompression": "gzip", "bands": ["11-14"], "pixelRatio": 1],
        "metadata": metadata, "expires": expires, "packs": rows,
        "totals": ["packs": rows.count, "bytes": totalBytes, "tiles": totalTiles],
    ]
    if let limits { manifest["limits"] = limits }
    let text = JSONOutputText.string(manifest)
    try Data(text.utf8).write(to: URL(fileURLWithPath: (dir as NSString).appendingPathComponent("region.json")))
    return manifest
}

enum JSONOutputText {
    static func string(_ v: Any) -> String {
        String(decoding: try! JSONSerialization.data(withJSONObject: v, options: [.sortedKeys]), as: UTF8.self)
    }
}

/// Opens the store for writing, runs `body`, closes it (releasing the lock).
@discardableResult
func withStore<T>(_ path: String, access: TileStore.Access = .write, now: Int64? = nil, _ body: (TileStore) throws -> T) throws -> T {
    let store = try TileStore.open(path, access: access, quiet: true)
    defer { store.close() }
    if let now { store.now = now }
    return try body(store)
}

/// inode, size and mtime (ns) of a file: equal when the file was not touched.
func fileIdentity(_ path: String) -> String? {
    var st = stat()
    guard stat(path, &st) == 0 else { return nil }
    return "\(st.st_ino) \(st.st_size) \(st.st_mtim.tv_sec).\(st.st_mtim.tv_nsec) \(st.st_ctim.tv_sec).\(st.st_ctim.tv_nsec)"
}

/// Store-relative path of a map pack's file.
func storedPath(_ store: String, _ pack: FixturePack) -> String {
    (store as NSString).appendingPathComponent(StoreLayout.relativePath(kind: .mapPack, sha256: SHA256.hex(SHA256.hash(pack.bytes))))
}

func sha(_ pack: FixturePack) -> String { SHA256.hex(SHA256.hash(pack.bytes)) }

func assertThrowsInputError(_ body: @autoclosure () throws -> Any, contains fragment: String,
                            file: StaticString = #filePath, line: UInt = #line) {
    do {
        _ = try body()
        XCTFail("expected an error containing \"\(fragment)\"", file: file, line: line)
    } catch {
        XCTAssertTrue("\(error)".contains(fragment), "\(error)", file: file, line: line)
    }
}

// MARK: - The real binary

func tilestoreBinary() throws -> URL { try TestTools.binary("tilestore") }

extension ToolResult {
    var text: String { stdout }
    var json: [String: Any] { (try? JSONSerialization.jsonObject(with: stdoutData)) as? [String: Any] ?? [:] }
}

func runTilestore(_ arguments: [String]) throws -> ToolResult {
    try TestTools.result("tilestore", arguments)
}

/// Starts `tilestore` with output discarded (for kill tests); `crashAt` sets TILESTORE_CRASH_AT.
func startTilestore(_ arguments: [String], crashAt: String? = nil) throws -> Process {
    try TestTools.start("tilestore", arguments, environment: crashAt.map { ["TILESTORE_CRASH_AT": $0] })
}

typealias Locked = LockedValue
