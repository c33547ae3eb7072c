import CShims

/// CRC-32 (ISO-HDLC, the one zlib, gzip and PNG use): zlib's crc32(), bit for bit, computed by
/// (V)PCLMULQDQ folding where the CPU has it (CShims' offgrid_crc32) and by zlib elsewhere.
public enum CRC32 {
    public static func checksum(_ bytes: UnsafeRawBufferPointer, seed: UInt32 = 0) -> UInt32 {
        checksum(bytes, seed: seed, path: .automatic)
    }

    public static func checksum(_ bytes: [UInt8], seed: UInt32 = 0) -> UInt32 {
        bytes.withUnsafeBytes { checksum($0, seed: seed) }
    }

    public static func checksum(_ bytes: ArraySlice<UInt8>, seed: UInt32 = 0) -> UInt32 {
        bytes.withUnsafeBytes { checksum($0, seed: seed) }
    }

    /// Which implementation computes it; tests pin each one against zlib.
    enum Path {
        case automatic, vpclmul, pclmul, portable
    }

    static var hasPCLMUL: Bool { offgrid_crc32_has_pclmul() != 0 }
    static var hasVPCLMUL: Bool { offgrid_crc32_has_vpclmul() != 0 }

    static func checksum(_ bytes: UnsafeRawBufferPointer, seed: UInt32, path: Path) -> UInt32 {
        // An empty buffer may have no base address; zlib would answer 0 for a null pointer, the seed is what chaining needs.
        guard let base = bytes.baseAddress, bytes.count > 0 else { return seed }
        switch path {
        case .automatic: return offgrid_crc32(seed, base, bytes.count)
        case .vpclmul:
            precondition(hasVPCLMUL, "CRC32: this CPU has no VPCLMULQDQ with AVX-512")
            return offgrid_crc32_vpclmul(seed, base, bytes.count)
        case .pclmul:
            precondition(hasPCLMUL, "CRC32: this CPU has no PCLMULQDQ")
            return offgrid_crc32_pclmul(seed, base, bytes.count)
        case .portable: return offgrid_crc32_portable(seed, base, bytes.count)
        }
    }
}
