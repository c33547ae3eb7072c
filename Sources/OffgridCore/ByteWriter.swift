/// Appends little-endian fixed-width values to a growing byte buffer.
/// Every binary format of the project is written through this type, so byte order
/// and layout rules live in one place.
public struct ByteWriter {
    public private(set) var bytes: [UInt8]

    public init(capacity: Int = 0) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    public var count: Int { bytes.count }

    @inline(__always) public mutating func u8(_ v: UInt8) { bytes.append(v) }
    @inline(__always) public mutating func u16(_ v: UInt16) { append(v.littleEndian) }
    @inline(__always) public mutating func u32(_ v: UInt32) { append(v.littleEndian) }
    @inline(__always) public mutating func u64(_ v: UInt64) { append(v.littleEndian) }
    @inline(__always) public mutating func i32(_ v: Int32) { append(v.littleEndian) }
    @inline(__always) public mutating func i64(_ v: Int64) { append(v.littleEndian) }
    @inline(__always) public mutating func f64(_ v: Double) { append(v.bitPattern.littleEndian) }

    /// Unsigned LEB128 varint.
    public mutating func varint(_ v: UInt64) {
        var v = v
        while v >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        bytes.append(UInt8(v))
    }

    /// Zig-zag signed varint, for deltas.
    public mutating func svarint(_ v: Int64) {
        varint(UInt64(bitPattern: (v << 1) ^ (v >> 63)))
    }

    public mutating func append<S: Sequence>(contentsOf s: S) where S.Element == UInt8 {
        bytes.append(contentsOf: s)
    }

    /// A u32 length followed by the UTF-8 bytes.
    public mutating func string(_ s: String) {
        let utf8 = Array(s.utf8)
        u32(UInt32(utf8.count))
        bytes.append(contentsOf: utf8)
    }

    /// Zero bytes until the length is a multiple of `alignment`.
    public mutating func pad(to alignment: Int) {
        while bytes.count % alignment != 0 { bytes.append(0) }
    }

    /// Overwrites a u32 written earlier (for sizes and checksums known only later).
    public mutating func patchU32(at offset: Int, _ v: UInt32) {
        withUnsafeBytes(of: v.littleEndian) { raw in
            for i in 0..<4 { bytes[offset + i] = raw[i] }
        }
    }

    public mutating func patchU64(at offset: Int, _ v: UInt64) {
        withUnsafeBytes(of: v.littleEndian) { raw in
            for i in 0..<8 { bytes[offset + i] = raw[i] }
        }
    }

    @inline(__always) private mutating func append<T: FixedWidthInteger>(_ v: T) {
        withUnsafeBytes(of: v) { bytes.append(contentsOf: $0) }
    }
}
