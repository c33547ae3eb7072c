import OffgridCore

/// The store's totals, the `store` field of every command's report.
public struct StoreSummary: Encodable, Equatable {
    public var bytes: Int64
    public var files: Int
    /// Files (and their bytes) no region or style uses: eviction may delete them.
    public var evictableBytes: Int64
    public var evictableFiles: Int
    public var mapPacks: Int
    /// Distinct map packs some region uses.
    public var mapPacksInRegions: Int
    @NullWhenNil public var quota: Int64?
    /// Quota − 50 MB: eviction starts above it.
    @NullWhenNil public var evictionThreshold: Int64?
    public var regions: Int
    public var styles: Int
}

/// Files and bytes an operation evicted.
public struct EvictionTotals: Encodable, Equatable {
    public var files: Int
    public var bytes: Int64

    init(files: Int, bytes: Int64) {
        self.files = files
        self.bytes = bytes
    }

    init(_ evicted: [EvictedObject]) {
        self.init(files: evicted.count, bytes: evicted.reduce(Int64(0)) { $0 + $1.bytes })
    }
}

/// A file eviction removed.
public struct EvictedObject: Encodable, Equatable, Sendable {
    public var sha256: String
    public var kind: StoredObjectKind
    public var bytes: Int64
    var expiresAt: Int64?

    /// The expiry (ISO 8601), or null when it never expires.
    public var expires: String? { expiresAt.map { ISO8601.string($0) } }

    private enum CodingKeys: String, CodingKey { case sha256, kind, bytes, expires }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(sha256, forKey: .sha256)
        try c.encode(kind, forKey: .kind)
        try c.encode(bytes, forKey: .bytes)
        if let expires { try c.encode(expires, forKey: .expires) } else { try c.encodeNil(forKey: .expires) }
    }
}

/// `quota` without an argument.
public struct QuotaStatus: Encodable, Equatable {
    @NullWhenNil public var quota: Int64?
    public var store: StoreSummary
}

/// `quota BYTES|none`.
public struct QuotaReport: Encodable, Equatable {
    @NullWhenNil public var quota: Int64?
    /// Quota 0: every region and style removed, every file deleted.
    public var wiped: Bool
    /// Only when wiped.
    public var regionsRemoved: Int?
    public var stylesRemoved: Int?
    public var filesRemoved: Int?
    public var bytesFreed: Int64?
    public var evicted: EvictionTotals
    /// Only when not wiped: the regions and styles alone use more than the quota.
    public var overQuota: Bool?
    public var store: StoreSummary
}

/// `evict [--all]`.
public struct EvictReport: Encodable, Equatable {
    /// In eviction order.
    public var evicted: [EvictedObject]
    public var evictedFiles: Int
    public var evictedBytes: Int64
    public var orphansRemoved: Int
    @NullWhenNil public var quota: Int64?
    @NullWhenNil public var evictionThreshold: Int64?
    public var store: StoreSummary
}

/// What `verify` found.
public struct VerifyReport: Encodable, Equatable {
    /// A file the index lists that is missing or whose content is wrong.
    public struct BadFile: Encodable, Equatable {
        public var path: String
        public var sha256: String
        public var kind: String
        /// What is wrong (corrupt files only).
        public var problem: String?
    }

    public struct Removed: Encodable, Equatable {
        public var indexRows: Int
        public var files: Int
    }

    /// The store directory.
    public var store: String
    /// The index passes SQLite's check and every file it lists is present with its SHA-256.
    public var consistent: Bool
    /// SQLite's `quick_check` answer (`ok`).
    public var indexCheck: String
    public var files: Int
    public var bytesChecked: Int64
    public var ok: Int
    public var corrupt: [BadFile]
    public var missing: [BadFile]
    public var orphans: [String]
    public var temporaryFiles: [String]
    public var repaired: Bool
    /// With `repair` only.
    public var removed: Removed?
    public var regionsIncomplete: [String]
    public var stylesIncomplete: [String]
    public var seconds: Double
}
