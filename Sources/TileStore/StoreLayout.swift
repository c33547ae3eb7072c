import Foundation

/// What a stored file is. The raw value is the `objects.kind` column.
public enum StoredObjectKind: String, Sendable, CaseIterable, Encodable {
    /// A map tile pack (`OGMPACK`), from a region directory.
    case mapPack = "map-pack"
    /// A routing pack (`OGRPACK`).
    case routingPack = "routing-pack"
    /// One routing tile loaded from a repository (the raw `<id>.tile` bytes `tilepack-unpack`
    /// writes); a region's tiles are also linked into its unpacked routing directory.
    case routingTile = "routing-tile"
    /// One resource of a style pack (the style JSON, a sprite file, a glyph range).
    case styleResource = "style-resource"

    /// Top-level directory of the kind's files.
    public var directory: String {
        switch self {
        case .mapPack: return "maps"
        case .routingPack: return "routing"
        case .routingTile: return "routing-tiles"
        case .styleResource: return "resources"
        }
    }

    var fileSuffix: String {
        switch self {
        case .mapPack: return ".pack"
        case .routingPack: return ".routing.pack"
        case .routingTile: return ".tile"
        case .styleResource: return ""
        }
    }
}

/// The store directory:
///
/// ```
/// STORE/
///   index.sqlite (+ -wal, -shm)    the index (SQLite, WAL)
///   lock                           flock(2)ed by every process that changes the store
///   maps/<h2>/<sha256>.pack        map packs, named by the SHA-256 of their bytes
///   routing/<h2>/<sha256>.routing.pack
///   resources/<h2>/<sha256>        style resources
///   routing-tiles/<h2>/<sha256>.tile  routing tiles loaded from a repository
///   routing-dirs/<region>/         a region's unpacked routing directory (hard links + manifest.json)
///   partial/<sha256>.part          downloads in progress (kept for resume)
///   tmp/                           files being written (<pid>-<n>.tmp), renamed into place
/// ```
/// `<h2>` is the first two hex digits of the hash. Files are content-addressed, so a pack two
/// regions share (or a glyph range two styles share) is one file.
public enum StoreLayout {
    public static let indexName = "index.sqlite"
    public static let lockName = "lock"
    public static let tmpDirectory = "tmp"
    /// Downloads in progress (`load`, `update`): kept across runs, continued with Range requests.
    public static let partialDirectory = "partial"
    /// Unpacked routing directories of regions loaded with routing.
    public static let routingDirectories = "routing-dirs"
    /// The directories a store creates.
    public static var directories: [String] {
        StoredObjectKind.allCases.map(\.directory) + [tmpDirectory, partialDirectory, routingDirectories]
    }

    /// The first entry of a directory listing that keeps the directory from becoming a store,
    /// or nil: for an empty directory, one an interrupted creation left (the store's directories,
    /// its lock, a half-made index), and one whose index another process has renamed into place
    /// since the caller last looked (a store now: the creator holds the lock the caller waits for).
    static func foreignEntry(in entries: [String]) -> String? {
        if entries.contains(indexName) { return nil }
        let known = Set(directories + [lockName, indexName + ".creating", indexName + ".creating-journal"])
        return entries.first { !known.contains($0) }
    }

    /// Relative path of an object: `maps/ab/ab12….pack`.
    public static func relativePath(kind: StoredObjectKind, sha256: String) -> String {
        "\(kind.directory)/\(sha256.prefix(2))/\(sha256)\(kind.fileSuffix)"
    }

    /// Whether `s` is 64 lowercase hex digits.
    public static func isSHA256(_ s: String) -> Bool {
        s.utf8.count == 64 && s.utf8.allSatisfy { ($0 >= 48 && $0 <= 57) || ($0 >= 97 && $0 <= 102) }
    }
}

/// Eviction starts once the store holds more than `quota − evictionMargin` bytes, and frees
/// unreferenced files until it holds at most that much.
public let evictionMargin: Int64 = 50_000_000

/// The default limit on unique map packs across a store's regions.
public let defaultMaxPacks = 750
