/// What distinguishes one kind of pack from another in the shared container: its magic, its
/// format version, how entries are stored and the limits a reader enforces before allocating.
/// Each kind (routing, map, style) declares one; the container does the rest.
public struct PackKind: Sendable {
    /// "routing pack", "map pack", "style pack": used in every error message.
    public let name: String
    /// 8 bytes at offset 0.
    public let magic: [UInt8]
    public let version: UInt32
    /// Entries are zlib streams (raw length = inflated length); otherwise stored as is.
    public let compressed: Bool
    /// Every index entry carries the SHA-256 of its content.
    public let hasSHA256: Bool
    public let maxHeaderLength: Int
    public let maxEntries: Int
    public let maxKeyLength: Int
    /// The largest content (raw, inflated) of one entry.
    public let maxEntryLength: Int
    /// How an entry's key reads in messages ("tile 12", "resource \"style.json\"").
    public let describeKey: @Sendable (ArraySlice<UInt8>) -> String

    public init(name: String, magic: String, version: UInt32, compressed: Bool, hasSHA256: Bool,
                maxHeaderLength: Int, maxEntries: Int, maxKeyLength: Int, maxEntryLength: Int,
                describeKey: @escaping @Sendable (ArraySlice<UInt8>) -> String) {
        precondition(magic.utf8.count == 7, "a pack magic is 7 ASCII bytes and a NUL")
        self.name = name
        self.magic = Array(magic.utf8) + [0]
        self.version = version
        self.compressed = compressed
        self.hasSHA256 = hasSHA256
        self.maxHeaderLength = maxHeaderLength
        self.maxEntries = maxEntries
        self.maxKeyLength = maxKeyLength
        self.maxEntryLength = maxEntryLength
        self.describeKey = describeKey
    }

    /// The preamble's flags word for this kind; a reader accepts exactly this value.
    public var flags: UInt32 {
        (compressed ? PackLayout.flagCompressed : 0) | (hasSHA256 ? PackLayout.flagSHA256 : 0)
    }

    /// Bytes of one index entry with a key of `keyLength` bytes.
    public func entrySize(keyLength: Int) -> Int {
        PackLayout.entryFixedSize + keyLength + (hasSHA256 ? 32 : 0)
    }
}
