import OffgridCore
import RoutingGraph

/// Checksum fix-ups: every binary format here starts with CRC32s over its header and index, and a
/// mutated input almost never carries the right one, so without a fix-up the fuzzer would spend
/// its time on the one-line "checksum mismatch" refusal (which unit tests cover) and never reach
/// the decoding behind it. Each fix-up rewrites the checksums (and a declared file size, unless the
/// fuzzer wrote an implausible one past 2^62, which is left as a hostile file would have it) so the
/// reader sees a file whose damage is in its content. Nothing else is changed.
public enum Checksums {
    static let implausibleSize: UInt64 = 1 << 62

    /// Pack container (docs/FORMATS.md): preamble CRC @60 over 0..<60, header CRC @28, index CRC @40,
    /// file size @16.
    public static func fixPack(_ b: inout [UInt8]) {
        guard b.count >= 64 else { return }
        if b.u64(at: 16) < implausibleSize { b.put64(UInt64(b.count), at: 16) }
        let headerLength = Int(b.u32(at: 24))
        if headerLength <= b.count - 64 {
            b.put32(CRC32.checksum(b[64..<(64 + headerLength)]), at: 28)
            let index = (64 + headerLength + 7) / 8 * 8, indexLength = Int(b.u32(at: 36))
            if index <= b.count, indexLength <= b.count - index {
                b.put32(CRC32.checksum(b[index..<(index + indexLength)]), at: 40)
            }
        }
        b.put32(CRC32.checksum(b[0..<60]), at: 60)
    }

    /// Routing tile: CRC32 @12 of everything after it.
    public static func fixRoutingTile(_ b: inout [UInt8]) {
        guard b.count >= 16 else { return }
        b.put32(CRC32.checksum(b[16...]), at: 12)
    }

    /// Graph file: each section's CRC32 (its table entry's word at +24, so `verify()` reaches the
    /// hierarchy checks), then the header CRC @16 over 20..<header length (u32 @12), file size @24.
    public static func fixGraph(_ b: inout [UInt8]) {
        guard b.count >= 32 else { return }
        if b.u64(at: 24) < implausibleSize { b.put64(UInt64(b.count), at: 24) }
        let headerLength = Int(b.u32(at: 12))
        guard headerLength >= 20, headerLength <= min(b.count, 1 << 16) else { return }
        fixGraphSections(&b, headerLength: headerLength)
        b.put32(CRC32.checksum(b[20..<headerLength]), at: 16)
    }

    private static func fixGraphSections(_ b: inout [UInt8], headerLength: Int) {
        let count = Int(b.u32(at: 20))
        var at = 32 + 8 * GraphFileFormat.Scalar.allCases.count
        for _ in 0..<4 {  // data version, profile name, profile hash, travel mode
            guard at + 4 <= headerLength else { return }
            at += 4 + Int(b.u32(at: at))
        }
        for _ in 0..<min(count, 256) {
            guard at + 32 <= headerLength else { return }
            let offset = b.u64(at: at + 8), length = b.u64(at: at + 16)
            if offset <= UInt64(b.count), length <= UInt64(b.count) - offset {
                b.put32(CRC32.checksum(b[Int(offset)..<Int(offset + length)]), at: at + 24)
            }
            at += 32
        }
    }
}
