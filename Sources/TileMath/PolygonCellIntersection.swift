/// Exact predicates between polygon boundaries and grid cells.
///
/// Selection rule (used by `RoutingGrid.tiles(intersecting: PolygonRegion)`): a cell is selected iff the
/// region — its interior plus its boundary rings — meets the cell's OPEN interior. Touching a
/// cell only along its border or at a corner does not select it, which keeps grid-aligned
/// regions exact: the region 9.25,47,9.5,47.25 selects one tile, not its eight neighbours.
///
/// Decision procedure for one cell:
/// 1. some boundary segment meets the open cell → selected;
/// 2. otherwise no boundary passes through the open cell, so the whole open cell is on one side
///    of every ring: it is selected iff its centre is inside the region (even-odd rule).
/// Every comparison is exact (`ExactOrientation`), so the answer never depends on rounding.
enum PolygonCellIntersection {
    /// An open axis-aligned rectangle (minX, maxX) × (minY, maxY).
    struct OpenBox {
        var minX: Double
        var minY: Double
        var maxX: Double
        var maxY: Double
    }

    /// Whether the closed segment a–b has a point strictly inside `box`.
    ///
    /// Separating-axis test: a closed segment and an open convex box are disjoint iff a line
    /// parallel to a box side or to the segment separates them, with the box strictly on one
    /// side. Comparisons on the axes are plain `<=`; the segment's own line uses the exact
    /// orientation of the four corners.
    @inline(__always)
    static func segmentMeetsOpenBox(_ ax: Double, _ ay: Double, _ bx: Double, _ by: Double, _ box: OpenBox) -> Bool {
        if max(ax, bx) <= box.minX || min(ax, bx) >= box.maxX { return false }
        if max(ay, by) <= box.minY || min(ay, by) >= box.maxY { return false }
        if ax == bx && ay == by { return true } // a point strictly inside on both axes
        let s1 = ExactOrientation.sign(ax, ay, bx, by, box.minX, box.minY)
        let s2 = ExactOrientation.sign(ax, ay, bx, by, box.maxX, box.minY)
        let s3 = ExactOrientation.sign(ax, ay, bx, by, box.maxX, box.maxY)
        let s4 = ExactOrientation.sign(ax, ay, bx, by, box.minX, box.maxY)
        // All corners on one closed side: the open box lies strictly on that side.
        if s1 >= 0 && s2 >= 0 && s3 >= 0 && s4 >= 0 { return false }
        if s1 <= 0 && s2 <= 0 && s3 <= 0 && s4 <= 0 { return false }
        return true
    }

    /// Whether segment a→b, which must straddle the horizontal line y = py under the half-open
    /// rule `(ay > py) != (by > py)`, crosses that line strictly right of px. The point must not
    /// lie on the segment.
    @inline(__always)
    static func crossesRightOf(_ ax: Double, _ ay: Double, _ bx: Double, _ by: Double, _ px: Double, _ py: Double) -> Bool {
        let side = ExactOrientation.sign(ax, ay, bx, by, px, py)
        // Going up, the crossing is right of p iff p is left of the edge; going down, the reverse.
        return by > ay ? side > 0 : side < 0
    }

    /// Whether the closed segment a–b contains p.
    @inline(__always)
    static func segmentContains(_ ax: Double, _ ay: Double, _ bx: Double, _ by: Double, _ px: Double, _ py: Double) -> Bool {
        guard px >= min(ax, bx), px <= max(ax, bx), py >= min(ay, by), py <= max(ay, by) else { return false }
        return ExactOrientation.sign(ax, ay, bx, by, px, py) == 0
    }
}

/// A polygon's rings as flat coordinate arrays, the form the predicates above work on.
struct FlatPolygon {
    /// Per ring, x (lon) and y (lat) of its closed position list (first == last).
    var xs: [[Double]]
    var ys: [[Double]]
    var bbox: BBox

    init(_ polygon: GeoPolygon) {
        xs = polygon.rings.map { $0.map(\.lon) }
        ys = polygon.rings.map { $0.map(\.lat) }
        bbox = polygon.bbox
    }

    /// Even-odd rule over all rings; points on a ring count as inside (the region is closed).
    func contains(_ px: Double, _ py: Double) -> Bool {
        guard bbox.contains(GeoPoint(lon: px, lat: py)) else { return false }
        var inside = false
        for r in 0..<xs.count {
            let x = xs[r], y = ys[r]
            for i in 0..<(x.count - 1) {
                if PolygonCellIntersection.segmentContains(x[i], y[i], x[i + 1], y[i + 1], px, py) { return true }
                if (y[i] > py) != (y[i + 1] > py),
                   PolygonCellIntersection.crossesRightOf(x[i], y[i], x[i + 1], y[i + 1], px, py) {
                    inside.toggle()
                }
            }
        }
        return inside
    }
}
