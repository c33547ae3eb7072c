import TileMath
/// PMTiles v3 tile ids: tiles are numbered zoom by zoom (all of zoom 0, then all of zoom 1, …),
/// and within a zoom along a Hilbert curve. Because the Hilbert curve visits every aligned
/// sub-square completely before leaving it, the descendants of one tile at a deeper zoom form
/// one contiguous id range (`descendantRange`), which is how map packs query a PMTiles archive.
public enum PMTilesID {
    /// Number of tiles in zooms 0 ..< z: (4^z − 1) / 3.
    @inline(__always)
    public static func zoomBase(_ z: Int) -> UInt64 {
        ((UInt64(1) << (2 * UInt64(z))) - 1) / 3
    }

    /// The id of a valid tile (z ≤ 31).
    public static func id(_ t: TileCoordinate) -> UInt64 {
        zoomBase(t.z) + hilbertIndex(z: t.z, x: UInt64(t.x), y: UInt64(t.y))
    }

    /// Position of (x, y) along the order-z Hilbert curve (PMTiles' orientation).
    @inline(__always)
    public static func hilbertIndex(z: Int, x: UInt64, y: UInt64) -> UInt64 {
        var x = x, y = y, d: UInt64 = 0
        var a = z - 1
        while a >= 0 {
            let s = UInt64(1) << UInt64(a)
            let rx: UInt64 = (x & s) != 0 ? 1 : 0
            let ry: UInt64 = (y & s) != 0 ? 1 : 0
            d += ((3 * rx) ^ ry) << (2 * UInt64(a))
            // Rotate the lower bits (the higher ones are never looked at again).
            if ry == 0 {
                if rx == 1 {
                    x = (s - 1) - (x & (s - 1))
                    y = (s - 1) - (y & (s - 1))
                }
                swap(&x, &y)
            }
            a -= 1
        }
        return d
    }

    /// The tile of an id, or nil when the id is beyond zoom 31.
    public static func coordinate(_ id: UInt64) -> TileCoordinate? {
        var z = 0
        while z < 32 {
            let next = zoomBase(z + 1)
            if id < next { break }
            z += 1
        }
        guard z < 32 else { return nil }
        var pos = id - zoomBase(z)
        var x: UInt64 = 0, y: UInt64 = 0
        var s: UInt64 = 1
        let n = UInt64(1) << UInt64(z)
        while s < n {
            let rx = (pos / 2) & 1
            let ry = (pos ^ rx) & 1
            // Rotate.
            if ry == 0 {
                if rx == 1 {
                    x = s &- 1 &- x
                    y = s &- 1 &- y
                }
                swap(&x, &y)
            }
            x += s * rx
            y += s * ry
            pos /= 4
            s *= 2
        }
        return TileCoordinate(z: z, x: Int(x), y: Int(y))
    }

    /// The ids of `tile`'s descendants at `zoom` (≥ tile.z): one half-open range.
    public static func descendantRange(of tile: TileCoordinate, atZoom zoom: Int) -> Range<UInt64> {
        let k = UInt64(zoom - tile.z)
        let first = zoomBase(zoom) + (hilbertIndex(z: tile.z, x: UInt64(tile.x), y: UInt64(tile.y)) << (2 * k))
        return first..<(first + (UInt64(1) << (2 * k)))
    }
}
