import Foundation

/// Web-mercator (EPSG:3857) XYZ tiles as used by slippy maps, MBTiles (after the TMS row flip)
/// and PMTiles: at zoom z the world between ±85.0511° is cut into 2^z × 2^z square tiles,
/// x counted eastwards from −180°, y southwards from the north edge.
///
/// A tile is a rectangle in lon/lat too: its west/east edges are meridians and its north/south
/// edges are parallels. Every edge is computed from the exact dyadic fraction `i / 2^z`, so the
/// edge shared by a tile and its children (or its neighbours) is the same `Double` at every
/// zoom: tile covers that subdivide recursively never disagree with a per-zoom computation.
public enum WebMercator {
    /// The latitude where the square mercator world ends: atan(sinh(π)) in degrees.
    public static let maxLatitude = 85.05112877980659
    /// The deepest zoom the tile math supports (4^zoom tiles must fit in an Int64).
    public static let maxZoom = 30

    /// West edge of column `x` at `zoom` (x = 2^zoom gives the east edge of the world, 180).
    @inline(__always)
    public static func lonEdge(_ x: Int, zoom: Int) -> Double {
        let n = Double(UInt64(1) << UInt64(zoom))
        if x <= 0 { return -180 }
        if Double(x) >= n { return 180 }
        return Double(x) / n * 360 - 180
    }

    /// North edge of row `y` at `zoom` (y = 0: 85.0511…, y = 2^zoom: −85.0511…).
    @inline(__always)
    public static func latEdge(_ y: Int, zoom: Int) -> Double {
        let n = Double(UInt64(1) << UInt64(zoom))
        if y <= 0 { return maxLatitude }
        if Double(y) >= n { return -maxLatitude }
        let f = Double(y) / n   // exact: a dyadic fraction
        if f == 0.5 { return 0 }
        return atan(sinh(Double.pi * (1 - 2 * f))) * 180 / Double.pi
    }

    /// The tile's closed lon/lat box.
    public static func bounds(zoom: Int, x: Int, y: Int) -> BBox {
        BBox(minLon: lonEdge(x, zoom: zoom), minLat: latEdge(y + 1, zoom: zoom),
             maxLon: lonEdge(x + 1, zoom: zoom), maxLat: latEdge(y, zoom: zoom))
    }

    /// The column whose half-open span [lonEdge(x), lonEdge(x+1)) holds `lon` (clamped to the world).
    public static func column(containingLon lon: Double, zoom: Int) -> Int {
        let n = 1 << zoom
        guard lon > -180 else { return 0 }
        guard lon < 180 else { return n - 1 }
        var x = min(max(Int(((lon + 180) / 360 * Double(n)).rounded(.down)), 0), n - 1)
        while x > 0 && lonEdge(x, zoom: zoom) > lon { x -= 1 }
        while x + 1 < n && lonEdge(x + 1, zoom: zoom) <= lon { x += 1 }
        return x
    }

    /// The row whose half-open span (latEdge(y+1), latEdge(y)] holds `lat` (clamped to the world).
    public static func row(containingLat lat: Double, zoom: Int) -> Int {
        let n = 1 << zoom
        guard lat < maxLatitude else { return 0 }
        guard lat > -maxLatitude else { return n - 1 }
        let phi = lat * Double.pi / 180
        let f = (1 - log(tan(phi) + 1 / cos(phi)) / Double.pi) / 2
        var y = min(max(Int((f * Double(n)).rounded(.down)), 0), n - 1)
        while y > 0 && latEdge(y, zoom: zoom) < lat { y -= 1 }
        while y + 1 < n && latEdge(y + 1, zoom: zoom) >= lat { y += 1 }
        return y
    }

    /// Ground size of one tile edge at the equator, metres (spherical mercator, WGS84 major axis).
    public static func tileSizeAtEquatorMeters(zoom: Int) -> Double {
        2 * Double.pi * 6_378_137 / Double(UInt64(1) << UInt64(zoom))
    }
}
