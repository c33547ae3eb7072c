import XCTest
import CShims
import CZlib
import TestSupport

/// CShims' Adler-32 (what `Zlib.decompress` checks streams with) against zlib's adler32() itself,
/// through every path it can take: lengths around every 32-byte block and chunk boundary, every
/// alignment, seeds up to the largest sums, bytes that make the sums largest.
final class Adler32Tests: XCTestCase {
    private typealias Path = (name: String, sum: (UInt32, UnsafeRawPointer, Int) -> UInt32)

    private var paths: [Path] {
        [("automatic", { offgrid_adler32($0, $1, $2) }), ("portable", { offgrid_adler32_portable($0, $1, $2) })]
            + (offgrid_adler32_has_avx2() != 0 ? [("avx2", { offgrid_adler32_avx2($0, $1, $2) })] : [])
    }

    private func check(_ bytes: [UInt8], start: Int, length: Int, seed: UInt32, line: UInt = #line) -> Int {
        bytes.withUnsafeBytes { all in
            let base = all.baseAddress! + start
            let expected = UInt32(CZlib.adler32_z(UInt(seed), base.assumingMemoryBound(to: UInt8.self), length))
            var bad = 0
            for path in paths where path.sum(seed, base, length) != expected {
                bad += 1
                XCTFail("\(path.name) length \(length) start \(start) seed \(seed)", line: line)
            }
            return bad
        }
    }

    func testEveryPathEqualsZlib() {
        var rng = SplitMix64(seed: 32)
        let random = rng.bytes(40_000)
        let fills: [[UInt8]] = [random, [UInt8](repeating: 0xff, count: 40_000), [UInt8](repeating: 0, count: 40_000),
                                random.map { $0 | 0x80 }]
        // 1 (the start), the largest sums modulo 65521, and others.
        let seeds: [UInt32] = [1, 65520 << 16 | 65520, 0x1234_5678 % 65521, 65520, 65520 << 16]
        var bad = 0
        for bytes in fills {
            for seed in seeds {
                for length in 0...1_100 where bad < 5 { bad += check(bytes, start: length % 7, length: length, seed: seed) }
                // Around the vector loop's chunks of 5,536 bytes (173 blocks) and their multiples.
                for chunks in 1...6 {
                    for delta in -33...33 where bad < 5 {
                        bad += check(bytes, start: 3, length: chunks * 5_536 + delta, seed: seed)
                    }
                }
                if bad < 5 { bad += check(bytes, start: 0, length: bytes.count, seed: seed) }
            }
        }
    }
}
