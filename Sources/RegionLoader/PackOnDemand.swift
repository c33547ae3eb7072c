import Foundation
import MapPacks
import OffgridCore
import PackRepository
import RepositoryClient
import TileMath
import TileStore

/// The repository side of `tilestore serve --repository` (the SDK's read-and-update mode): the
/// repository's tilesets at their latest versions, which pack holds a tile, and fetching one pack
/// into the store through the same client (size cap, SHA-256) and the same install checks (every
/// tile's CRC32, the header's band, parent and tileset) as `load`. No store lock is held while
/// the bytes cross the network; the store's lock only for the one-transaction install.
public final class PackOnDemand: @unchecked Sendable {
    /// One tileset at the repository's latest version.
    public struct Tileset: Sendable {
        /// The repository's name for it (`tilesets/<name>/…`).
        public var repositoryName: String
        public var index: TilesetVersionIndex
        public var bands: [ZoomBand]
        public var byKey: [String: RepositoryEntry]
        public var expiresAt: Int64?
        /// The store's name: the pack headers' tileset id.
        public var name: String { index.tilesetId }

        init(repositoryName: String, index: TilesetVersionIndex) {
            self.repositoryName = repositoryName
            self.index = index
            bands = index.bands.compactMap { b in
                let p = b.split(separator: "-").compactMap { Int($0) }
                return p.count == 2 ? ZoomBand(p[0], p[1]) : nil
            }
            byKey = Dictionary(index.entries.map { ($0.key, $0) }, uniquingKeysWith: { a, _ in a })
            expiresAt = index.expires.flatMap { ISO8601.parse($0) }
        }

        /// The key of the pack that holds tile z/x/y (the band's parent tile), or nil when z is
        /// outside every band or the tile lies outside the tileset's bounds: never fetched.
        public func packKey(z: Int, x: Int, y: Int) -> MapPackKey? {
            guard z >= index.minZoom, z <= index.maxZoom, let band = bands.first(where: { $0.zooms.contains(z) }) else { return nil }
            let tile = TileCoordinate(z: z, x: x, y: y)
            guard tile.isValid else { return nil }
            if let b = index.bounds {
                let t = WebMercator.bounds(zoom: z, x: x, y: y)
                guard t.maxLon > b[0], t.minLon < b[2], t.maxLat > b[1], t.minLat < b[3] else { return nil }
            }
            return MapPackKey(minZoom: band.minZoom, maxZoom: band.maxZoom, parent: tile.ancestor(atZoom: band.minZoom))
        }
    }

    public let client: RepositoryClient
    private let indexes: RepositoryIndexes
    public let store: String
    private let partialDirectory: String
    private let lock = NSLock()
    /// Version indexes already fetched, by their SHA-256 (immutable once published).
    private var versionCache: [String: TilesetVersionIndex] = [:]

    public init(repository: RepositoryLocation, options: FetchOptions, store: String) throws {
        client = RepositoryClient(location: repository, options: options)
        self.store = store
        partialDirectory = try TileStore.open(store, access: .read, quiet: true).partialDirectory
        indexes = RepositoryIndexes(client: client, cacheDirectory: partialDirectory)
    }

    public func shutdown() async { await client.shutdown() }

    /// `index.json` and the latest version of every tileset, by store name.
    public func latestTilesets() async throws -> [String: Tileset] {
        let (top, _) = try await indexes.top()
        var out: [String: Tileset] = [:]
        for t in top.tilesets {
            guard let ref = t.versions.first else { continue }
            let index: TilesetVersionIndex
            if let cached = lock.withLock({ versionCache[ref.sha256] }) {
                index = cached
            } else {
                index = try await indexes.tileset(ref)
                lock.withLock { versionCache[ref.sha256] = index }
            }
            let tileset = Tileset(repositoryName: t.name, index: index)
            out[tileset.name] = out[tileset.name] ?? tileset
        }
        return out
    }

    /// Fetches the pack `key` of `tileset` into the store's partial area (size and SHA-256
    /// checked as the bytes arrive), then stores it: as an ambient pack, or in place of the
    /// outdated pack `replacing` for every region using it. A bad pack is refused with one
    /// line naming its URL; nothing of it is stored.
    public func fetch(_ tileset: Tileset, key: MapPackKey, replacing: String?, ambientLimit: Int64,
                      lastUsed: [String: Int64]) async throws -> Fetched {
        let started = MonotonicClock.nanoseconds()
        guard let entry = tileset.byKey[key.description] else {
            throw InputError(file: client.location.url(tileset.index.name), "has no pack \(key)")
        }
        let object = ObjectRequest(sha256: entry.sha256, size: Int64(entry.size))
        let url = client.location.url(object.relativePath)
        _ = try await client.fetchObject(object.relativePath, sha256: entry.sha256, size: Int64(entry.size),
                                         partialDirectory: partialDirectory, received: { _ in })
        let partial = (partialDirectory as NSString).appendingPathComponent(entry.sha256 + ".part")
        defer { unlink(partial) }
        let pack = TileStore.FetchedPack(file: partial, sha256: entry.sha256, bytes: Int64(entry.size), tileset: tileset.name,
                                         key: key.description, version: tileset.index.version, source: url,
                                         expiresAt: tileset.expiresAt, replacing: replacing)
        let fetched = MonotonicClock.nanoseconds()
        let store = try TileStore.open(self.store, access: .write, quiet: true)
        defer { store.close() }
        let outcome = try store.storeFetchedPack(pack, ambientLimit: ambientLimit, lastUsed: lastUsed)
        return Fetched(outcome: outcome, fetchSeconds: Double(fetched - started) / 1e9,
                       storeSeconds: MonotonicClock.seconds(since: fetched))
    }

    /// What one fetch did, and where its time went (the bytes over the network, then the checks
    /// and the durable install under the store's lock).
    public struct Fetched: Sendable {
        public var outcome: TileStore.FetchedPackOutcome
        public var fetchSeconds: Double
        public var storeSeconds: Double
    }
}
