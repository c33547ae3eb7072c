import CZlib

/// CRC-32 (ISO-HDLC, the one zlib, gzip and PNG use), computed by zlib.
public enum CRC32 {
    public static func checksum(_ bytes: UnsafeRawBufferPointer, seed: UInt32 = 0) -> UInt32 {
        var crc = UInt(seed)
        var p = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
        var left = bytes.count
        // zlib takes a 32-bit length; feed large buffers in pieces.
        while left > 0, let base = p {
            let n = min(left, 1 << 30)
            crc = CZlib.crc32(crc, base, UInt32(n))
            p = base + n
            left -= n
        }
        return UInt32(truncatingIfNeeded: crc)
    }

    public static func checksum(_ bytes: [UInt8], seed: UInt32 = 0) -> UInt32 {
        bytes.withUnsafeBytes { checksum($0, seed: seed) }
    }

    public static func checksum(_ bytes: ArraySlice<UInt8>, seed: UInt32 = 0) -> UInt32 {
        bytes.withUnsafeBytes { checksum($0, seed: seed) }
    }
}
