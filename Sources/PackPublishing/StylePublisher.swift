import OffgridCore
import PackRepository
import StylePacks

/// `tilepack-build publish style`: a style pack (checked whole first) as an object, listed under
/// its URI.
public enum StylePublisher {
    /// Style packs larger than this are refused (the repository's object cap).
    public static let maxBytes = RepositoryRules.maxObjectBytes

    public static func publish(stylePack path: String, repository: String, onWait: () -> Void = {}) throws -> PublishSummary {
        let started = MonotonicClock.nanoseconds()
        let bytes = try FileTools.readFile(path, maxBytes: maxBytes)
        let pack = try StylePack(bytes: bytes, name: path)
        guard RepositoryRules.isStyleURI(pack.uri) else {
            throw InputError(file: path, "the style URI \"\(pack.uri.prefix(80))\" is not 1-1024 bytes without control characters")
        }
        let sha = SHA256.hex(SHA256.hash(bytes))
        let writer = try RepositoryWriter(root: repository, onWait: onWait)
        defer { writer.close() }
        try writer.putObject(parts: [bytes[...]], sha256: sha)
        FaultPoint.reached("publish-objects-written")
        let outcome = try writer.commitStyle(uri: pack.uri, sha256: sha, size: bytes.count)
        return PublishSummary(kind: "style", repository: repository, name: pack.uri, version: nil, outcome: outcome, index: nil,
                              entries: [RepositoryEntry(key: "style", sha256: sha, size: bytes.count)],
                              counts: writer.counts, started: started)
    }
}
