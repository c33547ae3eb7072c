/// Reading past the end or a malformed value; `offset` is where it happened.
public struct BinaryFormatError: Error, CustomStringConvertible {
    public let offset: Int
    public let message: String
    public init(offset: Int, _ message: String) {
        self.offset = offset
        self.message = message
    }
    public var description: String { "\(message) at byte \(offset)" }
}

/// Reads little-endian values from a byte array with bounds checks that throw
/// instead of trapping, so truncated or hostile files become clear errors.
public struct ByteReader {
    public let bytes: [UInt8]
    public private(set) var offset: Int

    public init(_ bytes: [UInt8], offset: Int = 0) {
        self.bytes = bytes
        self.offset = offset
    }

    public var remaining: Int { bytes.count - offset }
    public var isAtEnd: Bool { offset >= bytes.count }

    public mutating func seek(_ newOffset: Int) throws {
        guard newOffset >= 0, newOffset <= bytes.count else {
            throw BinaryFormatError(offset: newOffset, "offset out of range (size \(bytes.count))")
        }
        offset = newOffset
    }

    @inline(__always) private mutating func need(_ n: Int, _ what: String) throws {
        guard n >= 0, remaining >= n else {
            throw BinaryFormatError(offset: offset, "truncated \(what): need \(n) bytes, \(remaining) left")
        }
    }

    @inline(__always) private mutating func fixed<T: FixedWidthInteger>(_: T.Type) throws -> T {
        try need(MemoryLayout<T>.size, "\(T.self)")
        var v: T = 0
        withUnsafeMutableBytes(of: &v) { dst in
            bytes.withUnsafeBytes { src in
                dst.copyMemory(from: UnsafeRawBufferPointer(rebasing: src[offset..<offset + MemoryLayout<T>.size]))
            }
        }
        offset += MemoryLayout<T>.size
        return T(littleEndian: v)
    }

    public mutating func u8() throws -> UInt8 { try need(1, "byte"); defer { offset += 1 }; return bytes[offset] }
    public mutating func u16() throws -> UInt16 { try fixed(UInt16.self) }
    public mutating func u32() throws -> UInt32 { try fixed(UInt32.self) }
    public mutating func u64() throws -> UInt64 { try fixed(UInt64.self) }
    public mutating func i32() throws -> Int32 { try fixed(Int32.self) }
    public mutating func i64() throws -> Int64 { try fixed(Int64.self) }
    public mutating func f64() throws -> Double { Double(bitPattern: try fixed(UInt64.self)) }

    public mutating func varint() throws -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard offset < bytes.count else { throw BinaryFormatError(offset: offset, "truncated varint") }
            let b = bytes[offset]
            offset += 1
            if shift == 63 && b > 1 { throw BinaryFormatError(offset: offset - 1, "varint overflows 64 bits") }
            result |= UInt64(b & 0x7f) << shift
            if b & 0x80 == 0 { return result }
            shift += 7
            if shift > 63 { throw BinaryFormatError(offset: offset, "varint longer than 10 bytes") }
        }
    }

    public mutating func svarint() throws -> Int64 {
        let u = try varint()
        return Int64(bitPattern: (u >> 1) ^ (0 &- (u & 1)))
    }

    public mutating func bytes(_ n: Int) throws -> ArraySlice<UInt8> {
        try need(n, "bytes")
        defer { offset += n }
        return bytes[offset..<offset + n]
    }

    /// A u32 length followed by UTF-8 bytes, as `ByteWriter.string` writes it.
    public mutating func string() throws -> String {
        let n = Int(try u32())
        let slice = try bytes(n)
        guard let s = String(validating: slice, as: UTF8.self) else {
            throw BinaryFormatError(offset: offset - n, "invalid UTF-8 string")
        }
        return s
    }
}
