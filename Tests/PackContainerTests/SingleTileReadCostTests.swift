import Foundation
import TileMath
import MapPacks
import OffgridCore
import TileSources
import XCTest

/// What one tile of a large map pack costs: the old path (read the whole pack, then look the tile
/// up in memory) against the container's positioned read. Timing, so only with OFFGRID_PERF=1
/// and OFFGRID_PERF_MAP_PACK=<pack> OFFGRID_PERF_TILE=z/x/y; prints the figures.
final class SingleTileReadCostTests: XCTestCase {
    func testPositionedReadAgainstWholePackRead() throws {
        let env = ProcessInfo.processInfo.environment
        try XCTSkipUnless(env["OFFGRID_PERF"] == "1", "set OFFGRID_PERF=1 (with OFFGRID_PERF_MAP_PACK and OFFGRID_PERF_TILE) to measure")
        // Asked for a measurement: missing inputs are a failure, not a skip.
        let path = try XCTUnwrap(env["OFFGRID_PERF_MAP_PACK"], "OFFGRID_PERF_MAP_PACK=<map pack> is required with OFFGRID_PERF=1")
        let spec = try XCTUnwrap(env["OFFGRID_PERF_TILE"], "OFFGRID_PERF_TILE=z/x/y is required with OFFGRID_PERF=1")
        let zxy = spec.split(separator: "/").compactMap { Int($0) }
        let c = TileCoordinate(z: zxy[0], x: zxy[1], y: zxy[2])
        func measure(_ label: String, _ body: () throws -> ArraySlice<UInt8>?) rethrows -> [UInt8] {
            let before = Self.rchar(), start = MonotonicClock.nanoseconds()
            let tile = try body()
            let ms = Double(MonotonicClock.nanoseconds() - start) / 1e6, read = Self.rchar() - before
            print("\(label): \(String(format: "%.1f", ms)) ms, \(read) bytes read")
            return Array(tile ?? [])
        }
        let whole = try measure("whole pack (old path)") {
            guard let data = FileManager.default.contents(atPath: path) else { return nil }
            return try MapPackReader(bytes: [UInt8](data), name: path).tile(c)
        }
        let one = try measure("positioned read") { try MapPackReader(path: path).tile(c) }
        XCTAssertEqual(whole, one)
        XCTAssertFalse(one.isEmpty)
    }

    /// Bytes this process has read so far (`rchar` of /proc/self/io).
    private static func rchar() -> Int {
        let text = (try? String(contentsOfFile: "/proc/self/io", encoding: .utf8)) ?? ""
        let line = text.split(separator: "\n").first { $0.hasPrefix("rchar:") } ?? ""
        return Int(line.split(separator: " ").last ?? "") ?? 0
    }
}
