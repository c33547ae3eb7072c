/// A Morton (Z-order) key of a point in E7 degrees: nearby points mostly get nearby keys.
public func mortonKey(latE7: Int32, lonE7: Int32) -> UInt64 {
    func spread(_ x: UInt32) -> UInt64 {
        var v = UInt64(x)
        v = (v | v << 16) & 0x0000_FFFF_0000_FFFF
        v = (v | v << 8) & 0x00FF_00FF_00FF_00FF
        v = (v | v << 4) & 0x0F0F_0F0F_0F0F_0F0F
        v = (v | v << 2) & 0x3333_3333_3333_3333
        v = (v | v << 1) & 0x5555_5555_5555_5555
        return v
    }
    let y = UInt32(bitPattern: latE7) ^ 0x8000_0000, x = UInt32(bitPattern: lonE7) ^ 0x8000_0000
    return spread(x) | spread(y) << 1
}
