import OffgridCore
import Foundation
@testable import RoutingPacks
import XCTest
import TestSupport

/// Test inputs: tiles cut from the real Liechtenstein extract (the tile builder is not written
/// yet, and real bytes compress like real data), headers, and scratch directories.
enum PackFixtures {
    static let repoRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    static let samplePBF = repoRoot.appendingPathComponent("samples/liechtenstein.osm.pbf").path

    static let sampleBytes: [UInt8] = {
        guard let data = FileManager.default.contents(atPath: samplePBF) else {
            fatalError("missing sample \(samplePBF)")
        }
        return [UInt8](data)
    }()

    /// `count` tiles with ids `firstID, firstID + idStep, …`; each is a slice of the sample whose
    /// position and length (1 B … 40 kB) derive from the id, so the same id always has the
    /// same bytes whichever pack it is in.
    static func tiles(ids: [UInt32]) -> [(id: UInt32, raw: [UInt8])] {
        ids.map { (id: $0, raw: tileBytes(id: $0)) }
    }

    static func tileBytes(id: UInt32) -> [UInt8] {
        var rng = TestRandom(seed: UInt64(id) &* 0x9E37_79B9 &+ 17)
        let length = 1 + Int(rng.next() % 40_000)
        let start = Int(rng.next() % UInt64(sampleBytes.count - length))
        return Array(sampleBytes[start..<start + length])
    }

    static func header(dataVersion: String = "2024-05-01-1", profileHash: String = "3fa9c0de",
                       gridDegrees: Double = 0.25, bbox: RoutingPackBBox = (9.47, 47.04, 9.64, 47.28),
                       geoJSON: String = "") -> RoutingPackHeader {
        RoutingPackHeader(dataVersion: dataVersion, profileName: "car", profileHash: profileHash,
                          gridDegrees: gridDegrees, regionBBox: bbox, regionGeoJSON: geoJSON,
                          createdBy: "PacksTests 1")
    }

    /// Writes a pack and returns its path.
    @discardableResult
    static func writePack(_ dir: ScratchDirectory, name: String, ids: [UInt32],
                          header: RoutingPackHeader = PackFixtures.header()) throws -> String {
        let path = dir.path(name)
        try RoutingPackWriter.write(header: header, tiles: tiles(ids: ids), to: path)
        return path
    }

    static func bytes(_ path: String) -> [UInt8] {
        [UInt8](FileManager.default.contents(atPath: path) ?? Data())
    }

    static func write(_ bytes: [UInt8], to path: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(bytes)), "cannot write \(path)",
                      file: file, line: line)
    }
}

/// Everything observable about a directory tree: per entry its type, size, CRC32 and mtime in
/// nanoseconds, plus the same for the root itself. Equal snapshots mean "not modified".
struct TreeSnapshot: Equatable, CustomStringConvertible {
    var entries: [String: String]

    init(_ root: String) {
        entries = [:]
        entries["."] = Self.describe(root)
        if let walker = FileManager.default.enumerator(atPath: root) {
            for case let relative as String in walker {
                entries[relative] = Self.describe((root as NSString).appendingPathComponent(relative))
            }
        }
    }

    private static func describe(_ path: String) -> String {
        var st = stat()
        guard lstat(path, &st) == 0 else { return "missing" }
        let mtime = "\(st.st_mtim.tv_sec).\(st.st_mtim.tv_nsec)"
        if st.st_mode & S_IFMT == S_IFDIR { return "dir mtime \(mtime) inode \(st.st_ino)" }
        let bytes = PackFixtures.bytes(path)
        return "file \(st.st_size) crc \(CRC32.checksum(bytes)) mtime \(mtime) inode \(st.st_ino)"
    }

    var description: String {
        entries.keys.sorted().map { "\($0): \(entries[$0] ?? "")" }.joined(separator: "\n")
    }
}


typealias TestRandom = SplitMix64
typealias ScratchDirectory = Scratch
