import OffgridCore
import Foundation
import MapPacks
import RoutingPacks
import StylePacks
@testable import TileStore
import TileSources
import XCTest
#if canImport(Glibc)
import Glibc
#endif

let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// A fresh directory under the system temporary directory, removed by `remove()`.
final class Scratch {
    let root: String
    init() {
        root = (NSTemporaryDirectory() as NSString).appendingPathComponent("TileStoreTests-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    }
    func path(_ name: String) -> String { (root as NSString).appendingPathComponent(name) }
    func remove() { try? FileManager.default.removeItem(atPath: root) }
}

/// SplitMix64: deterministic fixture bytes.
struct SplitMix {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func bytes(_ n: Int) -> [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(n + 8)
        while out.count < n {
            var v = next()
            for _ in 0..<8 { out.append(UInt8(truncatingIfNeeded: v)); v >>= 8 }
        }
        return Array(out.prefix(n))
    }
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

/// `tilestore`, next to the test bundle (`.build*/debug`), else in `.build/debug` or `.build/release`.
func tilestoreBinary() throws -> URL {
    let exe = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    let candidates = [exe.deletingLastPathComponent(), Bundle.main.bundleURL.deletingLastPathComponent()]
        + Bundle.allBundles.map { $0.bundleURL.deletingLastPathComponent() }
        + [repositoryRoot.appendingPathComponent(".build/debug"), repositoryRoot.appendingPathComponent(".build/release")]
    for dir in candidates {
        let url = dir.appendingPathComponent("tilestore")
        if FileManager.default.isExecutableFile(atPath: url.path) { return url }
    }
    throw XCTSkip("the tilestore binary is not built")
}

struct ToolResult {
    var status: Int32
    var stdout: Data
    var stderr: String
    var text: String { String(decoding: stdout, as: UTF8.self) }
    var json: [String: Any] { (try? JSONSerialization.jsonObject(with: stdout)) as? [String: Any] ?? [:] }
}

func runTilestore(_ arguments: [String]) throws -> ToolResult {
    let process = Process()
    process.executableURL = try tilestoreBinary()
    process.arguments = arguments
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    // Read both pipes at once so a full stderr pipe cannot block the child.
    let stderrData = Locked(Data())
    let group = DispatchGroup()
    group.enter()
    DispatchQueue.global().async {
        let data = err.fileHandleForReading.readDataToEndOfFile()
        stderrData.set(data)
        group.leave()
    }
    let stdout = out.fileHandleForReading.readDataToEndOfFile()
    group.wait()
    process.waitUntilExit()
    return ToolResult(status: process.terminationStatus, stdout: stdout, stderr: String(decoding: stderrData.get(), as: UTF8.self))
}

/// Starts `tilestore` with output discarded (for kill tests); `crashAt` sets TILESTORE_CRASH_AT.
func startTilestore(_ arguments: [String], crashAt: String? = nil) throws -> Process {
    let process = Process()
    process.executableURL = try tilestoreBinary()
    process.arguments = arguments
    if let crashAt {
        var env = ProcessInfo.processInfo.environment
        env["TILESTORE_CRASH_AT"] = crashAt
        process.environment = env
    }
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    return process
}

/// A value shared between threads.
final class Locked<T>: @unchecked Sendable {
    private var value: T
    private let lock = NSLock()
    init(_ value: T) { self.value = value }
    func get() -> T { lock.lock(); defer { lock.unlock() }; return value }
    func set(_ v: T) { lock.lock(); value = v; lock.unlock() }
    func update(_ body: (inout T) -> Void) { lock.lock(); body(&value); lock.unlock() }
}
