/// Where in its grid cell an edge can be, in sixteenths of the cell, rounded outward, in a u16:
/// bits 0-3 the south side, 4-7 the north side − 1, 8-11 the west side, 12-15 the east side − 1
/// (sides counted from the cell's south or west edge). Snapping skips an entry whose box lies
/// farther than the best road found so far without reading the edge (docs/FORMATS.md).
public enum CellEdgeBox {
    public static let wholeCell: UInt16 = 0xF0F0

    /// The box holding latitudes `latE7` and longitudes `lonE7`, all inside the cell whose
    /// south-west corner is (south, west).
    public static func packed(latE7: ClosedRange<Int64>, lonE7: ClosedRange<Int64>, south: Int64, west: Int64, cellE7 c: Int64) -> UInt16 {
        func low(_ v: Int64, _ origin: Int64) -> Int { Int(max(0, min(15, (v - origin) * 16 / c))) }
        // The smallest n with origin + (n + 1) c / 16 (rounded down) past v: ceil((v + 1 - origin) 16 / c) − 1.
        func high(_ v: Int64, _ origin: Int64) -> Int { Int(max(0, min(15, ((v + 1 - origin) * 16 + c - 1) / c - 1))) }
        return UInt16(low(latE7.lowerBound, south) | high(latE7.upperBound, south) << 4
                      | low(lonE7.lowerBound, west) << 8 | high(lonE7.upperBound, west) << 12)
    }

    /// The box's sides in 1e-7 degrees: latitudes south...north, longitudes west...east.
    @inline(__always) public static func sides(_ box: UInt16, south: Int64, west: Int64, cellE7 c: Int64)
        -> (south: Int64, north: Int64, west: Int64, east: Int64) {
        let b = Int64(box)
        return (south + ((b & 15) * c) >> 4, south + (((b >> 4 & 15) + 1) * c) >> 4,
                west + ((b >> 8 & 15) * c) >> 4, west + (((b >> 12) + 1) * c) >> 4)
    }

    /// Whether the sides are in order (south ≤ north, west ≤ east): a box a builder can write.
    @inline(__always) public static func isOrdered(_ box: UInt16) -> Bool {
        box & 15 <= box >> 4 & 15 && box >> 8 & 15 <= box >> 12
    }
}
