/// The exact planar predicates of this module, for other modules that test their own shapes
/// against lon/lat rectangles (web-mercator tiles are lon/lat rectangles too). Every answer is
/// exact: orientation signs fall back to exact arithmetic when rounding could mislead.
public enum PlanarPredicates {
    /// +1 when c lies left of the directed line a→b, −1 when right, 0 when collinear.
    @inline(__always)
    public static func orientation(_ ax: Double, _ ay: Double, _ bx: Double, _ by: Double,
                                   _ cx: Double, _ cy: Double) -> Int {
        ExactOrientation.sign(ax, ay, bx, by, cx, cy)
    }

    /// Whether the closed segment a–b has a point strictly inside the open box
    /// (minX, maxX) × (minY, maxY).
    @inline(__always)
    public static func segmentMeetsOpenBox(_ ax: Double, _ ay: Double, _ bx: Double, _ by: Double,
                                           minX: Double, minY: Double, maxX: Double, maxY: Double) -> Bool {
        PolygonCellIntersection.segmentMeetsOpenBox(ax, ay, bx, by,
                                                    .init(minX: minX, minY: minY, maxX: maxX, maxY: maxY))
    }

    /// For a segment straddling the line y = py under the half-open rule `(ay > py) != (by > py)`:
    /// whether it crosses that line strictly right of px (p must not lie on the segment).
    @inline(__always)
    public static func crossesRightOf(_ ax: Double, _ ay: Double, _ bx: Double, _ by: Double,
                                      _ px: Double, _ py: Double) -> Bool {
        PolygonCellIntersection.crossesRightOf(ax, ay, bx, by, px, py)
    }

    /// Whether the closed segment a–b contains p.
    @inline(__always)
    public static func segmentContains(_ ax: Double, _ ay: Double, _ bx: Double, _ by: Double,
                                       _ px: Double, _ py: Double) -> Bool {
        PolygonCellIntersection.segmentContains(ax, ay, bx, by, px, py)
    }
}
