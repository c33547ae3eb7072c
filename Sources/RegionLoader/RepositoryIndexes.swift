import Foundation
import OffgridCore
import PackRepository
import RepositoryClient

/// The repository's indexes as one load sees them: `index.json` (revalidated with its ETag
/// against a copy cached in the store's partial area, so an unchanged index is not fetched
/// again), and per-version indexes checked against the size and SHA-256 `index.json` names.
public struct RepositoryIndexes: Sendable {
    public let client: RepositoryClient
    /// The store's partial-download directory (the index cache lives there), or nil (no cache).
    public let cacheDirectory: String?

    public init(client: RepositoryClient, cacheDirectory: String?) {
        self.client = client
        self.cacheDirectory = cacheDirectory
    }

    /// `index.json`, and whether the server said it had not changed.
    public func top() async throws -> (RepositoryIndex, notModified: Bool) {
        let url = client.location.url("index.json")
        let cache = cacheDirectory.map { ($0 as NSString).appendingPathComponent("index-" + String(SHA256.hex(SHA256.hash(Array(url.utf8))).prefix(16))) }
        var etag: String?
        var cached: [UInt8]?
        if let cache, let e = try? String(contentsOfFile: cache + ".etag", encoding: .utf8),
           let b = try? FileTools.readFile(cache + ".json", maxBytes: client.options.maxIndexBytes) {
            etag = e
            cached = b
        }
        switch try await client.fetchIndex("index.json", etag: etag) {
        case .notModified:
            return (try RepositoryIndex.decode(cached ?? [], source: url), true)
        case .body(let bytes, let newTag):
            let index = try RepositoryIndex.decode(bytes, source: url)
            if let cache {
                try? FileManager.default.removeItem(atPath: cache + ".etag")
                if let newTag {
                    try? AtomicFile.write(bytes, to: cache + ".json")
                    try? AtomicFile.write(Array(newTag.utf8), to: cache + ".etag")
                }
            }
            return (index, false)
        }
    }

    /// A per-version index file, checked against the top-level index's size and hash.
    func versionFile(_ ref: RepositoryIndex.VersionRef) async throws -> [UInt8] {
        let url = client.location.url(ref.index)
        guard ref.size <= client.options.maxIndexBytes else {
            throw InputError(file: url, "index.json names \(ref.size) bytes, over the \(client.options.maxIndexBytes)-byte limit for an index; refused")
        }
        guard case .body(let bytes, _) = try await client.fetchIndex(ref.index) else {
            throw InputError(file: url, "the server answered 304 without a cached copy")
        }
        guard bytes.count == ref.size else { throw InputError(file: url, "has \(bytes.count) bytes, index.json says \(ref.size)") }
        let sha = SHA256.hex(SHA256.hash(bytes))
        guard sha == ref.sha256 else { throw InputError(file: url, "SHA-256 \(sha) does not match index.json (\(ref.sha256))") }
        return bytes
    }

    public func tileset(_ ref: RepositoryIndex.VersionRef) async throws -> TilesetVersionIndex {
        try TilesetVersionIndex.decode(try await versionFile(ref), source: client.location.url(ref.index))
    }

    func routing(_ ref: RepositoryIndex.VersionRef) async throws -> RoutingVersionIndex {
        try RoutingVersionIndex.decode(try await versionFile(ref), source: client.location.url(ref.index))
    }
}
