import OffgridCore

/// The container's byte layout (docs/FORMATS.md, "Pack container"); these constants are its
/// single source in code. All integers are little-endian.
///
/// ```
/// 0      64     preamble
/// 64     H      kind header (the kind's own fields)
/// ..     0-7    zero padding to a multiple of 8
/// I      L      index: N entries, keys strictly ascending (byte-wise)
/// D      ...    entry data to the end of the file
/// ```
/// Preamble: magic[8], version u32 @8, flags u32 @12, file size u64 @16, header length u32 @24,
/// header CRC32 @28, entry count u32 @32, index length u32 @36, index CRC32 @40, reserved u32 @44,
/// index offset u64 @48, reserved u32 @56, preamble CRC32 (of bytes 0..<60) @60.
///
/// Index entry: key length u16, key, offset u64 (absolute), stored length u64, raw length u64,
/// CRC32 u32 of the raw content, then the raw content's SHA-256 (32 bytes) when flagged.
public enum PackLayout {
    public static let preambleSize = 64
    /// Bytes of an entry besides its key and optional SHA-256: 2 + 8 + 8 + 8 + 4.
    public static let entryFixedSize = 30
    public static let flagCompressed: UInt32 = 1
    public static let flagSHA256: UInt32 = 2
    /// Deflate cannot expand data more than 1032:1; an entry claiming more is corrupt.
    public static let maxCompressionRatio = 1032
    /// The smallest zlib stream (2-byte header, empty final block, Adler-32).
    public static let minCompressedLength = 8
    /// zlib level of compressed kinds; fixed so that the same contents give the same bytes.
    /// Deflate is a large share of a routing pack build: on the ~5 M extract's routing tiles
    /// level 6 (zlib's default) took 1 s longer than 5 for 0.2 % fewer bytes, level 9 3x the
    /// CPU of 6 for 0.3 % (docs/FORMATS.md, bench/README.md).
    public static let compressionLevel: Int32 = 5

    static let versionOffset = 8
    static let flagsOffset = 12
    static let fileSizeOffset = 16
    static let headerLengthOffset = 24
    static let headerCRCOffset = 28
    static let entryCountOffset = 32
    static let indexLengthOffset = 36
    static let indexCRCOffset = 40
    static let reserved1Offset = 44
    static let indexOffsetOffset = 48
    static let reserved2Offset = 56
    static let preambleCRCOffset = 60

    /// Where the index starts after a header of `headerLength` bytes.
    public static func indexOffset(headerLength: Int) -> Int {
        (preambleSize + headerLength + 7) / 8 * 8
    }
}

/// The preamble's fields as read from a file, before they are checked against each other.
struct PackPreamble {
    var version: UInt32
    var flags: UInt32
    var fileSize: UInt64
    var headerLength: UInt32
    var headerCRC32: UInt32
    var entryCount: UInt32
    var indexLength: UInt32
    var indexCRC32: UInt32
    var reserved1: UInt32
    var indexOffset: UInt64
    var reserved2: UInt32

    func encoded(magic: [UInt8]) -> [UInt8] {
        var w = ByteWriter(capacity: PackLayout.preambleSize)
        w.append(contentsOf: magic)
        w.u32(version); w.u32(flags); w.u64(fileSize)
        w.u32(headerLength); w.u32(headerCRC32)
        w.u32(entryCount); w.u32(indexLength); w.u32(indexCRC32); w.u32(reserved1)
        w.u64(indexOffset); w.u32(reserved2)
        w.u32(CRC32.checksum(w.bytes))
        return w.bytes
    }

    /// Reads the fields of a 64-byte preamble (magic and CRC checked by the caller).
    static func decode(_ b: ArraySlice<UInt8>) -> PackPreamble {
        let base = b.startIndex
        func u32(_ at: Int) -> UInt32 {
            UInt32(b[base + at]) | UInt32(b[base + at + 1]) << 8 | UInt32(b[base + at + 2]) << 16 | UInt32(b[base + at + 3]) << 24
        }
        func u64(_ at: Int) -> UInt64 { UInt64(u32(at)) | UInt64(u32(at + 4)) << 32 }
        return PackPreamble(version: u32(8), flags: u32(12), fileSize: u64(16), headerLength: u32(24),
                            headerCRC32: u32(28), entryCount: u32(32), indexLength: u32(36), indexCRC32: u32(40),
                            reserved1: u32(44), indexOffset: u64(48), reserved2: u32(56))
    }
}
