import OffgridCore

/// `install-style PACK`.
public struct StyleInstallReport: Encodable, Equatable {
    public var uri: String
    public var pack: String
    public var created: Bool
    public var resources: Int
    /// Distinct content hashes (two identical glyph ranges are one file).
    public var uniqueResources: Int
    public var resourcesWritten: Int
    public var resourcesAlreadyStored: Int
    /// Resources (by path) compared with the style's previous version.
    public var resourcesUnchanged: Int
    public var resourcesChanged: Int
    public var resourcesAdded: Int
    public var resourcesDropped: Int
    public var filesReleased: Int
    public var bytes: Int64
    public var bytesWritten: Int64
    public var evicted: EvictionTotals
    public var store: StoreSummary
    public var seconds: Double
}

/// What the index keeps of a style pack besides its resources (the `styles.info` column).
struct StoredStyleInfo: Encodable {
    struct Sprite: Encodable { var id: String; var url: String }
    struct Source: Encodable { var id: String; var type: String; var url: String; var tiles: [String] }
    var createdBy: String
    var glyphs: String
    var pixelRatios: [Int]
    var fontStacks: [String]
    var sprites: [Sprite]
    var sources: [Source]
    var packBytes: Int
    var pack: String
}

/// One installed style as `style-packs` shows it.
public struct StyleListEntry: Encodable, Equatable {
    public var uri: String
    public var installedAt: String
    public var updatedAt: String
    public var resources: Int
    public var bytes: Int64
    public var uniqueResources: Int
    /// Every resource it lists is stored.
    public var complete: Bool
    /// As recorded at install (null when the record lacks them).
    public var glyphs: JSONValue
    public var pixelRatios: JSONValue
    public var fontStacks: JSONValue
    public var sprites: JSONValue
    public var sources: JSONValue
    public var createdBy: JSONValue
    public var pack: JSONValue
}

/// `style-packs`.
public struct StyleList: Encodable, Equatable {
    public var styles: [StyleListEntry]
    public var store: StoreSummary
}

/// `remove-style URI`.
public struct StyleRemovalReport: Encodable, Equatable {
    public var removed: String
    public var filesReleased: Int
    public var store: StoreSummary
}
