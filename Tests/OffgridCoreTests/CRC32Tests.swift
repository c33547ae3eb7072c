import XCTest
import CZlib
@testable import OffgridCore
import TestSupport

/// CRC32.checksum against zlib's crc32() itself, through every path it can take: lengths that
/// end the folding at each step, every alignment, chained seeds, constant fills.
final class CRC32Tests: XCTestCase {
    /// The paths this CPU can run; the automatic one is CShims' own choice.
    private var paths: [CRC32.Path] {
        [.automatic] + (CRC32.hasVPCLMUL ? [.vpclmul] : []) + (CRC32.hasPCLMUL ? [.pclmul] : []) + [.portable]
    }

    /// zlib's crc32 in 1 GiB pieces (its length is 32-bit); an empty buffer gives the seed.
    private func zlibCRC(_ bytes: UnsafeRawBufferPointer, seed: UInt32) -> UInt32 {
        var crc = UInt(seed)
        var offset = 0
        while offset < bytes.count {
            let n = min(bytes.count - offset, 1 << 30)
            crc = CZlib.crc32(crc, bytes.baseAddress!.assumingMemoryBound(to: UInt8.self) + offset, UInt32(n))
            offset += n
        }
        return UInt32(truncatingIfNeeded: crc)
    }

    /// Every path on bytes[start ..< start + length] equals zlib; returns the number of mismatches
    /// so loops stop flooding the log after the first few.
    @discardableResult
    private func check(_ bytes: [UInt8], start: Int = 0, length: Int, seed: UInt32,
                       file: StaticString = #filePath, line: UInt = #line) -> Int {
        bytes.withUnsafeBytes { all in
            let piece = UnsafeRawBufferPointer(rebasing: all[start ..< start + length])
            let expected = zlibCRC(piece, seed: seed)
            var bad = 0
            for path in paths {
                let got = CRC32.checksum(piece, seed: seed, path: path)
                if got != expected {
                    bad += 1
                    XCTFail("\(path) length \(length) start \(start) seed \(seed): \(got) != zlib \(expected)", file: file, line: line)
                }
            }
            return bad
        }
    }

    func testPCLMULChosenWhereTheCPUHasIt() throws {
        // A silent fall back to zlib would pass every comparison below and lose the speed.
        // The project runs on Linux, where /proc/cpuinfo always exists: its absence is a failure.
        let cpuinfo = try String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)
        let flags = Set(cpuinfo.split(separator: "\n").first { $0.hasPrefix("flags") }?.split(separator: " ").map(String.init) ?? [])
        XCTAssertEqual(CRC32.hasPCLMUL, flags.contains("pclmulqdq") && flags.contains("sse4_1"))
        XCTAssertEqual(CRC32.hasVPCLMUL, CRC32.hasPCLMUL && flags.contains("vpclmulqdq") && flags.contains("avx512f"))
    }

    func testEveryLengthUpTo1100() {
        var rng = SplitMix64(seed: 0xC3C3)
        let bytes = rng.bytes(1100)
        var bad = 0
        for length in 0...1100 where bad < 5 {
            bad += check(bytes, length: length, seed: 0)
            bad += check(bytes, length: length, seed: UInt32(truncatingIfNeeded: rng.next()))
        }
    }

    func testLengthsAroundEvery64ByteStep() {
        var rng = SplitMix64(seed: 64)
        let bytes = rng.wideBytes(70_000 + 64)
        var bad = 0
        for step in stride(from: 64, through: 70_000, by: 64) where bad < 5 {
            // Every 256-byte block boundary of the 512-bit lanes is among these too.
            for length in [step - 17, step - 16, step - 1, step, step + 1, step + 15, step + 16, step + 48] {
                bad += check(bytes, start: step % 7, length: length, seed: UInt32(truncatingIfNeeded: step &* 2_654_435_761))
            }
        }
    }

    func testEveryStartAlignment() {
        var rng = SplitMix64(seed: 17)
        let bytes = rng.bytes(5000)
        var bad = 0
        for start in 0..<64 where bad < 5 {
            for length in [0, 1, 15, 16, 63, 64, 65, 79, 80, 127, 128, 129, 255, 256, 257, 271, 272, 511, 512, 1000, 4096 + 13] {
                bad += check(bytes, start: start, length: length, seed: 0xFFFF_FFFF)
            }
        }
    }

    func testChainedSeeds() {
        var rng = SplitMix64(seed: 99)
        let bytes = rng.wideBytes(20_000)
        let whole = bytes.withUnsafeBytes { zlibCRC($0, seed: 0) }
        for split in [0, 1, 15, 63, 64, 65, 100, 128, 1000, 4096, 10_001, 19_936, 19_999, 20_000] {
            for path in paths {
                let first = bytes.withUnsafeBytes { CRC32.checksum(UnsafeRawBufferPointer(rebasing: $0[..<split]), seed: 0, path: path) }
                let second = bytes.withUnsafeBytes { CRC32.checksum(UnsafeRawBufferPointer(rebasing: $0[split...]), seed: first, path: path) }
                XCTAssertEqual(second, whole, "\(path) split at \(split)")
            }
            // The public API on arrays and slices chains the same way.
            XCTAssertEqual(CRC32.checksum(bytes[split...], seed: CRC32.checksum(Array(bytes[..<split]))), whole, "split at \(split)")
        }
    }

    func testConstantFills() {
        for fill: UInt8 in [0x00, 0xFF] {
            let bytes = [UInt8](repeating: fill, count: 70_000)
            var bad = 0
            for length in [0, 1, 4, 16, 63, 64, 65, 128, 1024, 4096, 65_536, 65_537, 70_000] where bad < 5 {
                bad += check(bytes, length: length, seed: 0)
                bad += check(bytes, length: length, seed: 0xFFFF_FFFF)
            }
        }
    }

    func testEmptyBufferGivesTheSeed() {
        for path in paths {
            XCTAssertEqual(CRC32.checksum(UnsafeRawBufferPointer(start: nil, count: 0), seed: 0x1234_5678, path: path), 0x1234_5678)
        }
        XCTAssertEqual(CRC32.checksum([UInt8](), seed: 7), 7)
    }
}
