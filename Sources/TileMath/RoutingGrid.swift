/// The fixed lon/lat grid routing tiles live on (like Valhalla's 0.25° level).
///
/// Cell (row, column) covers the half-open box
/// [−180 + column·d, −180 + (column+1)·d) × [−90 + row·d, −90 + (row+1)·d), with rows counted
/// from the south pole upward and columns from the antimeridian eastward; its id is
/// `row · columns + column`. Points exactly on the east (lon 180) or north (lat 90) edge of the
/// world belong to the last column / row. Cell edges are always computed by `lonEdge`/`latEdge`,
/// and points are placed by comparing against those same edges, so a point exactly on an edge
/// always lands in the cell east/north of it (lon 9.5 with d = 0.25 starts column 758).
public struct RoutingGrid: Hashable, Sendable {
    /// Cell size in degrees (both directions).
    public let degrees: Double
    /// Cells around the world east-west: 360 / degrees.
    public let columns: Int
    /// Cells from pole to pole: 180 / degrees.
    public let rows: Int

    /// The default 0.25° grid: 1440 × 720 cells.
    public static let standard = RoutingGrid(uncheckedDegrees: 0.25, rows: 720)

    /// `degrees` must be positive and divide 180 evenly, and the grid must fit 32-bit tile ids.
    public init(degrees: Double = 0.25) throws {
        guard degrees.isFinite, degrees > 0, degrees <= 180 else {
            throw GeometryError("grid size must be a number of degrees in (0, 180], got \(shortestDecimal(degrees))")
        }
        let quotient = 180 / degrees
        let rows = quotient.rounded()
        guard abs(rows * degrees - 180) <= 1e-9 else {
            throw GeometryError("grid size \(shortestDecimal(degrees))° does not divide 180° evenly (180 / \(shortestDecimal(degrees)) = \(shortestDecimal(quotient)))")
        }
        // columns · rows = 2 · rows² tile ids must fit in UInt32.
        guard rows <= 46_340 else {
            throw GeometryError("grid size \(shortestDecimal(degrees))° is too fine: tile ids would not fit in 32 bits")
        }
        self.init(uncheckedDegrees: degrees, rows: Int(rows))
    }

    private init(uncheckedDegrees degrees: Double, rows: Int) {
        self.degrees = degrees
        self.rows = rows
        self.columns = 2 * rows
    }

    public var tileCount: Int { rows * columns }

    // MARK: Cell edges

    /// West edge of `column` (the east edge of `column − 1`); exactly −180 and 180 at the ends.
    @inline(__always) public func lonEdge(_ column: Int) -> Double {
        column <= 0 ? -180 : (column >= columns ? 180 : -180 + Double(column) * degrees)
    }

    /// South edge of `row`; exactly −90 and 90 at the ends.
    @inline(__always) public func latEdge(_ row: Int) -> Double {
        row <= 0 ? -90 : (row >= rows ? 90 : -90 + Double(row) * degrees)
    }

    // MARK: Points to cells

    /// The column whose half-open span holds `lon`; longitudes beyond ±180 clamp to the end
    /// columns, and NaN gives column 0 (callers validate coordinates first).
    public func column(containingLon lon: Double) -> Int {
        guard lon > -180 else { return 0 }
        guard lon < 180 else { return columns - 1 }
        // The quotient is only a first guess: lon + 180 can round onto the next edge.
        var c = min(max(Int(((lon + 180) / degrees).rounded(.down)), 0), columns - 1)
        while c > 0 && lonEdge(c) > lon { c -= 1 }
        while c + 1 < columns && lonEdge(c + 1) <= lon { c += 1 }
        return c
    }

    /// The row whose half-open span holds `lat`; clamps like `column(containingLon:)`.
    public func row(containingLat lat: Double) -> Int {
        guard lat > -90 else { return 0 }
        guard lat < 90 else { return rows - 1 }
        var r = min(max(Int(((lat + 90) / degrees).rounded(.down)), 0), rows - 1)
        while r > 0 && latEdge(r) > lat { r -= 1 }
        while r + 1 < rows && latEdge(r + 1) <= lat { r += 1 }
        return r
    }

    public func tileId(lon: Double, lat: Double) -> UInt32 {
        tileId(row: row(containingLat: lat), column: column(containingLon: lon))
    }

    public func tileId(of point: GeoPoint) -> UInt32 {
        tileId(lon: point.lon, lat: point.lat)
    }

    // MARK: Ids

    /// Row and column must be in range.
    public func tileId(row: Int, column: Int) -> UInt32 {
        UInt32(truncatingIfNeeded: row * columns + column)
    }

    /// Whether `id` names a cell of this grid (ids read from files must be checked before use).
    public func isValid(_ id: UInt32) -> Bool { Int(id) < tileCount }

    public func row(of id: UInt32) -> Int { Int(id) / columns }

    public func column(of id: UInt32) -> Int { Int(id) % columns }

    /// The cell's box (closed here; as a cell it owns its west and south edges only).
    public func bbox(of id: UInt32) -> BBox {
        let r = row(of: id), c = column(of: id)
        return BBox(minLon: lonEdge(c), minLat: latEdge(r), maxLon: lonEdge(c + 1), maxLat: latEdge(r + 1))
    }

    // MARK: Boxes to cells

    /// Columns whose open span (lonEdge(c), lonEdge(c+1)) meets [minLon, maxLon].
    func columns(overlapping minLon: Double, _ maxLon: Double) -> ClosedRange<Int>? {
        guard minLon <= maxLon, maxLon > -180, minLon < 180 else { return nil }
        let first = column(containingLon: minLon)
        var last = column(containingLon: maxLon)
        if lonEdge(last) >= maxLon { last -= 1 } // only touches that column's west edge
        return last >= first ? first...last : nil
    }

    /// Rows whose open span meets [minLat, maxLat].
    func rows(overlapping minLat: Double, _ maxLat: Double) -> ClosedRange<Int>? {
        guard minLat <= maxLat, maxLat > -90, minLat < 90 else { return nil }
        let first = row(containingLat: minLat)
        var last = row(containingLat: maxLat)
        if latEdge(last) >= maxLat { last -= 1 }
        return last >= first ? first...last : nil
    }

    /// Tiles whose open interior meets the closed box, sorted by id. Sharing only an edge or a
    /// corner does not count, the same rule as `tiles(intersecting: PolygonRegion)`, so a grid-aligned
    /// box selects exactly the cells inside it.
    public func tiles(intersecting bbox: BBox) -> [UInt32] {
        guard let columnRange = columns(overlapping: bbox.minLon, bbox.maxLon),
              let rowRange = rows(overlapping: bbox.minLat, bbox.maxLat) else { return [] }
        var ids: [UInt32] = []
        ids.reserveCapacity(columnRange.count * rowRange.count)
        for r in rowRange {
            for c in columnRange { ids.append(tileId(row: r, column: c)) }
        }
        return ids
    }
}
