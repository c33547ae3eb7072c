import Foundation
import OffgridCore
import PackRepository
import RegionLoader
import RepositoryClient
import TileMath
import TileStore

/// How `serve --repository` fills the store while it serves (the SDK's read-and-update mode).
public struct OnDemandOptions: Sendable {
    public var repository: RepositoryLocation
    /// The ambient cache's limit in bytes.
    public var ambientLimit: Int64 = TileStore.defaultAmbientLimit
    /// Seconds between checks of the repository's `index.json` for newer versions.
    public var checkInterval: Double = 60
    public var fetch: FetchOptions

    public init(repository: RepositoryLocation, fetch: FetchOptions) {
        self.repository = repository
        self.fetch = fetch
    }
}

/// The serving side of on-demand packs: which pack a request needs, fetching it ONCE however many
/// requests wait for it (single-flight, by the pack's hash), refreshing outdated packs when they
/// are used, the repository's index checked every `checkInterval` seconds in the background, and
/// the last use of every served pack kept in memory (written to the store with each fetch).
final class OnDemandPacks: @unchecked Sendable {
    /// What a tile request needs before the snapshot can answer it.
    enum Preparation {
        /// Answer from this snapshot (after a fetch, a newer one); `stale`: an outdated pack that
        /// could not be refreshed is served as it is.
        case serve(StoreSnapshot, stale: Bool)
        /// The repository publishes no data there (no pack, or the stored pack lacks the tile): 204.
        case empty
        /// The pack could not be fetched (network, a bad pack): 502 with this line.
        case failed(String)
    }

    let options: OnDemandOptions
    private let repository: PackOnDemand
    private unowned let server: TileServer
    private let lock = NSLock()
    private var tilesets: [String: PackOnDemand.Tileset] = [:]
    private var checkedAt: Double = -.infinity
    private var checking: Task<Void, Never>?
    private var inFlight: [String: Task<TileStore.FetchedPackOutcome, Error>] = [:]
    private var lastUsed: [String: Int64] = [:]
    /// The last failed fetch of a pack (its hash): not tried again for `retryAfter` seconds, so
    /// that offline every tile of an outdated pack is not held up by a fetch bound to fail.
    private var failures: [String: (at: Double, error: String)] = [:]
    private var retryAfter: Double { min(options.checkInterval, 30) }
    /// Packs fetched so far (each fetch counted once, however many requests waited for it).
    private(set) var fetches = 0

    init(options: OnDemandOptions, store: String, server: TileServer) throws {
        self.options = options
        repository = try PackOnDemand(repository: options.repository, options: options.fetch, store: store)
        self.server = server
    }

    /// The repository's tilesets as the snapshot shows them.
    func repositoryTilesets() -> [String: StoreSnapshot.RepositoryTileset] {
        lock.withLock { tilesets }.mapValues { t in
            StoreSnapshot.RepositoryTileset(name: t.name, tileType: t.index.tileType, compression: t.index.tileCompression,
                                            minZoom: t.index.minZoom, maxZoom: t.index.maxZoom, bounds: t.index.bounds,
                                            vectorLayers: t.index.vectorLayers ?? [], attribution: t.index.attribution)
        }
    }

    /// Reads `index.json` (and new version indexes) now; on failure keeps what it had. True when
    /// the tilesets changed.
    @discardableResult
    func checkRepository() async -> Bool {
        do {
            let latest = try await repository.latestTilesets()
            let changed = lock.withLock { () -> Bool in
                checkedAt = Double(MonotonicClock.nanoseconds()) / 1e9
                let changed = latest.mapValues(\.index.version) != tilesets.mapValues(\.index.version)
                    || latest.mapValues { $0.index.entries.count } != tilesets.mapValues { $0.index.entries.count }
                tilesets = latest
                return changed
            }
            if changed { server.reload(force: true) }
            return changed
        } catch {
            lock.withLock { checkedAt = Double(MonotonicClock.nanoseconds()) / 1e9 }
            server.log("warning: cannot read the repository's index (serving what the store holds): \(error)")
            return false
        }
    }

    /// Starts a background check when the last one is older than the interval.
    private func checkIfDue() {
        lock.lock()
        let due = checking == nil && Double(MonotonicClock.nanoseconds()) / 1e9 - checkedAt >= options.checkInterval
        if due {
            checking = Task { [self] in
                await checkRepository()
                lock.withLock { checking = nil }
            }
        }
        lock.unlock()
    }

