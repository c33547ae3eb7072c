/// An independent, deliberately plain implementation of "does the region meet the open cell?"
/// on an integer lattice, used as the oracle for `RoutingGrid.tiles(intersecting: Region)`.
///
/// Coordinates are integers in units of 1/`unitsPerDegree` degree (exactly representable as
/// doubles), so every test below is exact integer arithmetic. It shares no code with the
/// implementation: segments are clipped parametrically (Liang–Barsky with rational bounds)
/// instead of the separating-axis test, and inside/outside uses winding numbers instead of
/// crossing parity. The rule is the same: the region (even-odd interior plus its rings) meets
/// the cell's open interior.
enum LatticeOracle {
    static let unitsPerDegree: Int64 = 64

    typealias Point = (x: Int64, y: Int64)
    /// Polygons → rings → closed position lists (first == last).
    typealias Polygons = [[[Point]]]

    /// A fraction n/d with d > 0.
    private struct Bound {
        var n: Int64, d: Int64, strict: Bool
        static func < (a: Bound, b: Bound) -> Bool { a.n * b.d < b.n * a.d }
        static func == (a: Bound, b: Bound) -> Bool { a.n * b.d == b.n * a.d }
    }

    /// Whether the closed segment a–b has a point strictly inside (x0, x1) × (y0, y1).
    static func segmentMeetsOpenBox(_ a: Point, _ b: Point, x0: Int64, y0: Int64, x1: Int64, y1: Int64) -> Bool {
        var lower = Bound(n: 0, d: 1, strict: false)
        var upper = Bound(n: 1, d: 1, strict: false)
        // Each constraint: start + t * delta  > low  and  < high, for t in [0, 1].
        for (start, delta, low, high) in [(a.x, b.x - a.x, x0, x1), (a.y, b.y - a.y, y0, y1)] {
            if delta == 0 {
                if !(start > low && start < high) { return false }
                continue
            }
            // t * delta > low - start, t * delta < high - start
            var tLow = Bound(n: low - start, d: delta, strict: true)
            var tHigh = Bound(n: high - start, d: delta, strict: true)
            if delta < 0 {
                swap(&tLow, &tHigh)
                tLow.n = -tLow.n; tLow.d = -tLow.d
                tHigh.n = -tHigh.n; tHigh.d = -tHigh.d
            }
            if lower < tLow || (lower == tLow && tLow.strict) { lower = tLow }
            if tHigh < upper || (tHigh == upper && tHigh.strict) { upper = tHigh }
        }
        if lower < upper { return true }
        return lower == upper && !lower.strict && !upper.strict
    }

    /// Winding number of the closed ring around p (Sunday's algorithm). p must not lie on the ring.
    static func winding(_ ring: [Point], _ p: Point) -> Int {
        var wn = 0
        for i in 0..<(ring.count - 1) {
            let a = ring[i], b = ring[i + 1]
            let isLeft = (b.x - a.x) * (p.y - a.y) - (p.x - a.x) * (b.y - a.y)
            if a.y <= p.y {
                if b.y > p.y && isLeft > 0 { wn += 1 }
            } else if b.y <= p.y && isLeft < 0 {
                wn -= 1
            }
        }
        return wn
    }

    /// The oracle's answer for the cell [x0, x1] × [y0, y1] (lattice units).
    static func regionMeetsOpenCell(_ polygons: Polygons, x0: Int64, y0: Int64, x1: Int64, y1: Int64) -> Bool {
        for polygon in polygons {
            for ring in polygon {
                for i in 0..<(ring.count - 1)
                where segmentMeetsOpenBox(ring[i], ring[i + 1], x0: x0, y0: y0, x1: x1, y1: y1) {
                    return true
                }
            }
        }
        // No ring enters the open cell, so it is all in or all out: test its centre, in doubled
        // units so the centre is a lattice point.
        let centre: Point = (x0 + x1, y0 + y1)
        for polygon in polygons {
            let doubled = polygon.map { $0.map { (x: $0.x * 2, y: $0.y * 2) } }
            let parity = doubled.reduce(0) { $0 + winding($1, centre) } & 1
            if parity == 1 { return true }
        }
        return false
    }
}
