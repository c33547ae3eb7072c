/// A tiny deterministic RNG (SplitMix64) so test inputs are the same on every run and can be
/// reproduced outside Swift (the expected SHA-256 values were computed with Python's hashlib
/// over the same generator).
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    /// `count` bytes, each the low byte of one `next()`.
    mutating func bytes(_ count: Int) -> [UInt8] {
        (0..<count).map { _ in UInt8(truncatingIfNeeded: next()) }
    }
}

extension SplitMix64 {
    /// Uniform in [lo, hi).
    mutating func double(_ lo: Double, _ hi: Double) -> Double {
        lo + (hi - lo) * Double(next() >> 11) * 0x1p-53
    }
    /// Uniform in lo...hi.
    mutating func int(_ lo: Int, _ hi: Int) -> Int {
        lo + Int(next() % UInt64(hi - lo + 1))
    }
    mutating func chance(_ p: Double) -> Bool { double(0, 1) < p }
}