    /// Decides, fetches if needed, and says what to answer tile z/x/y of tileset `name` from.
    func prepare(name: String, z: Int, x: Int, y: Int, snapshot: StoreSnapshot) async -> Preparation {
        checkIfDue()
        guard let tileset = lock.withLock({ tilesets[name] }) else { return .serve(snapshot, stale: false) }
        if let t = snapshot.tilesets[name], let at = t.index.locate(z: z, x: x, y: y) {
            guard let stored = snapshot.packsByTag[at.pack.tag] else { return .serve(snapshot, stale: false) }
            lock.withLock { lastUsed[stored.sha256] = Int64(Date().timeIntervalSince1970 * 1000) }
            let key = MapPackKeyText.key(bandMin: stored.bandMin, bandMax: stored.bandMax, z: stored.parentZ, x: stored.parentX, y: stored.parentY)
            guard snapshot.repositoryPacks[stored.sha256] != nil, let latest = tileset.byKey[key], latest.sha256 != stored.sha256,
                  let packKey = MapPackKey(key) else {
                return .serve(snapshot, stale: false)
            }
            // Outdated: replaced now for every region using it; served as it is when that fails.
            do {
                _ = try await fetchOnce(tileset, packKey, sha256: latest.sha256, replacing: stored.sha256)
                return .serve(server.current(), stale: false)
            } catch {
                return .serve(snapshot, stale: true)
            }
        }
        guard let packKey = tileset.packKey(z: z, x: x, y: y) else { return .serve(snapshot, stale: false) }
        guard let entry = tileset.byKey[packKey.description] else { return .empty }
        if snapshot.packsByTag[String(entry.sha256.prefix(16))] != nil { return .empty }
        do {
            _ = try await fetchOnce(tileset, packKey, sha256: entry.sha256, replacing: nil)
        } catch {
            return .failed("\(error)")
        }
        let fresh = server.current()
        // The pack is stored now; a tile it lacks has no data (204), like one of a region's cover.
        guard fresh.tilesets[name]?.index.locate(z: z, x: x, y: y) != nil else { return .empty }
        return .serve(fresh, stale: false)
    }

    /// One fetch per pack hash at a time: later callers wait for the first one's result.
    private func fetchOnce(_ tileset: PackOnDemand.Tileset, _ key: MapPackKey, sha256: String,
                           replacing: String?) async throws -> TileStore.FetchedPackOutcome {
        let task: Task<TileStore.FetchedPackOutcome, Error> = try lock.withLock {
            if let running = inFlight[sha256] { return running }
            if let failed = failures[sha256], Self.now() - failed.at < retryAfter {
                throw InputError("\(failed.error) (not tried again for \(String(format: "%g", retryAfter)) s)")
            }
            let used = lastUsed
            let limit = options.ambientLimit
            let task = Task<TileStore.FetchedPackOutcome, Error> { [self] in
                let started = MonotonicClock.nanoseconds()
                defer { lock.withLock { inFlight[sha256] = nil } }
                do {
                    let fetched = try await repository.fetch(tileset, key: key, replacing: replacing, ambientLimit: limit, lastUsed: used)
                    lock.withLock { _ = failures.removeValue(forKey: sha256) }
                    let outcome = fetched.outcome
                    // The new snapshot is in place before anyone else may ask for this pack again.
                    let reloading = MonotonicClock.nanoseconds()
                    server.reload(force: true)
                    let ms = Double(MonotonicClock.nanoseconds() - started) / 1e6
                    func f(_ v: Double) -> String { String(format: "%.1f", v) }
                    server.log("\(replacing == nil ? "fetched" : "refreshed") pack \(key) of \(tileset.name) \(tileset.index.version) in \(f(ms)) ms"
                               + " (fetch \(f(fetched.fetchSeconds * 1000)), store \(f(fetched.storeSeconds * 1000)), snapshot \(f(MonotonicClock.seconds(since: reloading) * 1000)))"
                               + (outcome.regionsUpdated.isEmpty ? "" : " (regions \(outcome.regionsUpdated.joined(separator: ", ")))")
                               + (outcome.evicted.isEmpty ? "" : "; evicted \(outcome.evicted.count) ambient packs"))
                    return outcome
                } catch {
                    server.log("error: pack \(key) of \(tileset.name) not stored: \(error)")
                    lock.withLock { failures[sha256] = (Self.now(), "\(error)") }
                    throw error
                }
            }
            inFlight[sha256] = task
            fetches += 1
            return task
        }
        return try await task.value
    }

    static func now() -> Double { Double(MonotonicClock.nanoseconds()) / 1e9 }

    /// Writes the in-memory last uses to the store (at shutdown).
    func flushLastUsed() {
        let used = lock.withLock { lastUsed }
        guard !used.isEmpty, let store = try? TileStore.open(repository.store, access: .write, quiet: true) else { return }
        try? store.touchAmbient(used)
        store.close()
    }

    func shutdown() async { await repository.shutdown() }
}

/// `<band>/<z>-<x>-<y>`, the repository's key of a stored pack.
enum MapPackKeyText {
    static func key(bandMin: Int, bandMax: Int, z: Int, x: Int, y: Int) -> String { "\(bandMin)-\(bandMax)/\(z)-\(x)-\(y)" }
}
