/// Exact sign of the 2-D orientation determinant, so tile selection never depends on rounding
/// (a polygon edge running exactly along a grid line, or a vertex exactly on a cell corner,
/// is classified the same way on every machine).
///
/// A fast floating-point evaluation decides almost every case; when its error bound cannot
/// rule out the wrong sign, the determinant is recomputed exactly with floating-point
/// expansions (Shewchuk, "Adaptive Precision Floating-Point Arithmetic and Fast Robust
/// Geometric Predicates", 1997).
enum ExactOrientation {
    /// +1 when `c` lies left of the directed line a→b (counter-clockwise turn), −1 when right,
    /// 0 when the three points are collinear. Inputs must be finite.
    @inline(__always)
    static func sign(_ ax: Double, _ ay: Double, _ bx: Double, _ by: Double, _ cx: Double, _ cy: Double) -> Int {
        let detLeft = (ax - cx) * (by - cy)
        let detRight = (ay - cy) * (bx - cx)
        let det = detLeft - detRight
        let detSum: Double
        if detLeft > 0 {
            if detRight <= 0 { return signum(det) }
            detSum = detLeft + detRight
        } else if detLeft < 0 {
            if detRight >= 0 { return signum(det) }
            detSum = -detLeft - detRight
        } else {
            return signum(det)
        }
        // Shewchuk's ccwerrboundA = (3 + 16ε)ε with ε = 2^-53.
        let errorBound = (3.0 + 16.0 * 0x1p-53) * 0x1p-53 * detSum
        if det >= errorBound || -det >= errorBound { return signum(det) }
        return exactSign(ax, ay, bx, by, cx, cy)
    }

    @inline(__always) private static func signum(_ v: Double) -> Int { v > 0 ? 1 : (v < 0 ? -1 : 0) }

    /// (ax−cx)(by−cy) − (ay−cy)(bx−cx) evaluated without any rounding.
    private static func exactSign(_ ax: Double, _ ay: Double, _ bx: Double, _ by: Double, _ cx: Double, _ cy: Double) -> Int {
        // Each difference is exactly hi + lo.
        let (acxHi, acxLo) = twoDiff(ax, cx)
        let (bcyHi, bcyLo) = twoDiff(by, cy)
        let (acyHi, acyLo) = twoDiff(ay, cy)
        let (bcxHi, bcxLo) = twoDiff(bx, cx)
        // Expand both products into exact two-term partial products, negating the right one.
        var terms: [Double] = []
        terms.reserveCapacity(16)
        for (x, y, negate) in [(acxHi, bcyHi, false), (acxHi, bcyLo, false), (acxLo, bcyHi, false), (acxLo, bcyLo, false),
                               (acyHi, bcxHi, true), (acyHi, bcxLo, true), (acyLo, bcxHi, true), (acyLo, bcxLo, true)] {
            let (p, e) = twoProduct(x, y)
            terms.append(negate ? -p : p)
            terms.append(negate ? -e : e)
        }
        // Sum into a nonoverlapping expansion ordered by increasing magnitude; its largest
        // nonzero component carries the sign of the exact sum.
        var expansion: [Double] = []
        expansion.reserveCapacity(17)
        for t in terms where t != 0 {
            var q = t
            for i in 0..<expansion.count {
                let (s, err) = twoSum(q, expansion[i])
                expansion[i] = err
                q = s
            }
            expansion.append(q)
        }
        for component in expansion.reversed() where component != 0 {
            return component > 0 ? 1 : -1
        }
        return 0
    }

    /// a + b = s + err exactly (Knuth's branch-free TwoSum).
    @inline(__always) private static func twoSum(_ a: Double, _ b: Double) -> (Double, Double) {
        let s = a + b
        let bVirtual = s - a
        let aVirtual = s - bVirtual
        return (s, (a - aVirtual) + (b - bVirtual))
    }

    @inline(__always) private static func twoDiff(_ a: Double, _ b: Double) -> (Double, Double) {
        twoSum(a, -b)
    }

    /// a × b = p + err exactly, using a fused multiply-add for the error.
    @inline(__always) private static func twoProduct(_ a: Double, _ b: Double) -> (Double, Double) {
        let p = a * b
        return (p, (-p).addingProduct(a, b))
    }
}
