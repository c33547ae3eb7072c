/// SplitMix64 (Steele, Lea, Flood 2014): a tiny fixed-seed generator shared by the test targets,
/// so random test inputs are the same on every run and can be reproduced outside Swift (some
/// expected values were computed with Python over the same generator).
public struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// `count` bytes, each the low byte of one `next()`.
    public mutating func bytes(_ count: Int) -> [UInt8] {
        (0..<count).map { _ in UInt8(truncatingIfNeeded: next()) }
    }

    /// `count` bytes taken eight at a time from each `next()`, least significant first.
    public mutating func wideBytes(_ count: Int) -> [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(count + 8)
        while out.count < count {
            var v = next()
            for _ in 0..<8 { out.append(UInt8(truncatingIfNeeded: v)); v >>= 8 }
        }
        return Array(out.prefix(count))
    }

    /// Uniform in [lo, hi).
    public mutating func double(_ lo: Double, _ hi: Double) -> Double {
        lo + (hi - lo) * Double(next() >> 11) * 0x1p-53
    }

    /// The same as `double`, under the name some tests use.
    public mutating func uniform(_ a: Double, _ b: Double) -> Double { double(a, b) }

    /// Uniform in lo...hi.
    public mutating func int(_ lo: Int, _ hi: Int) -> Int {
        lo + Int(next() % UInt64(hi - lo + 1))
    }

    /// Uniform in 0..<bound (bound > 0).
    public mutating func below(_ bound: Int) -> Int { Int(next(upperBound: UInt64(bound))) }

    /// True with probability `p`.
    public mutating func chance(_ p: Double) -> Bool { double(0, 1) < p }
}
