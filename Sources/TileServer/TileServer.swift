import Foundation
import Hummingbird
import Logging
import NIOCore
import OffgridCore
import TileStore

/// `tilestore serve`: the store's tiles, TileJSON, styles, sprites and glyph ranges over HTTP
/// (Hummingbird 2), for MapLibre and any other client. Reads the store through a read-only
/// `TileStore` (no lock: writers go on installing and evicting); a background thread checks
/// SQLite's `data_version` every `reloadInterval` and swaps in a new snapshot when another
/// process committed. SIGTERM or SIGINT: stop accepting, finish in-flight requests, return.
///
///     let server = try TileServer(store: "out/store")
///     try await server.run(host: "127.0.0.1", port: 0) { address in print(address) }
public final class TileServer: @unchecked Sendable {
    private let store: TileStore
    private let lock = NSLock()
    /// One reload at a time (the reloader thread and fetches both reload).
    private let reloadLock = NSLock()
    private var snapshot: StoreSnapshot
    private var address = ""
    private var stopped = false
    private let quiet: Bool
    public let reloadInterval: Double
    /// `--repository`: tiles the store lacks are fetched by packs (nil: the store as it is).
    private(set) var onDemand: OnDemandPacks?
    /// The viewer page's options (MapLibre GL JS files, the routing server).
    public let viewer: ViewerOptions
    let routing: RoutingProxy?

    public init(store path: String, reloadInterval: Double = 1, quiet: Bool = false, onDemand: OnDemandOptions? = nil,
                viewer: ViewerOptions = ViewerOptions()) throws {
        if onDemand != nil, !FileManager.default.fileExists(atPath: (path as NSString).appendingPathComponent("index.sqlite")) {
            // An empty store is where on-demand serving starts from: create it.
            try TileStore.open(path, access: .write, quiet: true).close()
        }
        store = try TileStore.open(path, access: .read, quiet: true)
        self.quiet = quiet
        self.reloadInterval = reloadInterval
        self.viewer = viewer
        routing = viewer.routingURL.map { RoutingProxy(base: $0) }
        snapshot = StoreSnapshot(catalog: try store.servingCatalog(), version: try store.dataVersion(), previous: nil)
        if let onDemand { self.onDemand = try OnDemandPacks(options: onDemand, store: path, server: self) }
        for w in snapshot.warnings { log("warning: \(w)") }
    }

    /// What the server holds now: tileset names and style ids.
    public var contents: (tilesets: [String], styles: [String]) {
        let s = current()
        return (s.tilesets.keys.sorted(), Set(s.styles.values.map(\.id)).sorted())
    }

    func current() -> StoreSnapshot {
        lock.lock(); defer { lock.unlock() }
        return snapshot
    }

    func listeningAddress() -> String {
        lock.lock(); defer { lock.unlock() }
        return address
    }

    func now() -> Int64 { Int64(Date().timeIntervalSince1970) }

    func log(_ message: String) {
        if !quiet { StdIO.err("tilestore serve: \(message)\n") }
    }

    /// Takes a new snapshot when the index changed since the current one was taken.
    public func reloadIfChanged() { reload(force: false) }

    /// Takes a new snapshot when the index changed (or always, `force`: the repository changed).
    func reload(force: Bool) {
        reloadLock.lock()
        defer { reloadLock.unlock() }
        do {
            let version = try store.dataVersion()
            guard force || version != current().version else { return }
            let next = StoreSnapshot(catalog: try store.servingCatalog(), version: version, previous: current(),
                                     repository: onDemand?.repositoryTilesets() ?? [:],
                                     repositoryPacks: onDemand == nil ? [:] : try store.repositoryPackVersions())
            for w in next.warnings { log("warning: \(w)") }
            lock.lock()
            snapshot = next
            lock.unlock()
        } catch {
            log("warning: cannot reload the store index (still serving the previous snapshot): \(error)")
        }
    }

