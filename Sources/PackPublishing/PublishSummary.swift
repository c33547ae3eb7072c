import OffgridCore
import PackRepository

/// What one publish did, for the JSON summary on stdout: which version, whether the index
/// changed, and the objects written (new bytes) and reused (already in the repository).
public struct PublishSummary: Encodable, Sendable {
    /// "maps", "routing" or "style".
    public var kind: String
    public var repository: String
    /// Tileset name, routing profile or style URI.
    public var name: String
    /// Tileset version or routing data version (nil for styles).
    public var version: String?
    /// "published" (the index changed) or "unchanged" (everything was already there).
    public var outcome: String
    /// Per-version index (nil for styles).
    public var index: String?
    /// Objects the version lists.
    public var objects: Int
    public var objectsWritten: Int
    public var objectsReused: Int
    /// Bytes of all listed objects.
    public var bytes: Int64
    public var bytesWritten: Int64
    public var bytesReused: Int64
    public var seconds: Double

    init(kind: String, repository: String, name: String, version: String?, outcome: RepositoryWriter.Outcome, index: String?,
         entries: [RepositoryEntry], counts: RepositoryWriter.Counts, started: UInt64) {
        self.kind = kind
        self.repository = repository
        self.name = name
        self.version = version
        self.outcome = outcome.rawValue
        self.index = index
        objects = entries.count
        bytes = entries.reduce(Int64(0)) { $0 + Int64($1.size) }
        objectsWritten = counts.objectsWritten
        objectsReused = counts.objectsReused
        bytesWritten = counts.bytesWritten
        bytesReused = counts.bytesReused
        seconds = MonotonicClock.seconds(since: started)
    }
}

/// A version name as the repository accepts it, or a one-line error saying what `what` is.
func checkedName(_ s: String, _ what: String, file: String? = nil) throws -> String {
    guard RepositoryRules.isName(s) else {
        throw InputError(file: file, "\(what) \"\(s.prefix(80))\" is not [A-Za-z0-9._-]{1,128} (and not . or ..)")
    }
    return s
}
