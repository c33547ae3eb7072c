import TileMath

/// The initial bearing of a short segment with one end at a junction whose latitude's sine and
/// cosine are known, by series instead of libm: the other end's latitude trig by the angle-sum
/// formulas, the longitude difference's by Taylor series, atan2 from a table of atan(k/32).
/// A step measures every road at its junction this way; three libm calls per bearing were a
/// tenth of a long route's answer.
///
/// Not bit-identical to `initialBearingDegrees(from:lon:to:lon:)`: it carries a bound on how far
/// apart the two can be (both computations' rounding, which the formula's x term magnifies for
/// short segments: ~1e-15 absolute each, over the segment's angular length), so a caller can
/// tell when a decision taken on it might go the other way and then measure with libm.
struct SeriesBearing {
    /// Degrees clockwise from north, 0 ..< 360.
    let degrees: Double
    /// |degrees − initialBearingDegrees(…)| is at most this (degrees).
    let bound: Double

    /// Ends further apart than this (1e-7 degrees, in latitude or longitude; 0.05°) are measured
    /// with libm: the small-angle series are exact to ~1e-21 only below it.
    static let maxDeltaE7: UInt32 = 500_000

    /// From `from` to `to` (1e-7 degrees), one of them (`junctionAtFrom`) the junction at
    /// latitude `junction`. Nil when the segment has no length, is not short, or the junction
    /// lies beyond 85° of latitude.
    @inline(__always)
    init?(from: (latE7: Int32, lonE7: Int32), to: (latE7: Int32, lonE7: Int32), junctionAtFrom: Bool, junction: JunctionLatitude) {
        let dLatE7 = to.latE7 &- from.latE7, dLonE7 = to.lonE7 &- from.lonE7
        // Magnitudes, not abs: a wrapped difference (across the antimeridian, or a hostile file)
        // may be Int32.min, which abs traps on; a wrapped one is never short, so libm measures it.
        guard dLatE7 != 0 || dLonE7 != 0, dLatE7.magnitude < Self.maxDeltaE7, dLonE7.magnitude < Self.maxDeltaE7,
              junction.latE7.magnitude < 850_000_000
        else { return nil }
        let radiansPerE7 = 1e-7 * (Double.pi / 180)
        let j = junction.trig
        let (sinDelta, cosDelta) = smallAngleSinCos(Double(junctionAtFrom ? dLatE7 : 0 &- dLatE7) * radiansPerE7)
        let otherSin = j.sin * cosDelta + j.cos * sinDelta, otherCos = j.cos * cosDelta - j.sin * sinDelta
        let (sinFrom, cosFrom, sinTo, cosTo) = junctionAtFrom ? (j.sin, j.cos, otherSin, otherCos) : (otherSin, otherCos, j.sin, j.cos)
        let (sinDLon, cosDLon) = smallAngleSinCos(Double(dLonE7) * radiansPerE7)
        let y = sinDLon * cosTo
        let x = cosFrom * sinTo - sinFrom * cosTo * cosDLon
        var d = tableAtan2(y, x) * (180 / Double.pi)
        if d < 0 { d += 360 }
        degrees = d >= 360 ? 0 : d
        // 1e-14 absolute in x or y (both computations' noise, with a margin of 5) turns the
        // direction by at most 1e-14 / max(|x|, |y|) radians; the series and the table add < 1e-15.
        bound = (1e-14 / max(abs(x), abs(y)) + 1e-15) * (180 / Double.pi)
    }

    /// True when `value`, computed from approximate bearings with total error `bound`, may lie
    /// on the other side of a whole or half degree than the exact value would: there a rounding
    /// to whole degrees or a whole-degree threshold of the step rules could decide otherwise.
    @inline(__always)
    static func nearHalfDegree(_ value: Double, bound: Double) -> Bool {
        // Adding and taking away 1.5 × 2^52 rounds to a whole number (|value| < 2^50 here):
        // no libm call.
        let twice = value * 2, shift = 0x1.8p52
        return abs(twice - ((twice + shift) - shift)) <= 2 * bound
    }
}

/// sin and cos of |x| ≤ 0.05° (8.73e-4 rad): the first terms left out are below 1e-21.
@inline(__always) private func smallAngleSinCos(_ x: Double) -> (sin: Double, cos: Double) {
    let x2 = x * x
    return (x * (1 - x2 * (1.0 / 6) * (1 - x2 * (1.0 / 20))), 1 - x2 * 0.5 * (1 - x2 * (1.0 / 12)))
}

/// atan(k / 32) for k = 0 … 32 (correctly rounded).
private let atanOf32nds: [Double] = [
    0.0, 0.031239833430268277, 0.06241880999595735, 0.09347678115858947, 0.12435499454676144,
    0.15499674192394097, 0.18534794999569476, 0.21535769969773805, 0.24497866312686414,
    0.2741674511196588, 0.3028848683749714, 0.3310960767041321, 0.35877067027057225,
    0.38588266939807375, 0.4124104415973873, 0.43833655985795783, 0.4636476090008061,
    0.48833395105640554, 0.5123894603107377, 0.5358112379604637, 0.5585993153435624,
    0.5807563535676704, 0.6022873461349642, 0.6231993299340659, 0.6435011087932844,
    0.6632029927060933, 0.6823165548747481, 0.7008544078844502, 0.7188299996216245,
    0.7362574289814281, 0.7531512809621944, 0.7695264804056583, 0.7853981633974483,
]

/// atan2(y, x), radians in −π … π, to within ~3e-16: with t the smaller magnitude over the larger
/// and c the nearest k/32 (exact in binary), atan t = atan c + atan((t − c) / (1 + tc)), whose
/// argument is below 1/64, where five terms of the series leave less than 1e-21.
@inline(__always) private func tableAtan2(_ y: Double, _ x: Double) -> Double {
    let ax = abs(x), ay = abs(y)
    let swapped = ay > ax
    let t = swapped ? ax / ay : ay / ax
    let k = Int(t * 32 + 0.5)
    let c = Double(k) * (1.0 / 32)
    let u = (t - c) / (1 + t * c), u2 = u * u
    var angle = atanOf32nds.withUnsafeBufferPointer { $0[k] }
        + u * (1 - u2 * (1.0 / 3 - u2 * (1.0 / 5 - u2 * (1.0 / 7 - u2 * (1.0 / 9)))))
    if swapped { angle = Double.pi / 2 - angle }
    if x < 0 { angle = Double.pi - angle }
    return y < 0 ? -angle : angle
}
