import Foundation
import MapPacks
import OffgridCore
import PackRepository
import TileMath
import TileSources

/// `tilepack-build publish maps`: every pack of a tileset (all bands) into a repository as
/// content-addressed objects, then its version index, then `index.json`.
public enum MapPublisher {
    public struct Options {
        /// The tileset's name in the repository.
        public var tileset: String
        /// Overrides the source's metadata `version`.
        public var version: String?
        public var bands: ZoomBands = .standard
        public var threads = ProcessInfo.processInfo.activeProcessorCount
        public init(tileset: String, version: String? = nil) {
            self.tileset = tileset
            self.version = version
        }
    }

    /// The version to publish: `--version`, else the source's metadata `version` (a string or
    /// a whole number); an error when neither says.
    public static func version(source: TileSource, override: String?) throws -> String {
        if let override { return try checkedName(override, "--version") }
        switch source.info.metadata["version"] {
        case .string(let s)?: return try checkedName(s, "the metadata version", file: source.path)
        case let v? where v.intValue != nil: return String(v.intValue!)
        default:
            throw InputError(file: source.path, "the tileset's metadata has no version: give --version")
        }
    }

    /// Publishes the tileset at `sourcePath`. `progress` counts tile bytes and packs.
    public static func publish(sourcePath: String, options: Options, repository: String, onWait: () -> Void = {},
                               progress: ProgressFactory) throws -> PublishSummary {
        let started = MonotonicClock.nanoseconds()
        let name = try checkedName(options.tileset, "--tileset")
        let source = try TileSources.open(path: sourcePath)
        let version = try version(source: source, override: options.version)
        let packs = try TilesetPacks.plan(source: source, bands: options.bands)
        guard !packs.isEmpty else { throw InputError(file: sourcePath, "the tileset has no tiles: nothing to publish") }

        let writer = try RepositoryWriter(root: repository, onWait: onWait)
        defer { writer.close() }
        let sink = progress("publish maps", Int64(packs.reduce(0) { $0 + $1.tileBytes }), packs.count, "packs")
        let entries: [RepositoryEntry]
        do {
            entries = try storePacks(packs, source: source, writer: writer, threads: options.threads, progress: sink)
        } catch {
            sink.cancel()
            throw error
        }
        FaultPoint.reached("publish-objects-written")
        let info = source.info
        let index = TilesetVersionIndex(
            name: name, version: version, tileType: info.tileType, tileCompression: info.tileCompression,
            minZoom: info.minZoom, maxZoom: info.maxZoom, bounds: info.bounds,
            bands: TilesetPacks.bands(source: source, bands: options.bands).map(\.description), tilesetId: info.name,
            attribution: info.metadata["attribution"]?.stringValue, metadata: info.metadata, expires: info.expires, entries: entries)
        let outcome = try writer.commit(index)
        sink.finish(extra: ["objectsWritten": .int(writer.counts.objectsWritten)])
        return PublishSummary(kind: "maps", repository: repository, name: name, version: version, outcome: outcome,
                              index: RepositoryLayout.tilesetIndexPath(name: name, version: version), entries: index.entries,
                              counts: writer.counts, started: started)
    }

    /// Encodes every pack (workers with a source handle and a buffer each) and stores it.
    static func storePacks(_ packs: [PlannedPack], source: TileSource, writer: RepositoryWriter, threads: Int,
                           progress: any ProgressSink) throws -> [RepositoryEntry] {
        let workers = max(1, min(threads, packs.count))
        let sources: [TileSource] = try (0..<workers).map { $0 == 0 ? source : try TileSources.open(path: source.path) }
        var entries = [RepositoryEntry?](repeating: nil, count: packs.count)
        var bytesDone: Int64 = 0, packsDone = 0
        let lock = NSLock()
        let scratch = (0..<workers).map { _ in ScratchBuffer() }   // one per worker, reused across its packs
        try Parallel.forEach(count: packs.count, threads: workers) { w, i in
            let (parts, built) = try TilesetPacks.encode(packs[i], source: sources[w], scratch: &scratch[w].bytes)
            try writer.putObject(parts: parts, sha256: built.sha256)
            let key = MapPackKey(minZoom: built.header.band.minZoom, maxZoom: built.header.band.maxZoom, parent: built.header.parent)
            lock.lock()
            entries[i] = RepositoryEntry(key: key.description, sha256: built.sha256, size: built.stats.fileBytes)
            bytesDone += Int64(built.stats.tileBytes)
            packsDone += 1
            progress.update(bytesDone: bytesDone, itemsDone: packsDone)
            lock.unlock()
        }
        return entries.map { $0! }
    }
}