    /// Serves until SIGTERM/SIGINT. `onReady` gets `host:port` once listening (port 0 picks one).
    public func run(host: String, port: Int, onReady: @escaping @Sendable (String) -> Void) async throws {
        // Storing a fetched pack writes temporary files, whose registry would install its own
        // SIGINT/SIGTERM handler (remove, re-raise: exit by signal) over the graceful shutdown's.
        // Installed first, it is replaced by the shutdown's handling below; a file left in tmp/ by
        // a stop is removed by the store's next writer.
        TempPathRegistry.installSignalHandlers()
        var logger = Logger(label: "tilestore-serve") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = .error
        let reloader = Thread { [self] in
            while true {
                Thread.sleep(forTimeInterval: reloadInterval)
                let done = lock.withLock { stopped }
                if done { return }
                reloadIfChanged()
            }
        }
        reloader.start()
        defer { lock.withLock { stopped = true } }
        if let onDemand {
            await onDemand.checkRepository()
            reload(force: true)
        }
        let app = Application(
            responder: TileResponder(server: self),
            configuration: .init(address: .hostname(host, port: port), serverName: nil, reuseAddress: true),
            onServerRunning: { [self] channel in
                let bound = "\(host.contains(":") ? "[\(host)]" : host):\(channel.localAddress?.port ?? port)"
                lock.withLock { address = bound }
                onReady(bound)
            },
            logger: logger)
        do {
            try await app.runService(gracefulShutdownSignals: [.sigterm, .sigint])
        } catch {
            await stopClients()
            throw error
        }
        await stopClients()
    }

    private func stopClients() async {
        if let onDemand {
            onDemand.flushLastUsed()
            await onDemand.shutdown()
        }
        await routing?.shutdown()
    }

    /// `GET /`: what the server holds, with the URLs to use.
    func indexDocument(_ s: StoreSnapshot, base: String) -> JSONValue {
        let tilesets: [JSONValue] = s.tilesets.keys.sorted().map { name in
            let t = s.tilesets[name]!
            return ["name": .string(name), "tilejson": .string("\(base)/tiles/\(ServerRoute.percentEncode(name)).json"),
                    "tiles": .int(t.index.count), "minzoom": .int(t.minZoom), "maxzoom": .int(t.maxZoom)]
        }
        var seen: Set<String> = []
        let styles: [JSONValue] = s.styles.values.sorted { $0.uri < $1.uri }.compactMap { style in
            guard seen.insert(style.uri).inserted else { return nil }
            return ["uri": .string(style.uri), "id": .string(style.id),
                    "style": .string("\(base)/styles/\(ServerRoute.percentEncode(style.id))/style.json")]
        }
        var regions: [JSONValue] = []
        for (name, t) in s.tilesets.sorted(by: { $0.key < $1.key }) {
            for r in t.regions { regions.append(["id": .string(r.id), "tileset": .string(name), "bbox": r.bbox.map { .array($0.map { .double($0) }) } ?? .null]) }
        }
        var doc: [String: JSONValue] = ["tilesets": .array(tilesets), "styles": .array(styles), "regions": .array(regions)]
        if let onDemand {
            doc["repository"] = ["url": .string(onDemand.options.repository.description), "ambientLimit": .int(Int(onDemand.options.ambientLimit)),
                                 "packsFetched": .int(onDemand.fetches)]
        }
        doc["routing"] = routing == nil ? .null : .string("\(base)/route/v1")
        return .object(doc)
    }
}

extension TileServer {
    /// Runs the server from synchronous code (the CLI): blocks until it stops; rethrows its error.
    public func runBlocking(host: String, port: Int, onReady: @escaping @Sendable (String) -> Void) throws {
        let done = DispatchSemaphore(value: 0)
        let failure = ErrorBox()
        Task.detached { [self] in
            do { try await run(host: host, port: port, onReady: onReady) } catch { failure.error = error }
            done.signal()
        }
        done.wait()
        if let error = failure.error { throw error }
    }
}

private final class ErrorBox: @unchecked Sendable {
    var error: Error?
}
